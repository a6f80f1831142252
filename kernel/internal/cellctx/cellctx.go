// Package cellctx holds what the stateful kernel's host and package kernel
// share about the cell that is running: its context, which the host sets
// and package kernel hands to notebooks (kernel.Context), and its result,
// which package kernel records (kernel.ShowResult) and the host sends to
// the kernel.
package cellctx

import (
	"context"
	"os"
	"os/signal"
	"sync"
)

var (
	mu      sync.Mutex
	current context.Context
)

// Set makes ctx the context of the running cell; the host calls it before
// each cell.
func Set(ctx context.Context) {
	mu.Lock()
	defer mu.Unlock()
	current = ctx
}

// Get returns the running cell's context. Outside the stateful host (a
// cell run as its own process), it is a context that SIGINT cancels: the
// kernel interrupts such a cell with SIGINT, and a cell that watches the
// context stops cleanly instead of being killed.
func Get() context.Context {
	mu.Lock()
	defer mu.Unlock()
	if current == nil {
		// The process is the cell: its interrupt is SIGINT.
		current, _ = signal.NotifyContext(context.Background(), os.Interrupt)
	}
	return current
}
