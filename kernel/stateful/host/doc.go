// Package host is the side of the stateful kernel that runs cells: one
// long-lived process per notebook session that loads each compiled cell as
// a Go plugin and calls it, so that the values cells make stay in its
// memory for the cells that follow.
//
// # Overview
//
// The session (package kernel/stateful) starts the host program
// (kernel/cmd/dlbd-host, which links this package together with dl, viz and
// kernel) with two pipes: requests arrive on one as JSON lines
// ([Request]) and [Reply] values go back on the other. For each request
// [Serve] opens the plugin (which runs the cell's package initialisation),
// calls its Run function on a goroutine of its own, recovers a panic and
// names the cell lines it went through, and then writes an end marker on
// stdout and stderr, so that the session knows every byte the cell printed
// has arrived before it replies to Jupyter. The reply carries the cell's
// result, the value of its last expression (kernel.ShowResult), which the
// session shows after everything the cell printed.
//
// SIGINT interrupts the running cell: its context (kernel.Context in the
// cell, and the dl operations watching it) is cancelled. A cell that does
// not stop is the session's business: it kills the host.
//
// # Errors
//
// A cell's panic is a [Reply] with Status "error" (or "interrupted"), not
// an error of Serve. Serve returns only when its request pipe fails or
// closes.
//
// # Concepts
//
//   - Phase: "load" is the plugin's initialisation (package-level
//     variables of the cell), "run" its body.
//   - A panic on another goroutine of a cell cannot be recovered by
//     anybody: it ends the host, and the session says so.
package host
