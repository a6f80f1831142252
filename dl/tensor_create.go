package dl

import (
	"fmt"
	"math"
	"unsafe"
)

// Options says where and how a constructor creates a tensor, like the
// device=, dtype= and generator= arguments of torch.zeros and friends.
// The zero value creates Float32 tensors on CPU with DefaultGenerator:
// dl.Zeros(2, 3) is Options{}.Zeros(2, 3).
type Options struct {
	Device    Device     // where the tensor lives (zero value: CPU)
	DType     DType      // element type (zero value: Float32)
	Generator *Generator // random numbers for Rand/Randn (nil: DefaultGenerator)
}

// Zeros returns a tensor of zeros, like torch.zeros.
func (o Options) Zeros(dims ...int) *Tensor { return o.Full(0, dims...) }

// Ones returns a tensor of ones, like torch.ones.
func (o Options) Ones(dims ...int) *Tensor { return o.Full(1, dims...) }

// Full returns a tensor filled with v, like torch.full.
func (o Options) Full(v float64, dims ...int) *Tensor {
	t := newTensor("Full", o.Device, o.DType, dims)
	if t.n > 0 {
		t.k("Full").fill(t.v("Full"), v)
	}
	return t
}

// Scalar returns a tensor of shape [] holding v, like torch.tensor(v).
func (o Options) Scalar(v float64) *Tensor { return o.Full(v) }

// Arange returns the 1-D tensor start, start+step, ... below end (above
// it for a negative step), like torch.arange.  It panics with a
// *ShapeError if step is 0.
func (o Options) Arange(start, end, step float64) *Tensor {
	if step == 0 || math.IsNaN(step) {
		panic(shapeErr("Arange", nil, "use a non-zero step", "step must be non-zero, got %v", step))
	}
	n := int(math.Max(0, math.Ceil((end-start)/step)))
	vals := make([]float64, n)
	for i := range vals {
		vals[i] = start + float64(i)*step
	}
	return o.FromFloat64s(vals, n)
}

// FromFloat64s returns a tensor of shape dims holding a copy of data,
// converted to o.DType, on o.Device.  With no dims it is 1-D.  It panics
// with a *ShapeError if len(data) does not match dims.
func (o Options) FromFloat64s(data []float64, dims ...int) *Tensor {
	if len(dims) == 0 {
		dims = []int{len(data)}
	}
	return fromHost(o, "FromFloat64s", data, dims)
}

// Zeros returns a float32 tensor of zeros on CPU; see Options.Zeros.
func Zeros(dims ...int) *Tensor { return Options{}.Zeros(dims...) }

// Ones returns a float32 tensor of ones on CPU; see Options.Ones.
func Ones(dims ...int) *Tensor { return Options{}.Ones(dims...) }

// Full returns a float32 tensor on CPU filled with v; see Options.Full.
func Full(v float64, dims ...int) *Tensor { return Options{}.Full(v, dims...) }

// Scalar returns a float32 tensor of shape [] on CPU holding v.
func Scalar(v float64) *Tensor { return Options{}.Scalar(v) }

// Arange returns a 1-D float32 tensor on CPU; see Options.Arange.
func Arange(start, end, step float64) *Tensor { return Options{}.Arange(start, end, step) }

// FromSlice returns a tensor on CPU holding a copy of data with shape dims
// (1-D when dims is empty); its dtype is Float32 for []float32 and Float64
// for []float64, like torch.tensor.  It panics with a *ShapeError if
// len(data) does not match dims.
func FromSlice[T float32 | float64](data []T, dims ...int) *Tensor {
	if len(dims) == 0 {
		dims = []int{len(data)}
	}
	return fromHost(Options{DType: dtypeOf[T]()}, "FromSlice", data, dims)
}

// ZerosLike returns zeros with t's shape, dtype and device.
func ZerosLike(t *Tensor) *Tensor { return t.opts().Zeros(t.shape...) }

// OnesLike returns ones with t's shape, dtype and device.
func OnesLike(t *Tensor) *Tensor { return t.opts().Ones(t.shape...) }

// opts returns the Options that create tensors like t.
func (t *Tensor) opts() Options { return Options{Device: t.dev, DType: t.dtype} }

func dtypeOf[T float32 | float64]() DType {
	var zero T
	if unsafe.Sizeof(zero) == 8 {
		return Float64
	}
	return Float32
}

// fromHost builds a tensor from host values: copied into a CPU tensor,
// converted to the dtype there, then copied to the device.
func fromHost[T float32 | float64](o Options, op string, data []T, dims []int) *Tensor {
	checkDims(op, dims)
	if n := numel(dims); n != len(data) {
		panic(shapeErr(op, [][]int{dims}, "pass as many values as the shape holds",
			"%d values for shape %v (%d elements)", len(data), dims, n))
	}
	src := newTensor(op, CPU, dtypeOf[T](), dims)
	if src.n > 0 {
		var zero T
		copy(src.st.bytes(), unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(data))), len(data)*int(unsafe.Sizeof(zero))))
	}
	t := src.AsType(o.DType)
	if t != src {
		src.Release()
	}
	u := t.To(o.Device)
	if u != t {
		t.Release()
	}
	return u
}

// String describes the options, for messages.
func (o Options) String() string { return fmt.Sprintf("device=%v, dtype=%v", o.Device, o.DType) }
