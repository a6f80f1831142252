// Package kernel is what a notebook cell imports from the dlbd kernel: the
// running cell's context, which an interrupt cancels ([Context]), the
// session cache of the process-per-cell mode ([Cache], [Forget], [Must]),
// and the cell's result ([ShowResult]), which the stateful mode calls for
// a cell whose last line is an expression.
//
// # Overview
//
// The dlbd kernel runs cells in one of two modes. In the stateful mode
// (the default; package kernel/stateful) the values a cell makes live on
// in the next cells, so a model trained in one cell is used in the next as
// it is. In the process mode (%mode process; GoNB's model) each cell is a
// new process: declarations persist, values do not, and Cache keeps an
// expensive value (a trained model, a measurement) for the rest of the
// kernel session, encoded with gob. In the stateful mode a cell whose last
// line is an expression (x, model, t.Shape()) shows its value, as IPython
// does: the kernel writes that line as a call of ShowResult. Installing
// and launching the kernel is package kernel/kernelspec's job, not this
// one's.
//
// # Errors
//
// Cache returns errors (a value that cannot be encoded, a key cached with
// another type); Must turns an error into a panic, which the notebook shows
// as the cell's error. Nothing here calls os.Exit or log.Fatal.
//
// # Concepts
//
//   - GONB_TMP_DIR: the per-session directory of the kernel; Cache stores
//     values under it, so they vanish with the session and never leak
//     across runs.
//   - Interrupt: the notebook's stop button. Context's channel closes; a
//     loop that watches it stops and keeps what it made.
package kernel
