// Package doctor checks a dlbd installation end to end, the way a notebook
// uses it, and says in plain words what is wrong and what to do.
//
// # Overview
//
// [Run] finds the dlbd kernelspec, starts the kernel through
// github.com/dlbd/dlbd/kernel/jupyter exactly as Jupyter would, and checks in
// order: heartbeat, kernel_info (language go, protocol ≥ 5.3), a trivial Go
// cell, a cell importing this module's packages (both timed: first run and
// the median of later runs), interrupting an endless cell, and shutdown
// leaving no process behind. The command `dlbd doctor` (and `make doctor`)
// prints the [Report], one line per check:
//
//	✓ kernelspec: dlbd in /repo/.jupyter/kernels/dlbd ("Go (Deep Learning y Big Data)")
//	✗ import cell: cannot compile github.com/dlbd/dlbd/dl: …
//	    what to do: run `go build ./...` in /repo to see the error
//
// # Errors
//
// Run returns the report and a non-nil error when any check failed (or
// could not run because an earlier one failed). It never panics and never
// exits the process; a failed check carries the underlying error's text in
// Detail and the advice in Fix.
//
// # Concepts
//
//   - Cell latency: time from sending execute_request to having both the
//     reply and the kernel's idle status. GoNB compiles every cell into a
//     new program, so a cell costs a Go build plus a process start; the
//     first cell after a cold build cache can take a minute.
//   - Interrupt: the kernelspec's interrupt_mode says how (dlbd uses
//     "message": interrupt_request on the control channel).
//   - No orphans: after shutdown, no process of the kernel's process group
//     or process tree may remain (checked on Linux, through /proc).
package doctor
