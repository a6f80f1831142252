// Package proc starts the kernel's processes so that none outlives the
// kernel: each runs in a process group of its own, dies with the thread
// of the kernel that started it (Linux's parent-death signal), and a
// guard process kills every group the kernel made when the kernel is gone,
// however it went (kill -9 included), and removes its temporary
// directories.
//
// # Overview
//
// [Start] runs a command and reports its end on [Proc.Done]; [Proc.Kill]
// ends its whole group. [StartGuard] starts the guard (the `dlbd guard`
// command, which runs [RunGuard]) and returns a [Guard] to tell it about
// groups and directories: the guard reads them from a pipe and acts when
// the pipe closes, which the kernel's death does. [Table], [Read],
// [Children] and [Family] read the process table (/proc, Linux only): the
// front end finds GoNB's cell processes there, and package jupyter the
// processes a kernel left.
//
// # Errors
//
// Start and StartGuard return the error of starting the program. Signals
// to a process that has already exited are not errors. Reading the
// process table fails outside Linux.
//
// # Concepts
//
//   - Process group: a process and the children it starts, which one
//     kill(-pgid) reaches; cells and their shell commands stay in theirs.
//   - Parent-death signal (PR_SET_PDEATHSIG): Linux sends it to a child
//     when the thread that forked it exits, so the starting goroutine
//     stays locked to its thread for the child's life.
package proc
