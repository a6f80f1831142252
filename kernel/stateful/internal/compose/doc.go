// Package compose turns one notebook cell into the Go package that the
// stateful kernel builds as a plugin, so that what earlier cells declared
// (their values included) is what later cells use.
//
// # Overview
//
// Every cell becomes a package dlbd.cells/cellN. [History.Compose] reads
// the cell's declarations and body (package kernel/cell splits them),
// adds the standard-library and module imports the cell uses but does not
// name (as goimports does), and type-checks it with go/types in a package
// whose scope already holds the objects that earlier cells declared, so
// that every identifier is resolved by the type checker, never by
// matching strings. Then it writes the package's source:
//
//   - an identifier that resolves to an earlier cell's object becomes a
//     reference into that cell's package (cell3.Model, or
//     (*cell3.Dlbd_total) for an unexported variable);
//   - a variable that the body declares at its top level (x := f(), or
//     var x = f()) becomes a package-level variable of the cell, with the
//     type go/types inferred, and the statement an assignment, so that it
//     lives on for later cells; a type or const the body declares at its
//     top level moves to package level too;
//   - every unexported name gets an exported handle (a pointer for a
//     variable, an alias for a type, a function value or a generic
//     wrapper for a function, a constant), which later cells use;
//   - the body's last statement, when it is an expression with one value
//     (a name, a field, an operation, a call with one result), becomes
//     kernel.ShowResult(x), which shows it as the cell's result, as
//     IPython shows a cell's last line; ended by ";" it is not shown
//     (it becomes _ = x). A call with no result or with several
//     (fmt.Println returns two) and a receive (<-done) stay as they are:
//     Go runs them as statements, and the cell shows nothing more;
//   - //line directives keep every position in terms of the cell
//     ("dlbd-cell-N:line:col"), so compiler errors and stack traces name
//     cell lines (package kernel/internal/cellpos owns these names and
//     reads them back).
//
// [History.Commit] records the cell's names once the cell has loaded;
// names a later cell declares again shadow the earlier ones for the cells
// after it, as in Python. [History.Completed] records that the cell ran
// to its end, and [History.Cells] lists only such cells to run again
// after the values are lost.
//
// # Errors
//
// A cell that does not type-check gives an [*Error] with one [Problem] per
// error, each with its cell line, in the words of the Go type checker,
// plus a hint where the stateful model is the cause (a method on a type
// of an earlier cell, an unexported field of one), and a hint in Spanish,
// the course's language ("pista: ..."), where a habit of Python meets a
// rule of Go: a variable that is not used (for range N for a loop that
// needs none), a value alone on a line that is not the last, statements
// outside the body (above the %% line, or in a cell without one).
//
// # Concepts
//
//   - Each cell is a Go package: a later cell reaches an earlier cell's
//     top-level names (the kernel makes that work for unexported ones as
//     well), but, as between any two Go packages, not its unexported
//     struct fields or methods, and it cannot add methods to its types.
//   - Type identity: a type keeps its identity across cells, because later
//     cells refer to the very object the declaring cell made.
package compose
