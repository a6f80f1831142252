// Package linked connects the bigdata API packages (columnar, kafka,
// natsbroker) to their engines' implementations (the Parquet codecs,
// franz-go, the NATS server and client), which register themselves here
// when they are linked into a program.
//
// An API package links its implementation itself, except in a build with
// the tag dlbd_stateful: the stateful kernel's session builds its host
// program and every cell's plugin with it, and the host
// (kernel/cmd/dlbd-host) links the implementations once. A Go plugin links
// every package it imports, so a cell that uses a Kafka client or an Arrow
// table made earlier would otherwise link franz-go or the Parquet codecs
// again, a second or more per changed cell; a package linked only into the
// host costs a cell nothing.
package linked

import (
	"fmt"
	"sync/atomic"
)

// Hook holds the implementation of type T that a package registers.
type Hook[T any] struct {
	what, pkg string
	v         atomic.Pointer[T]
}

// NewHook returns a hook for what (for messages: "the Parquet codecs"),
// implemented by the package pkg (its import path).
func NewHook[T any](what, pkg string) *Hook[T] { return &Hook[T]{what: what, pkg: pkg} }

// Set registers the implementation; the implementing package calls it in its init.
func (h *Hook[T]) Set(v T) { h.v.Store(&v) }

// Get returns the implementation, or an error naming the package to link.
func (h *Hook[T]) Get() (T, error) {
	if p := h.v.Load(); p != nil {
		return *p, nil
	}
	var zero T
	return zero, fmt.Errorf("bigdata: %s are not linked into this program (it was built with -tags dlbd_stateful, which leaves them to the main package): import _ %q there, as the stateful kernel's host (kernel/cmd/dlbd-host) does, or build without that tag", h.what, h.pkg)
}
