package dl

import "fmt"

// Float32s returns a copy of t's elements converted to float32, in
// row-major order (from any device and dtype).
func (t *Tensor) Float32s() []float32 {
	h := t.hostAs("Float32s", Float32)
	out := make([]float32, t.n)
	copy(out, h.v("Float32s").f32())
	h.releaseIfTemp(t)
	return out
}

// Float64s returns a copy of t's elements converted to float64, in
// row-major order (from any device and dtype).
func (t *Tensor) Float64s() []float64 {
	h := t.hostAs("Float64s", Float64)
	out := make([]float64, t.n)
	copy(out, h.v("Float64s").f64())
	h.releaseIfTemp(t)
	return out
}

// Int64s returns a copy of t's elements converted to int64, in row-major
// order (from any device and dtype; floats are truncated toward zero, as
// .to(torch.int64) does), exact for every Int64 value.
func (t *Tensor) Int64s() []int64 {
	h := t.hostAs("Int64s", Int64)
	out := make([]int64, t.n)
	copy(out, elems[int64](h.v("Int64s")))
	h.releaseIfTemp(t)
	return out
}

// Bools returns a copy of t's elements as bools (nonzero is true), in
// row-major order, from any device and dtype.
func (t *Tensor) Bools() []bool {
	h := t.hostAs("Bools", Bool)
	out := make([]bool, t.n)
	for i, v := range elems[uint8](h.v("Bools")) {
		out[i] = v != 0
	}
	h.releaseIfTemp(t)
	return out
}

// Item returns the value of a tensor with one element as a float64, like
// torch.Tensor.item.  It panics with a *ShapeError otherwise.  A
// one-element intermediate that Backward released (the loss under
// scaler.Scale(loss).Backward()) keeps its value for Item, as PyTorch's
// loss.item() works after backward.
func (t *Tensor) Item() float64 {
	if t != nil && t.released != "" && t.hasValue {
		return t.value
	}
	t.live("Item")
	if t.n != 1 {
		panic(shapeErr("Item", [][]int{t.shape}, "index or reduce it first (e.g. t.Sum())",
			"Item needs a tensor with one element, got shape %v (%d elements)", t.shape, t.n))
	}
	return t.Float64s()[0]
}

// hostAs returns t converted to dt on the CPU (t itself when it already
// is); the caller releases it with releaseIfTemp.
func (t *Tensor) hostAs(op string, dt DType) *Tensor {
	t.live(op)
	h := t
	if !t.dev.IsHost() {
		h = t.To(CPU)
	}
	if h.dtype != dt {
		c := h.AsType(dt)
		if h != t {
			h.Release()
		}
		h = c
	}
	return h
}

func (h *Tensor) releaseIfTemp(t *Tensor) {
	if h != t {
		h.Release()
	}
}

// Float32Data returns t's elements as a slice of its host memory, without
// copying: writes through it change t.  Autograd does not see such
// writes.  The slice is valid while t (or a view of its memory) is live:
// after Release, or after Backward releases an intermediate, the memory
// may be reused by another tensor.  It panics with *DTypeError unless t is
// Float32 and with *DeviceError unless t is on a host device (CPU, Sim).
// Optimisers and collectives use it to update tensors in place.
func (t *Tensor) Float32Data() []float32 { return t.hostView("Float32Data", Float32).f32() }

// Float64Data is Float32Data for Float64 tensors.
func (t *Tensor) Float64Data() []float64 { return t.hostView("Float64Data", Float64).f64() }

// Int64Data is Float32Data for Int64 tensors (class targets, token ids):
// a loader fills a batch of labels through it without a copy.
func (t *Tensor) Int64Data() []int64 { return elems[int64](t.hostView("Int64Data", Int64)) }

// Uint16Data is Float32Data for Float16 and BFloat16 tensors: the raw
// 2-byte encodings (see dl/internal/kernels/half).
func (t *Tensor) Uint16Data() []uint16 {
	t.live("Uint16Data")
	if t.dtype.IsHalf() {
		return t.hostView("Uint16Data", t.dtype).u16()
	}
	return t.hostView("Uint16Data", Float16).u16()
}

func (t *Tensor) hostView(op string, dt DType) view {
	v := t.v(op)
	if t.dtype != dt {
		panic(&DTypeError{Op: op, DTypes: []DType{t.dtype}, Reason: fmt.Sprintf("the tensor has dtype %v, not %v", t.dtype, dt),
			Fix: "convert it with .AsType(dl." + dtGo(dt) + ") (a copy) or use the accessor of its dtype"})
	}
	if !t.dev.IsHost() {
		panic(&DeviceError{Op: op, Devices: []Device{t.dev}, Reason: fmt.Sprintf("the tensor is on %v, not in host memory", t.dev),
			Fix: "copy it with .To(dl.CPU), or use Float32s/Float64s (which copy)"})
	}
	return v
}

// hostBytes returns t's bytes in host memory (host devices only).
func (t *Tensor) hostBytes() []byte {
	b := t.st.bytes()
	sz := t.dtype.Size()
	return b[t.off*sz : (t.off+t.n)*sz]
}
