package dl

import (
	"math"
	"runtime"
	"slices"
)

// Tensor is a dense, row-major n-dimensional array on a device, with an
// optional autograd history, like torch.Tensor.
//
// Tensors are always contiguous.  Reshape, View, Squeeze, Unsqueeze and
// Detach return views that share memory with their input; Transpose and
// Permute copy (PyTorch returns strided views; MatMul's autograd passes
// transposes to the GEMM kernel as flags, so training never copies).
//
// Methods that compute return new tensors (out-of-place); methods ending
// in InPlace modify the receiver and are invisible to autograd.  Misuse
// (mismatched shapes, devices or dtypes) panics with a typed error; see
// Catch.  A *Tensor is not safe for concurrent mutation; concurrent reads
// by ops are fine.
type Tensor struct {
	st    *storage
	off   int   // first element in st
	shape []int // never shared with callers
	n     int   // number of elements
	dtype DType
	dev   Device

	released string  // who released it ("" while live)
	value    float64 // a one-element tensor's value, kept when Backward released it (hasValue)
	hasValue bool
	cleanup  runtime.Cleanup

	// autograd state
	requiresGrad bool
	retained     bool
	grad         *Tensor
	node         *node // the op that produced it; nil for leaves
	out          int   // which output of node
	hooks        []func(*Tensor)
	pending      *Tensor // leaf gradient being summed during Backward
	deps         int     // uses left during Backward (leaves)
	leafPass     uint64  // Backward call that last counted deps
}

// numel returns the product of dims, which are valid (the shape of an
// existing tensor, or checked by checkedNumel).
func numel(dims []int) int {
	n := 1
	for _, d := range dims {
		n *= d
	}
	return n
}

// MaxElements is the most elements a tensor can have: 2^60 - 1, so that
// its size in bytes (up to 8 per element) fits in an int64.  Shapes with
// more panic with a *ShapeError instead of wrapping around to a small or
// negative count.  (PyTorch checks the same overflow: "numel: integer
// multiplication overflow".)
const MaxElements = math.MaxInt64 / 8

// checkedNumel returns the number of elements of dims, panicking with a
// *ShapeError naming op if a dimension is negative or the product exceeds
// MaxElements.  A zero dimension makes the count 0 whatever the others
// are, as in PyTorch.
func checkedNumel(op string, dims []int) int {
	n, zero, over := 1, false, false
	for _, d := range dims {
		switch {
		case d < 0:
			panic(shapeErr(op, [][]int{dims}, "dimensions must be >= 0", "negative dimension in %v", dims))
		case d == 0:
			zero = true
		case n > MaxElements/d:
			over = true
		default:
			n *= d
		}
	}
	if zero {
		return 0
	}
	if over {
		panic(shapeErr(op, [][]int{dims}, "use smaller dimensions (a tensor holds at most dl.MaxElements elements)",
			"shape %v has more than %d elements: the element count overflows", dims, MaxElements))
	}
	return n
}

// newTensor allocates an uninitialised tensor.  Every op allocates its
// output here first, so this is where an op checks the context of
// SetCancel before it starts.
func newTensor(op string, dev Device, dt DType, dims []int) *Tensor {
	CheckCancel(op)
	n := checkedNumel(op, dims)
	if !dt.valid() {
		panic(&DTypeError{Op: op, DTypes: []DType{dt}, Reason: "unknown dtype " + dt.String(), Fix: "use one of the dtypes of dl: Float32, Float64, Float16, BFloat16, Int64, Int32, Uint8, Bool"})
	}
	if !dev.IsHost() || dev.index != 0 {
		dev.check(op)
	}
	st := &storage{dev: dev, dtype: dt, n: n, nbytes: int64(n) * int64(dt.Size())}
	if n > 0 {
		st.blk = memoryOf(dev).get(op, st.nbytes)
	}
	return wrap(st, 0, slices.Clone(dims))
}

// wrap returns a new handle on st (taking a reference) with the given
// offset and shape (owned by the tensor).
func wrap(st *storage, off int, dims []int) *Tensor {
	st.retain()
	t := &Tensor{st: st, off: off, shape: dims, n: numel(dims), dtype: st.dtype, dev: st.dev}
	t.cleanup = runtime.AddCleanup(t, (*storage).decRef, st)
	return t
}

// like allocates an uninitialised tensor with t's device and dtype.
func (t *Tensor) like(op string, dims []int) *Tensor { return newTensor(op, t.dev, t.dtype, dims) }

// v returns the view of t's elements, panicking if t was released.
func (t *Tensor) v(op string) view {
	t.live(op)
	return view{st: t.st, off: t.off, n: t.n}
}

// live panics with *ReleasedError if t was released, and with a
// *ValueError if t is nil.
func (t *Tensor) live(op string) {
	t.notNil(op)
	if t.released != "" {
		panic(&ReleasedError{Op: op, Reason: t.released, Value: t.value, HasValue: t.hasValue})
	}
}

// notNil panics with a *ValueError naming op if t is a nil *Tensor (a
// variable never assigned, or a Grad that does not exist yet), instead of
// the runtime's nil pointer dereference.
func (t *Tensor) notNil(op string) {
	if t == nil {
		panic(&ValueError{Op: op, Reason: "a tensor argument is a nil *Tensor",
			Fix: "assign the tensor first (a Grad is nil until Backward reaches the tensor)"})
	}
}

// Shape returns a copy of the dimensions, like torch.Tensor.shape.
func (t *Tensor) Shape() []int {
	t.notNil("Shape")
	return slices.Clone(t.shape)
}

// Dims returns the number of dimensions (0 for a scalar), like
// torch.Tensor.dim.
func (t *Tensor) Dims() int {
	t.notNil("Dims")
	return len(t.shape)
}

// Size returns the length of one axis; negative axes count from the end,
// like torch.Tensor.size(dim).
func (t *Tensor) Size(axis int) int {
	t.notNil("Size")
	return t.shape[t.axis("Size", axis)]
}

// Numel returns the number of elements, like torch.Tensor.numel.
func (t *Tensor) Numel() int {
	t.notNil("Numel")
	return t.n
}

// DType returns the element type.
func (t *Tensor) DType() DType {
	t.notNil("DType")
	return t.dtype
}

// Device returns the device holding t's memory.
func (t *Tensor) Device() Device {
	t.notNil("Device")
	return t.dev
}

// Bytes returns the size of t's elements in bytes (Numel × DType.Size).
func (t *Tensor) Bytes() int64 {
	t.notNil("Bytes")
	return int64(t.n) * int64(t.dtype.Size())
}

// Released reports whether t's memory was released.
func (t *Tensor) Released() bool {
	t.notNil("Released")
	return t.released != ""
}

// Release returns t's memory to its device's caching allocator now,
// instead of when the garbage collector finds t unreachable (a runtime
// cleanup, whose timing is not deterministic), so that MemoryStats are
// exact.  Views sharing the memory keep it alive until they are released
// too.  Using t afterwards panics with *ReleasedError.  Release is
// idempotent, and does nothing on a nil *Tensor (so `defer t.Release()`
// is safe whatever t holds).
func (t *Tensor) Release() { t.releaseBy("Release") }

func (t *Tensor) releaseBy(reason string) {
	if t == nil || t.released != "" {
		return
	}
	t.released = reason
	t.cleanup.Stop()
	t.st.decRef()
}

// Retain marks t so that Backward does not release it when it frees the
// graph (intermediate tensors are released by default), and returns t.
func (t *Tensor) Retain() *Tensor {
	t.notNil("Retain")
	t.retained = true
	return t
}

// axis normalises a possibly negative axis of t, panicking with a
// *ShapeError if it is out of range.
func (t *Tensor) axis(op string, a int) int {
	t.notNil(op)
	return normAxis(op, a, t.shape)
}

func normAxis(op string, a int, shape []int) int {
	r := len(shape)
	if a < -r || a >= r {
		panic(shapeErr(op, [][]int{shape}, "axes go from -rank to rank-1",
			"axis %d out of range for a tensor of shape %v", a, shape))
	}
	if a < 0 {
		a += r
	}
	return a
}
