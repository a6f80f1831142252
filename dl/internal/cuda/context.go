package cuda

import (
	"fmt"
	"runtime"
	"sync"
)

// Context is the primary context of one device: the CUDA state (memory,
// modules, streams) that the runtime API, cuBLAS and NCCL use for that
// device too, which is why this package never creates its own contexts.
//
// A CUDA context is "current" per OS thread, but goroutines move between
// threads at any moment. So every method runs its calls inside Do, which
// pins the goroutine to its thread and makes this context current there
// first. Contexts are retained for the life of the process.
type Context struct {
	Ordinal int // device number, as in "cuda:0"
	dev     int32
	h       uintptr

	mu      sync.Mutex
	modules map[[32]byte]uintptr // loaded CUmodule by image hash (see Function)
	target  string               // NVRTC target, once known (see Target)
	blas    *BLAS
}

var (
	ctxMu sync.Mutex
	ctxs  = map[int]*Context{}
)

// Primary returns device i's primary context, retaining it on first use.
func Primary(i int) (*Context, error) {
	ctxMu.Lock()
	defer ctxMu.Unlock()
	if c := ctxs[i]; c != nil {
		return c, nil
	}
	if _, err := Device(i); err != nil { // validates i, reports ErrNoDevice
		return nil, err
	}
	c := &Context{Ordinal: i, modules: map[[32]byte]uintptr{}}
	if err := drvCheck(cuDeviceGet(&c.dev, int32(i)), "cuDeviceGet", fmt.Sprint(i)); err != nil {
		return nil, err
	}
	if err := drvCheck(cuDevicePrimaryCtxRetain(&c.h, c.dev), "cuDevicePrimaryCtxRetain", fmt.Sprint(i)); err != nil {
		return nil, err
	}
	ctxs[i] = c
	return c, nil
}

// Do runs f with this context current on the calling OS thread, and keeps
// the goroutine on that thread until f returns. Calls nest freely.
func (c *Context) Do(f func() error) error {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if err := drvCheck(cuCtxSetCurrent(c.h), "cuCtxSetCurrent", c.name()); err != nil {
		return err
	}
	return f()
}

// Synchronize waits until all work queued on this device has finished.
// Kernel launches and cuBLAS calls are asynchronous: errors inside a
// kernel (a bad address, say) surface here or at the next blocking call.
func (c *Context) Synchronize() error {
	return c.Do(func() error { return drvCheck(cuCtxSynchronize(), "cuCtxSynchronize", c.name()) })
}

// MemInfo returns the device's free and total memory in bytes, as the
// driver sees them (other processes' allocations included).
func (c *Context) MemInfo() (free, total int64, err error) {
	err = c.Do(func() error {
		var f, t uint64
		if err := drvCheck(cuMemGetInfo(&f, &t), "cuMemGetInfo_v2", c.name()); err != nil {
			return err
		}
		free, total = int64(f), int64(t)
		return nil
	})
	return free, total, err
}

func (c *Context) name() string { return fmt.Sprintf("cuda:%d", c.Ordinal) }
