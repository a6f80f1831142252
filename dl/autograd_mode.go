package dl

import "github.com/dlbd/dlbd/dl/internal/gls"

// gradMode is the goroutine-local grad mode (true: ops record the graph).
var gradMode = gls.New(true)

// NoGrad runs fn with gradient recording disabled on the calling
// goroutine, like `with torch.no_grad():`.  Ops inside fn build no graph
// and keep no saved tensors (use it for evaluation and for parameter
// updates).  The scope is goroutine-local: goroutines started inside fn
// record as usual, and other goroutines (e.g. other data-parallel ranks)
// are not affected.
func NoGrad(fn func()) { gradMode.With(false, fn) }

// EnableGrad runs fn with gradient recording enabled on the calling
// goroutine, even inside NoGrad, like torch.enable_grad.
func EnableGrad(fn func()) { gradMode.With(true, fn) }

// IsGradEnabled reports whether ops on the calling goroutine record the
// graph, like torch.is_grad_enabled.
func IsGradEnabled() bool { return gradMode.Get() }
