package dl

import "github.com/dlbd/dlbd/dl/internal/gls"

// autocastMode is the goroutine-local autocast state: MatMul and Linear
// consult it (the hook point for dl/amp).  Like grad mode, it lives in
// dl/internal/gls, so data-parallel ranks on goroutines are independent.
var autocastMode = gls.New(autocastState{})

type autocastState struct {
	on    bool
	dtype DType
}

// WithAutocast runs fn with autocast to dt on the calling goroutine, like
// `with torch.autocast(device, dtype=dt):` for matrix products: MatMul,
// MatMulWith and Linear cast Float32 operands to dt (a differentiable
// AsType, so gradients come back in float32), multiply with float32
// accumulation, and return a dt result.  Softmax, LayerNorm, sums, Exp,
// Log, Pow and the losses run in float32, and Add/Sub/Mul/Div promote
// mixed dtypes: the lists are in AutocastOps (autocast_policy.go).  Other
// ops run in their inputs' dtype.  It panics with a *DTypeError unless dt is Float16 or BFloat16.
// Course: "Prácticas de eficiencia computacional" (mixed precision).
func WithAutocast(dt DType, fn func()) {
	if !dt.IsHalf() {
		panic(&DTypeError{Op: "WithAutocast", DTypes: []DType{dt}, Reason: "autocast computes in a 2-byte dtype, not " + dt.String(),
			Fix: "use dl.Float16 or dl.BFloat16"})
	}
	autocastMode.With(autocastState{on: true, dtype: dt}, fn)
}

// AutocastDType returns the calling goroutine's autocast dtype and whether
// autocast is on.
func AutocastDType() (DType, bool) {
	s := autocastMode.Get()
	return s.dtype, s.on
}

// autocast returns the operands cast to the autocast dtype when autocast
// is on and they are Float32 (nil operands stay nil).
func autocast(ts ...*Tensor) []*Tensor {
	s := autocastMode.Get()
	if !s.on {
		return ts
	}
	out := make([]*Tensor, len(ts))
	for i, t := range ts {
		if t != nil && t.dtype == Float32 {
			out[i] = t.AsType(s.dtype)
		} else {
			out[i] = t
		}
	}
	return out
}
