package dl

import "github.com/dlbd/dlbd/dl/internal/scope"

// autocastMode is the goroutine-local autocast state that amp.Autocast
// sets and MatMul, Linear and the ops of AutocastOps consult.  It lives in
// dl/internal/scope because amp opens it and dl cannot import amp; like
// grad mode it is goroutine-local, so data-parallel ranks on goroutines
// are independent.
var autocastMode = scope.Autocast

// AutocastDType returns the calling goroutine's autocast dtype and whether
// autocast (amp.Autocast) is on, like torch.get_autocast_dtype and
// torch.is_autocast_enabled.
func AutocastDType() (DType, bool) {
	s := autocastMode.Get()
	if !s.On {
		return 0, false
	}
	return s.DType.(DType), true
}

// autocast returns the operands cast to the autocast dtype when autocast
// is on and they are Float32 (nil operands stay nil).
func autocast(ts ...*Tensor) []*Tensor {
	dt, on := AutocastDType()
	if !on {
		return ts
	}
	out := make([]*Tensor, len(ts))
	for i, t := range ts {
		if t != nil && t.dtype == Float32 {
			out[i] = t.AsType(dt)
		} else {
			out[i] = t
		}
	}
	return out
}
