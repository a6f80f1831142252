// Package nbexec executes notebooks with `jupyter nbconvert --execute` on a kernel and
// reports every cell that failed: notebook, cell number, error and the cell's stderr.
//
// # Overview
//
// Execute runs one notebook into an output directory (never over the source) with
// --allow-errors, so the executed copy holds every cell's outputs, then scans it: a cell
// failed when it has an "error" output. GoNB reports a panicking or exiting cell as an
// error whose value is only "exit status 2"; the panic message is in the cell's stderr,
// so a Failure carries both.
//
// # Errors
//
// Execute returns an error when nbconvert itself fails (no Jupyter, kernel died, cell
// timeout); cell failures are data in the Result, not errors.
//
// # Concepts
//
// Notebook format: https://nbformat.readthedocs.io/en/latest/format_description.html.
package nbexec
