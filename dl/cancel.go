package dl

import (
	"context"
	"errors"

	"github.com/dlbd/dlbd/dl/internal/cancel"
)

// ErrCanceled is what a *CanceledError unwraps to (besides the context's
// own error): the operation stopped because the context given to
// SetCancel is done.
var ErrCanceled = errors.New("dl: canceled: the cell was interrupted")

// SetCancel sets the process-wide context that long-running dl operations
// watch: once ctx is done, they stop at their next check by panicking
// with a *CanceledError naming the operation.  nil, or a context that is
// never done (context.Background), means never cancelled, the default.
//
// It is process-wide on purpose: the stateful notebook kernel runs every
// cell in one long-lived process, and its host calls SetCancel with the
// cell's context before each cell, so that the interrupt button stops a
// training loop as a KeyboardInterrupt stops PyTorch.  Library code does
// not call it.
//
// The checks: between GEMM macro-blocks (all of the call's goroutines
// leave before the panic), at every tensor allocation (so at the start of
// every op), per chunk of 1M elements of elementwise and reduction work
// on host devices, per node in Backward, per parameter in the optimizers
// of dl/optim and per batch in dl/data's loaders.  Each check is two
// atomic loads.  What an interrupted op had allocated is released (a
// MatMul's output at once; temporaries by the runtime cleanup of dropped
// tensors), and a gradient or optimizer step cut short leaves its
// tensors partly updated: call ZeroGrad before training again.
func SetCancel(ctx context.Context) { cancel.Set(ctx) }

// CheckCancel panics with a *CanceledError naming op if the context given
// to SetCancel is done.  Loops above dl that run for long without calling
// dl ops (an optimizer's parameter loop, a data loader) call it once per
// iteration.
func CheckCancel(op string) {
	if err := cancel.Err(); err != nil {
		panic(&CanceledError{Op: op, Cause: err})
	}
}

// CanceledError reports an operation stopped because the context given
// to SetCancel is done.  errors.Is(err, ErrCanceled) and
// errors.Is(err, context.Canceled) (or context.DeadlineExceeded) both
// hold.
type CanceledError struct {
	Op    string // the operation that stopped, e.g. "MatMul"
	Cause error  // the context's error
}

// Error returns the message: "dl: Op: canceled: ...; fix".
func (e *CanceledError) Error() string {
	reason := "the cell was interrupted"
	if e.Cause != nil {
		reason += " (" + e.Cause.Error() + ")"
	}
	if c := cancel.Cause(); c != nil && !errors.Is(c, e.Cause) {
		reason += ": " + c.Error()
	}
	return format(e.Op, "canceled", reason+" and the operation stopped before finishing",
		"run the cell again; a training step cut short leaves gradients partly accumulated, so call ZeroGrad first")
}

// Unwrap returns ErrCanceled and the context's error.
func (e *CanceledError) Unwrap() []error { return []error{ErrCanceled, e.Cause} }

// rethrowStopped turns the *cancel.Stopped panic of an internal kernel
// into a *CanceledError naming op; other panics go on.  Deferred.
func rethrowStopped(op string) {
	r := recover()
	if r == nil {
		return
	}
	if s, ok := r.(*cancel.Stopped); ok {
		panic(&CanceledError{Op: op, Cause: s.Err})
	}
	panic(r)
}

// cancelChunk is how many elements elementwise and reduction kernels on
// host devices process between two checks of the context: about a
// millisecond of work.
const cancelChunk = 1 << 20

// chunked calls f(i, m) for consecutive ranges [i, i+m) covering [0, n),
// checking the context of SetCancel before each: ranges of cancelChunk
// elements on host devices (whose kernels run on the calling goroutine),
// one range elsewhere (device kernels are asynchronous).
func chunked(op string, dev Device, n int, f func(i, m int)) {
	if !dev.IsHost() || n <= cancelChunk {
		f(0, n)
		return
	}
	for i := 0; i < n; i += cancelChunk {
		CheckCancel(op)
		f(i, min(cancelChunk, n-i))
	}
}
