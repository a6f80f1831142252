package cuda

import (
	"crypto/sha256"
	"fmt"
	"math"
	"runtime"
	"unsafe"
)

// Function is a kernel (CUfunction) loaded into one context.
type Function struct {
	h    uintptr
	Name string
}

// Dim3 is a grid or block size, like CUDA's dim3; zero fields count as 1.
type Dim3 struct{ X, Y, Z int }

func (d Dim3) norm() (x, y, z uint32) {
	one := func(v int) uint32 {
		if v <= 0 {
			return 1
		}
		return uint32(v)
	}
	return one(d.X), one(d.Y), one(d.Z)
}

// Function loads img into this context (once per image) and returns the
// kernel called name. Kernels should be declared extern "C" so that name
// is not C++-mangled.
func (c *Context) Function(img *Image, name string) (Function, error) {
	key := sha256.Sum256(img.Data)
	c.mu.Lock()
	defer c.mu.Unlock()
	mod, ok := c.modules[key]
	if !ok {
		// The driver reads the whole image during the call; PTX images
		// carry their NUL terminator from nvrtcGetPTX.
		err := c.Do(func() error {
			return drvCheck(cuModuleLoadData(&mod, unsafe.Pointer(&img.Data[0])), "cuModuleLoadData", img.Target+" on "+c.name())
		})
		runtime.KeepAlive(img)
		if err != nil {
			return Function{}, err
		}
		c.modules[key] = mod
	}
	var f uintptr
	err := c.Do(func() error { return drvCheck(cuModuleGetFunction(&f, mod, name), "cuModuleGetFunction", name) })
	return Function{h: f, Name: name}, err
}

// Kernel compiles src for this device (cached) and returns its kernel name.
func (c *Context) Kernel(src, name string) (Function, error) {
	target, err := c.Target()
	if err != nil {
		return Function{}, err
	}
	img, err := Compile(src, name, target)
	if err != nil {
		return Function{}, err
	}
	return c.Function(img, name)
}

// Launch queues f on stream s over grid×block threads with sharedBytes of
// dynamic shared memory. args are the kernel's parameters in order; each
// must have the C parameter's exact size: DevPtr (a pointer), int32,
// uint32, int64, uint64, float32 or float64. A plain Go int is refused,
// since the kernel cannot tell 4 bytes from 8. Errors inside the kernel
// appear at the next synchronising call.
func (c *Context) Launch(f Function, grid, block Dim3, sharedBytes int, s Stream, args ...any) error {
	slots, err := packArgs(f.Name, args)
	if err != nil {
		return err
	}
	// cuLaunchKernel wants an array of pointers, one to each argument's
	// value; it copies the values before returning.
	ptrs := make([]unsafe.Pointer, len(slots))
	for i := range slots {
		ptrs[i] = unsafe.Pointer(&slots[i])
	}
	var params *unsafe.Pointer
	if len(ptrs) > 0 {
		params = &ptrs[0]
	}
	gx, gy, gz := grid.norm()
	bx, by, bz := block.norm()
	err = c.Do(func() error {
		return drvCheck(cuLaunchKernel(f.h, gx, gy, gz, bx, by, bz, uint32(sharedBytes), uintptr(s), params, nil),
			"cuLaunchKernel", fmt.Sprintf("%s grid %dx%dx%d block %dx%dx%d", f.Name, gx, gy, gz, bx, by, bz))
	})
	runtime.KeepAlive(slots)
	runtime.KeepAlive(ptrs)
	return err
}

// packArgs stores each kernel argument in its own 8-byte slot. On the
// little-endian machines this package supports, a 4-byte value sits in
// the slot's first 4 bytes, which is where the pointer to it points.
func packArgs(kernel string, args []any) ([]uint64, error) {
	slots := make([]uint64, len(args))
	for i, a := range args {
		switch v := a.(type) {
		case DevPtr:
			slots[i] = uint64(v)
		case int32:
			slots[i] = uint64(uint32(v))
		case uint32:
			slots[i] = uint64(v)
		case int64:
			slots[i] = uint64(v)
		case uint64:
			slots[i] = v
		case float32:
			slots[i] = uint64(math.Float32bits(v))
		case float64:
			slots[i] = math.Float64bits(v)
		default:
			return nil, fmt.Errorf("cuda: kernel %s argument %d has Go type %T; pass DevPtr, int32, uint32, int64, uint64, float32 or float64 (the C parameter's exact size)",
				kernel, i, a)
		}
	}
	return slots, nil
}
