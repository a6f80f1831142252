// Package complete is the stateful kernel's completion (Tab) and
// inspection (Shift+Tab, "?name") engine: what a name or selector at the
// cursor can be, computed from go/types over the cell being written and
// the names earlier cells left, so that no language server is needed.
//
// # Overview
//
// [Engine.Complete] and [Engine.Inspect] take a cell's text, a cursor in
// Unicode code points (Jupyter's cursor_pos; [ByteOffset] and
// [CodePoints] convert) and the session's names ([Symbol]). The cursor's
// line decides first: a magic line ("%res") completes the kernel's
// [Magics], a shell line ("!ls") nothing, a string after import an import
// path from the package index. Otherwise the cell is cut at the cursor,
// its open brackets closed (and the statement there made one: "defer
// fmt._" a call, "a, s._" an assignment), and the Go text parsed and
// type-checked in a package whose scope holds the session's names, with
// the imports the cell uses but does not write added as the kernel adds
// them (pkgindex.Chooser.Missing), but for a name of several packages preferring
// one an earlier cell imported, then the standard library's and this
// module's over others ("spark" is the course's, not Spark's Go client);
// errors are ignored. Then:
//
//   - after "x." the fields and methods of x's type (x any expression the
//     checker can type: modelo, modelo.Modules[0], dl.Ones(3)), or the
//     members of package x;
//   - inside T{ the fields of struct T;
//   - elsewhere the names in scope at the cursor (the cell's locals and
//     declarations, earlier cells' names, imported packages, builtins),
//     packages the kernel would import by name, and Go's keywords.
//
// Matches are those whose name starts with what was typed, ignoring case
// (as IPython's Jedi completion does), and are sorted: what was typed with
// its case first, then struct fields of a literal, the cell's and the
// session's names, packages, builtins and keywords; after a selector,
// exported names first; then alphabetically.
//
// Inspection finds the identifier at or just before the cursor (or, in a
// call's parentheses, the function called) and answers its declaration
// ("func dl.MatMulWith(kern dl.MatMulKernel, a, b *dl.Tensor) *dl.Tensor")
// and its doc comment, read from the package's source (export data has no
// comments), parsed once per package and cached, rendered as Markdown
// with go/doc/comment. A name of an earlier cell also says its cell.
//
// # Errors
//
// None: input that cannot be completed (a cursor outside the code, a cell
// that does not parse, a position in a comment) gives no matches or
// Found false, never an error or a panic.
//
// # Concepts
//
//   - Code points: Jupyter (protocol 5.2 and later) counts cursor_pos,
//     cursor_start and cursor_end in Unicode code points, so "año" is 3
//     long, not 4 as in UTF-8 bytes.
//   - Scope at the cursor: go/types records a scope per block; a local is
//     visible after its declaration, so "x := x." does not offer x.
//   - Each cell is a package: a value of an earlier cell's type shows only
//     its exported fields and methods, as the cell compiler would allow.
package complete
