package amp

import (
	"github.com/dlbd/dlbd/dl"
	"github.com/dlbd/dlbd/dl/internal/scope"
)

// Autocast runs fn with automatic mixed precision to dt (dl.Float16 or
// dl.BFloat16) on the calling goroutine, like
// `with torch.autocast(device_type, dtype=dt):`.  Inside fn, the ops of
// dl.AutocastOps().LowPrecision (MatMul, MatMulWith, Linear, FusedLinear, Conv2d)
// cast Float32 inputs to dt and multiply with float32 accumulation; the
// ops of the Float32 list (softmax, log-softmax, layer norm, sums and
// means, exp, log, pow, the losses) cast half inputs to Float32 and
// return Float32; Add, Sub, Mul and Div promote mixed inputs to the wider
// dtype.  Other ops run in their inputs' dtype.  Parameters stay Float32
// (the master weights): the casts are differentiable, so gradients flow
// back through each op in the dtype its forward used and reach the
// parameters as Float32.
//
// The scope is goroutine-local, as torch's is thread-local: goroutines
// started inside fn (and other data-parallel ranks) are not affected.
// Backward is normally called outside the scope, as in torch.  It panics
// with a *dl.DTypeError unless dt is a half dtype.
//
// Course: "Prácticas de eficiencia computacional" (autocast).
func Autocast(dt dl.DType, fn func()) {
	if !dt.IsHalf() {
		panic(&dl.DTypeError{Op: "amp.Autocast", DTypes: []dl.DType{dt}, Reason: "autocast computes in a 2-byte dtype, not " + dt.String(),
			Fix: "use dl.Float16 or dl.BFloat16"})
	}
	scope.Autocast.With(scope.AutocastState{On: true, DType: dt}, fn)
}
