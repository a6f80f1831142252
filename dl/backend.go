package dl

import "fmt"

// This file is the seam between dl's ops and the code that owns device
// memory and runs kernels on it.
//
// A backend serves one DeviceKind, and registers itself for it from an
// init function in its own file (registerBackend): cpuBackend
// (cpu_backend.go) serves CPU, simBackend (device_sim.go) serves Sim with
// the CPU backend's memory and kernels, and the CUDA backend (cuda_backend.go) serves CUDA.  Every
// lookup below goes through that table, so adding a backend is one new
// file: its memory methods are what the caching allocator and To need;
// once it also implements kernels, ops run on its devices, and until then
// they panic with a *DeviceError.
//
// Ops never touch device memory directly.  They check shapes, dtypes and
// devices, allocate outputs with newTensor (the caching allocator in
// device_memory.go calls malloc only on a cache miss), and call kernels
// on views.
// Kernels receive Float32 or Float64 views only, except fill, cast and
// permute, and gemm, whose A and B may be Float16/BFloat16 with a Float32
// C: other ops decode Float16/BFloat16 to float32 before computing and
// encode the result (float32 accumulation, see ops_half.go).  The CPU
// backend also takes integer and Bool views for the ops ops_int.go
// allows; other backends get integer views only in fill, cast and copies.  Every
// view is a contiguous row-major range of one storage.

// buffer is one allocation of device memory: host memory (host != nil)
// or a device address (addr).
type buffer struct {
	addr uintptr // device address (device backends)
	host []byte  // the memory (host backends); nil on devices
}

// memoryBackend allocates and copies device memory.
type memoryBackend interface {
	// deviceCount returns the number of devices of the backend's kind.
	deviceCount() int
	// malloc returns nbytes of fresh memory on dev, or an error if the
	// device has none left (wrapping the driver's out-of-memory error).
	malloc(dev Device, nbytes int) (buffer, error)
	// free returns memory obtained from malloc.
	free(dev Device, b buffer)
	// copy copies n bytes from src (on sd, from byte srcOff) to dst (on
	// dd, from byte dstOff).  One of the devices may be a host device,
	// whose buffers have host set.
	copy(dd Device, dst buffer, dstOff int, sd Device, src buffer, srcOff int, n int)
}

// kernels computes on views of one device's memory.  Methods may panic
// with a dl error; arguments are valid (ops check them).
type kernels interface {
	// fill sets every element of dst to v (any dtype).
	fill(dst view, v float64)
	// cast converts src into dst (same length, any dtypes).
	cast(dst, src view)
	// unary computes dst[i] = op(src[i]).
	unary(op unaryOp, dst, src view)
	// binary computes dst = op(a, b) with broadcasting described by bc
	// (nil: a, b and dst have the same length).
	binary(op binaryOp, dst, a, b view, bc *broadcast)
	// scalar computes dst[i] = op(src[i], s).
	scalar(op scalarOp, dst, src view, s float64)
	// reduce reduces src, seen as [outer, n, inner], over its middle axis
	// into dst [outer, inner].  For argmax dst is Int64 on host backends
	// and holds the indices as floats of src's dtype on device backends.
	reduce(op reduceOp, dst, src view, outer, n, inner int)
	// permute copies src (shape dims, any dtype) into dst, whose axis i
	// is src's axis perm[i].
	permute(dst, src view, dims, perm []int)
	// gemm computes batch products C = alpha*op(A)*op(B) + beta*C with
	// gonum's Sgemm conventions (see gemmArgs).
	gemm(k MatMulKernel, g *gemmArgs)
}

// indexKernels are the kernels of index-based ops (IndexSelect, OneHot,
// Max's backward, CrossEntropy, Where, Linear's bias).  They are a
// separate interface so that a backend can add them after the core set;
// ops on a device whose backend lacks them panic with a *DeviceError.
type indexKernels interface {
	// indexSelect copies rows: dst row i = src row idx[i], rows of rowLen
	// elements (any dtype).  idx is in host memory and in range.
	indexSelect(dst, src view, idx []int, rowLen int)
	// indexAdd adds rows: dst row idx[i] += src row i (indices may
	// repeat; Float32/Float64).
	indexAdd(dst, src view, idx []int, rowLen int)
	// where computes dst[i] = cond[i] != 0 ? a[i] : b[i] (same lengths;
	// Float32/Float64).
	where(dst, cond, a, b view)
}

// view is a contiguous range of n elements of a storage, starting at
// element off.
type view struct {
	st  *storage
	off int
	n   int
}

// backend is one entry of the table: a registered memory backend and, if
// it computes ops, its kernels (found once, at registration).
type backend struct {
	mem memoryBackend
	k   kernels      // nil: ops on these devices panic with a *DeviceError
	ik  indexKernels // nil: index-based ops panic with a *DeviceError
}

// backends is the table of backends by the kind they serve, filled by
// registerBackend from init functions (so before any op runs) and only
// read afterwards, which is why reading it needs no lock.  Like GoMLX's
// backends.Register.
var backends = map[DeviceKind]backend{}

// registerBackend makes be serve the devices of kind.  Call it from an
// init function, once per kind; a backend that also implements kernels
// (and indexKernels) computes ops on those devices.
func registerBackend(kind DeviceKind, be memoryBackend) {
	if _, dup := backends[kind]; dup {
		panic(fmt.Errorf("dl: a second backend registered for %v devices", kind))
	}
	b := backend{mem: be}
	b.k, _ = be.(kernels)
	b.ik, _ = be.(indexKernels)
	backends[kind] = b
}

// memoryBackendOf returns the memory backend of dev's kind, or nil if no
// backend serves it (newTensor's device check comes first).
func memoryBackendOf(dev Device) memoryBackend { return backends[dev.kind].mem }

// kernelsOf returns the kernels for dev, panicking with a *DeviceError
// naming op if dev does not exist or its backend has no kernels.
func kernelsOf(op string, dev Device) kernels {
	if k := backends[dev.kind].k; k != nil {
		return k
	}
	dev.check(op)
	panic(&DeviceError{Op: op, Devices: []Device{dev}, Reason: "the " + dev.kind.String() + " backend does not compute this op yet",
		Fix: "move the tensors to the CPU with .To(dl.CPU)"})
}

// k returns the kernels of t's device.
func (t *Tensor) k(op string) kernels { return kernelsOf(op, t.dev) }

// ik returns the index kernels of t's device.
func (t *Tensor) ik(op string) indexKernels {
	if ik := backends[t.dev.kind].ik; ik != nil {
		return ik
	}
	t.k(op) // a backend without any kernels says so first
	panic(&DeviceError{Op: op, Devices: []Device{t.dev}, Reason: "the backend of " + t.dev.String() + " does not compute this op yet",
		Fix: "move the tensors to the CPU with .To(dl.CPU)"})
}

// copyView copies src's elements into dst (same dtype and length, same
// device kind or host).  A copy that involves a device's own memory is
// that device's backend's (host code cannot reach it), so the source's
// backend copies unless the source is in host memory.
func copyView(dst, src view) {
	sz := dst.st.dtype.Size()
	be := memoryBackendOf(dst.st.dev)
	if !src.st.dev.IsHost() {
		be = memoryBackendOf(src.st.dev)
	}
	be.copy(dst.st.dev, dst.st.blk.buf, dst.off*sz, src.st.dev, src.st.blk.buf, src.off*sz, dst.n*sz)
}
