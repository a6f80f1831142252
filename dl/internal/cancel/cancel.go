// Package cancel holds the process-wide cancellation context of dl (set
// by dl.SetCancel) and the cheap check that long-running code polls.
//
// # Overview
//
// [Set] records a context; [Err] returns nil until that context is done,
// and its error afterwards.  The check is two atomic loads: a
// context.AfterFunc flips a flag when the context is done, so polling
// never takes the context's lock and costs nothing measurable between
// GEMM macro-blocks, per tensor allocation or per autograd node.
//
// # Errors
//
// Code that runs on the caller's goroutine panics with a [*Stopped]
// (which dl turns into a *dl.CanceledError naming the operation).  Code
// on helper goroutines never panics (that would kill the process): it
// stops taking work and lets the caller's goroutine report.
//
// # Concepts
//
// Course: "Computación eficiente para Deep Learning" (a notebook cell
// that trains for minutes must stop when the student presses the
// interrupt button, as a Python KeyboardInterrupt stops PyTorch).
package cancel

import (
	"context"
	"sync"
	"sync/atomic"
)

// state is one Set call's context and the flag its AfterFunc sets.
type state struct {
	ctx  context.Context
	done atomic.Bool
	stop func() bool // unregisters the AfterFunc
}

var (
	mu  sync.Mutex // serialises Set
	cur atomic.Pointer[state]
)

// Set makes ctx the context that Err reports on, replacing the previous
// one.  A nil ctx, or one that is never done (context.Background), turns
// cancellation off.
func Set(ctx context.Context) {
	mu.Lock()
	defer mu.Unlock()
	if old := cur.Swap(nil); old != nil {
		old.stop()
	}
	if ctx == nil || ctx.Done() == nil {
		return
	}
	s := &state{ctx: ctx}
	s.stop = context.AfterFunc(ctx, func() { s.done.Store(true) })
	if ctx.Err() != nil { // already done: AfterFunc runs f on a new goroutine, maybe later
		s.done.Store(true)
	}
	cur.Store(s)
}

// Err returns nil while the context given to Set is not done (or none is
// set), and the context's error (context.Canceled or
// context.DeadlineExceeded) once it is.
func Err() error {
	s := cur.Load()
	if s == nil || !s.done.Load() {
		return nil
	}
	return s.ctx.Err()
}

// Cause returns context.Cause of the current context once it is done
// (the reason given to a context.CancelCauseFunc), or nil.
func Cause() error {
	s := cur.Load()
	if s == nil || !s.done.Load() {
		return nil
	}
	return context.Cause(s.ctx)
}

// Stopped is the panic value of code stopped because the context given
// to Set is done.  Op names the code ("f32.Gemm"); Err is the context's
// error.
type Stopped struct {
	Op  string
	Err error
}

// Error returns "Op: stopped: Err".
func (s *Stopped) Error() string { return s.Op + ": stopped: " + s.Err.Error() }

// Unwrap returns the context's error.
func (s *Stopped) Unwrap() error { return s.Err }

// Check panics with a *Stopped naming op if the context is done.
func Check(op string) {
	if err := Err(); err != nil {
		panic(&Stopped{Op: op, Err: err})
	}
}
