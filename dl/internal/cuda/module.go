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

// Int64s is a kernel argument passed by value as a C array or struct of
// long long, e.g. `struct Strides { long long v[8]; }` for a Go Int64s of
// length 8: how shapes and strides reach an N-dimensional kernel without
// an extra copy to device memory.
type Int64s []int64

// Launch queues f on stream s over grid×block threads with sharedBytes of
// dynamic shared memory. args are the kernel's parameters in order; each
// must have the C parameter's exact size: DevPtr (a pointer), int32,
// uint32, int64, uint64, float32, float64 or Int64s (by value). A plain
// Go int is refused, since the kernel cannot tell 4 bytes from 8. Errors
// inside the kernel appear at the next synchronising call.
func (c *Context) Launch(f Function, grid, block Dim3, sharedBytes int, s Stream, args ...any) error {
	slots, offs, err := packArgs(f.Name, args)
	if err != nil {
		return err
	}
	// cuLaunchKernel wants an array of pointers, one to each argument's
	// value; it copies the values before returning.
	ptrs := make([]unsafe.Pointer, len(offs))
	for i, o := range offs {
		ptrs[i] = unsafe.Pointer(&slots[o])
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

// packArgs stores the kernel arguments in 8-byte slots: one each for
// scalars, len(v) for an Int64s; offs[i] is argument i's first slot. On
// the little-endian machines this package supports, a 4-byte value sits
// in its slot's first 4 bytes, which is where the pointer to it points.
func packArgs(kernel string, args []any) (slots []uint64, offs []int, err error) {
	for i, a := range args {
		offs = append(offs, len(slots))
		switch v := a.(type) {
		case DevPtr:
			slots = append(slots, uint64(v))
		case int32:
			slots = append(slots, uint64(uint32(v)))
		case uint32:
			slots = append(slots, uint64(v))
		case int64:
			slots = append(slots, uint64(v))
		case uint64:
			slots = append(slots, v)
		case float32:
			slots = append(slots, uint64(math.Float32bits(v)))
		case float64:
			slots = append(slots, math.Float64bits(v))
		case Int64s:
			if len(v) == 0 {
				return nil, nil, fmt.Errorf("cuda: kernel %s argument %d is an empty Int64s", kernel, i)
			}
			for _, x := range v {
				slots = append(slots, uint64(x))
			}
		default:
			return nil, nil, fmt.Errorf("cuda: kernel %s argument %d has Go type %T; pass DevPtr, int32, uint32, int64, uint64, float32, float64 or Int64s (the C parameter's exact size)",
				kernel, i, a)
		}
	}
	return slots, offs, nil
}
