// Package scope holds the goroutine-local scopes that a package above dl
// opens and dl's ops read.  Autocast is the one: amp.Autocast opens it,
// MatMul, Linear and the ops of dl.AutocastOps consult it, and dl cannot
// import amp.  dl's own scopes (NoGrad, WithoutFusion) stay in dl.
//
// # Overview
//
// [Autocast] is a gls.Var: a scope opened on one goroutine does not reach
// others, so data-parallel ranks running as goroutines are independent,
// as torch's thread-local autocast state is per thread.
//
// # Errors
//
// None: amp.Autocast checks the dtype before it opens the scope.
//
// # Concepts
//
// Course: "Prácticas de eficiencia computacional" (mixed precision).
package scope

import "github.com/dlbd/dlbd/dl/internal/gls"

// AutocastState is a goroutine's autocast setting.  The zero value is
// autocast off.
type AutocastState struct {
	// On reports whether the goroutine is inside an autocast scope.
	On bool
	// DType is the dl.DType that products compute in (dl.Float16 or
	// dl.BFloat16).  It is an any because dl's type is declared above
	// this package.
	DType any
}

// Autocast is the goroutine-local autocast scope.
var Autocast = gls.New(AutocastState{})
