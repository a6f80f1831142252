package kernel

import (
	"context"

	"github.com/dlbd/dlbd/kernel/internal/cellctx"
)

// Context returns the running cell's context, which an interrupt of the
// cell (the notebook's stop button) cancels. A long loop that checks it
// stops cleanly when the student interrupts it, and in the stateful kernel
// keeps the values it made:
//
//	for ctx := kernel.Context(); ctx.Err() == nil; { ... }
//
// In the process-per-cell mode the cell is its own process and the
// interrupt is SIGINT: the context is cancelled by it, and the kernel
// kills the process if it does not end within a few seconds.
func Context() context.Context { return cellctx.Get() }
