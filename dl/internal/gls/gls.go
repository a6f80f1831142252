// Package gls keeps goroutine-local values for dl's scopes (NoGrad, and
// later autocast): PyTorch keeps grad mode and autocast thread-local; dl
// keeps them goroutine-local, so data-parallel ranks running as goroutines
// do not disturb each other.
//
// # Overview
//
// A [Var] holds a default value and, for goroutines inside a [Var.With]
// scope, a value of their own.  [Var.Get] returns the calling goroutine's
// value.
//
// # Errors
//
// None: With restores the previous value even when fn panics.
//
// # Concepts
//
// Go has no goroutine-local storage on purpose; the only portable way to
// name the current goroutine is the header of its stack trace
// ("goroutine 18 [running]:"), which costs a traceback of the whole stack
// (about 10 µs at the depth of a Backward).  On amd64 goid reads instead
// the address of the runtime's goroutine descriptor from thread-local
// storage, one instruction (goid_amd64.s): it is unique among live
// goroutines, and a descriptor reused by a later goroutine cannot find a
// stale value, because With deletes its entry before its goroutine can
// exit.  Elsewhere, and with -tags dlbd_noasm, goid parses the stack header.
// Each Var also counts its active scopes in an atomic integer: while no
// goroutine is inside a scope, Get is one atomic load and returns the
// default, and ops outside NoGrad pay nothing more.  Goroutines started inside a scope do
// not inherit it (like threads started under torch.no_grad()).
package gls

import (
	"sync"
	"sync/atomic"
)

// Var is a goroutine-local variable of type T.  The zero value is not
// usable; create one with New.
type Var[T any] struct {
	def    T
	active atomic.Int64 // scopes open on any goroutine
	mu     sync.RWMutex
	vals   map[int64]T // goroutine id -> value inside a scope
}

// New returns a Var whose value is def outside every scope.
func New[T any](def T) *Var[T] { return &Var[T]{def: def, vals: map[int64]T{}} }

// Get returns the calling goroutine's value: the value of its innermost
// With scope, or the default.
func (v *Var[T]) Get() T {
	if v.active.Load() == 0 {
		return v.def
	}
	id := goid()
	v.mu.RLock()
	x, ok := v.vals[id]
	v.mu.RUnlock()
	if !ok {
		return v.def
	}
	return x
}

// With runs fn with the calling goroutine's value set to val, restoring
// the previous value afterwards (also if fn panics).  Scopes nest.
func (v *Var[T]) With(val T, fn func()) {
	id := goid()
	v.mu.Lock()
	old, had := v.vals[id]
	v.vals[id] = val
	v.mu.Unlock()
	v.active.Add(1)
	defer func() {
		v.mu.Lock()
		if had {
			v.vals[id] = old
		} else {
			delete(v.vals, id)
		}
		v.mu.Unlock()
		v.active.Add(-1)
	}()
	fn()
}

// Active reports whether any goroutine is inside a scope of v.
func (v *Var[T]) Active() bool { return v.active.Load() > 0 }
