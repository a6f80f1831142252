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
// it for a negative step), like torch.arange.  Like PyTorch, it panics
// with a *ValueError if step is 0 or NaN, start or end is not finite, or
// end is on the wrong side of start for the step's sign (start == end
// gives an empty tensor), and with a *ShapeError if the count exceeds
// MaxElements.
func (o Options) Arange(start, end, step float64) *Tensor {
	const op = "Arange"
	switch {
	case step == 0 || math.IsNaN(step):
		panic(&ValueError{Op: op, Reason: fmt.Sprintf("step must be non-zero, got %v", step), Fix: "use a non-zero step"})
	case math.IsInf(start, 0) || math.IsInf(end, 0) || math.IsNaN(start) || math.IsNaN(end):
		panic(&ValueError{Op: op, Reason: fmt.Sprintf("unsupported range %v -> %v", start, end), Fix: "use finite start and end"})
	case (end-start)*step < 0:
		panic(&ValueError{Op: op, Reason: fmt.Sprintf("upper bound %v and lower bound %v inconsistent with step sign (%v)", end, start, step),
			Fix: "swap start and end, or change the sign of step"})
	}
	count := math.Ceil((end - start) / step)
	if count > MaxElements {
		panic(shapeErr(op, nil, "use a larger step or a shorter range (a tensor holds at most dl.MaxElements elements)",
			"%v to %v in steps of %v is %v elements", start, end, step, count))
	}
	src := newTensor(op, CPU, Float64, []int{int(count)})
	vals := src.v(op).f64()
	for i := range vals {
		vals[i] = start + float64(i)*step
	}
	return convertHost(o, src)
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
// (1-D when dims is empty); its dtype follows the element type, like
// torch.tensor: Float32 for []float32, Float64 for []float64, Int64 for
// []int64 (class targets, token ids), Int32, Uint8 and Bool.  It panics
// with a *ShapeError if len(data) does not match dims.
func FromSlice[T hostElem](data []T, dims ...int) *Tensor {
	if len(dims) == 0 {
		dims = []int{len(data)}
	}
	return fromHost(Options{DType: dtypeOf[T]()}, "FromSlice", data, dims)
}

// FromInt64s returns a tensor of shape dims holding data converted to
// o.DType on o.Device (1-D with no dims), exactly for integer dtypes: the
// way to build class targets or token ids of any dtype.  It panics with a
// *ShapeError if len(data) does not match dims.
func (o Options) FromInt64s(data []int64, dims ...int) *Tensor {
	if len(dims) == 0 {
		dims = []int{len(data)}
	}
	return fromHost(o, "FromInt64s", data, dims)
}

// ZerosLike returns zeros with t's shape, dtype and device.
func ZerosLike(t *Tensor) *Tensor {
	t.live("ZerosLike")
	return t.opts().Zeros(t.shape...)
}

// OnesLike returns ones with t's shape, dtype and device.
func OnesLike(t *Tensor) *Tensor {
	t.live("OnesLike")
	return t.opts().Ones(t.shape...)
}

// opts returns the Options that create tensors like t.
func (t *Tensor) opts() Options { return Options{Device: t.dev, DType: t.dtype} }

// hostElem is the Go element types FromSlice accepts.
type hostElem interface {
	float32 | float64 | int64 | int32 | uint8 | bool
}

func dtypeOf[T hostElem]() DType {
	var zero T
	switch any(zero).(type) {
	case float64:
		return Float64
	case int64:
		return Int64
	case int32:
		return Int32
	case uint8:
		return Uint8
	case bool:
		return Bool
	}
	return Float32
}

// fromHost builds a tensor from host values: copied into a CPU tensor,
// converted to the dtype there, then copied to the device.
func fromHost[T hostElem](o Options, op string, data []T, dims []int) *Tensor {
	if n := checkedNumel(op, dims); n != len(data) {
		panic(shapeErr(op, [][]int{dims}, "pass as many values as the shape holds",
			"%d values for shape %v (%d elements)", len(data), dims, n))
	}
	src := newTensor(op, CPU, dtypeOf[T](), dims)
	if src.n > 0 {
		var zero T
		copy(src.st.bytes(), unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(data))), len(data)*int(unsafe.Sizeof(zero))))
	}
	return convertHost(o, src)
}

// convertHost returns src (a CPU tensor) converted to o.DType on
// o.Device, releasing src and the intermediate copies it no longer needs.
func convertHost(o Options, src *Tensor) *Tensor {
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
