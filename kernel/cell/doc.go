// Package cell splits a notebook cell written in GoNB's syntax into its
// parts: Go declarations, the body of the program (after a "%%" line),
// magic commands ("%name args") and shell commands ("!cmd").
//
// # Overview
//
// [Parse] reads a cell line by line, as GoNB does: a line starting with
// "%" or "!" (optionally behind the "//gonb:" prefix, which keeps the cell
// valid Go for an editor) is a command, continued on the next line when it
// ends in `\`; a line "%%" (or "%main") starts the body; everything else is
// Go. The Go parts keep the cell's line numbers (command lines become empty
// lines), so that a position in them is a position in the cell.
//
// # Errors
//
// Parse fails only on what cannot be a cell: a second "%%" line. Whether
// the Go parts compile is for the compiler to say.
//
// # Concepts
//
//   - Declarations: imports, funcs, types, vars and consts before "%%".
//   - Body: the statements after "%%", what GoNB puts in func main().
//   - Magic: a "%" command that configures the kernel (%reset, %who, ...).
package cell
