package dl

import (
	"errors"
	"fmt"
	"sync"
	"unsafe"

	"github.com/dlbd/dlbd/dl/internal/cuda"
)

// The CUDA backend: device memory through the driver API of
// dl/internal/cuda. It is linked into every program, GPU or not: without
// a driver or GPU, deviceCount is 0 and CUDA(i) devices are unavailable,
// which is an ordinary *DeviceError, not a crash (the library is loaded at
// run time; nothing here needs CUDA to build).
//
// Memory accounting (MemoryStats) is the caching allocator's, on top of
// malloc/free here: every byte it reports was really allocated on the GPU
// with cuMemAlloc. cuBLAS's own workspace and the CUDA context itself are
// outside it; CUDAMemInfo shows the driver's view, which includes them.
//
// Course: "Devices" (moving data to the GPU) and "Computación eficiente
// para Deep Learning" (GPUs).
type cudaMem struct {
	mu   sync.Mutex
	ctxs map[int]*cuda.Context
	fns  map[string]cuda.Function // "device/kernel" -> loaded kernel
}

// theCUDA is the CUDA backend; ops reach its kernels through it.
var theCUDA = &cudaMem{ctxs: map[int]*cuda.Context{}, fns: map[string]cuda.Function{}}

func init() { registerBackend(CUDAKind, theCUDA) }

// deviceCount asks the driver once per call (the driver caches it). A
// missing driver or GPU counts as 0 devices.
func (c *cudaMem) deviceCount() int {
	n, err := cuda.DeviceCount()
	if err != nil {
		return 0
	}
	return n
}

// context returns the primary context of dev, panicking with a
// *DeviceError naming op if the GPU cannot be used.
func (c *cudaMem) context(op string, dev Device) *cuda.Context {
	c.mu.Lock()
	defer c.mu.Unlock()
	if ctx := c.ctxs[dev.Index()]; ctx != nil {
		return ctx
	}
	ctx, err := cuda.Primary(dev.Index())
	if err != nil {
		panic(cudaDeviceError(op, err, dev))
	}
	c.ctxs[dev.Index()] = ctx
	return ctx
}

// cudaDeviceError wraps a failed CUDA call as the *DeviceError ops panic
// with: the CUDA error (call, status name and text) is the reason.
func cudaDeviceError(op string, err error, devs ...Device) *DeviceError {
	fix := "check the GPU with nvidia-smi; kernel errors surface at the next synchronising call"
	if errors.Is(err, cuda.ErrNoDriver) || errors.Is(err, cuda.ErrNoDevice) {
		fix = "use dl.DefaultDevice() for device-agnostic code, or dl.Sim(i) to simulate a GPU"
	}
	return &DeviceError{Op: op, Devices: devs, Reason: err.Error(), Fix: fix}
}

// malloc allocates nbytes with cuMemAlloc. When the GPU is full it
// returns an error worded like PyTorch's, with the driver's figures.
func (c *cudaMem) malloc(dev Device, nbytes int) (buffer, error) {
	ctx := c.context("malloc", dev)
	p, err := ctx.Alloc(int64(nbytes))
	if err != nil {
		if errors.Is(err, cuda.ErrOutOfMemory) {
			return buffer{}, fmt.Errorf("%s: %w", cudaOOMText(ctx, int64(nbytes)), err)
		}
		return buffer{}, err
	}
	return buffer{addr: uintptr(p)}, nil
}

// cudaOOMText is PyTorch's wording of a failed allocation, from the
// driver's total and free memory (other processes and the CUDA context
// included): "CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0;
// 139.81 GiB total capacity; 1.50 GiB free)". The caching allocator adds
// what dl itself holds.
func cudaOOMText(ctx *cuda.Context, requested int64) string {
	free, total, err := ctx.MemInfo()
	if err != nil {
		return fmt.Sprintf("CUDA out of memory. Tried to allocate %s (GPU %d)", FormatBytes(requested), ctx.Ordinal)
	}
	return fmt.Sprintf("CUDA out of memory. Tried to allocate %s (GPU %d; %s total capacity; %s free)",
		FormatBytes(requested), ctx.Ordinal, FormatBytes(total), FormatBytes(free))
}

// free releases memory from malloc, after the GPU has finished the work
// queued on it (kernels run asynchronously; the caching allocator frees
// rarely, so the wait is cheap). Reuse of a cached block needs no wait:
// all work goes to one stream, in order.
func (c *cudaMem) free(dev Device, b buffer) {
	ctx := c.context("free", dev)
	err := ctx.Synchronize()
	if err == nil {
		err = ctx.Free(cuda.DevPtr(b.addr))
	}
	if err != nil {
		panic(cudaDeviceError("free", err, dev))
	}
}

// copy moves n bytes host→device, device→host, within a GPU or between
// two GPUs. Host memory here is ordinary (pageable) Go memory: the driver
// copies it through a pinned staging buffer, which is why CUDABandwidth
// measures pinned copies separately.
func (c *cudaMem) copy(dd Device, dst buffer, dstOff int, sd Device, src buffer, srcOff int, n int) {
	if n == 0 {
		return
	}
	var err error
	switch {
	case sd.IsHost():
		err = c.context("To", dd).CopyHtoD(cuda.DevPtr(dst.addr).Add(int64(dstOff)), unsafe.Pointer(&src.host[srcOff]), int64(n))
	case dd.IsHost():
		err = c.context("To", sd).CopyDtoH(unsafe.Pointer(&dst.host[dstOff]), cuda.DevPtr(src.addr).Add(int64(srcOff)), int64(n))
	case sd == dd:
		err = c.context("copy", dd).CopyDtoD(cuda.DevPtr(dst.addr).Add(int64(dstOff)), cuda.DevPtr(src.addr).Add(int64(srcOff)), int64(n))
	default:
		err = cuda.CopyPeer(c.context("To", dd), cuda.DevPtr(dst.addr).Add(int64(dstOff)),
			c.context("To", sd), cuda.DevPtr(src.addr).Add(int64(srcOff)), int64(n))
	}
	if err != nil {
		panic(cudaDeviceError("To", err, sd, dd))
	}
}
