// Package stateful is the dlbd kernel's stateful executor: the values that
// one cell makes live on in the next, as in every notebook students know,
// and cells still run as compiled Go.
//
// # Overview
//
// A [Session] belongs to one kernel. It keeps a host process
// (kernel/cmd/dlbd-host, built from this module when the session starts)
// and, for each cell, parses GoNB's cell syntax (package kernel/cell),
// runs its magics and shell commands, composes its Go code into a package
// that refers to the earlier cells' packages (kernel/stateful/internal/
// compose, resolving names with go/types), builds that package as a Go
// plugin in the session's workspace (a module dlbd.cells in a go.work that
// uses this checkout), and asks the host to load and run it (package
// kernel/stateful/host). Output and displays (gonbui, hence viz) come back
// through [Output] while the cell runs; the value of the cell's last line,
// when it is an expression (x, model, t.Shape()), comes last, a
// [Display] with Result set (Jupyter's execute_result; kernel.ShowResult
// says which forms it has), and a ";" at the end of that line hides it.
// A cell of statements alone runs as a body without its "%%" line
// ([cell.Cell.StatementsAsBody]).
//
// Tab and Shift+Tab: [Session.Complete] and [Session.Inspect] answer
// Jupyter's complete_request and inspect_request (and [ParseHelp] a
// "?name" cell) from go/types, against the names that live on, the
// cell being written and the packages a cell can import, with doc
// comments read from the packages' source (package kernel/stateful/
// internal/complete); no language server is needed, and neither waits for
// a running cell.
//
// Magics: %reset drops every value and starts a new host; %who lists the
// names that live on; %env and %cd set the environment and directory;
// %help lists them. %mode, which switches between this mode and GoNB's
// process per cell, belongs to the kernel's front end (package
// kernel/frontend) and never reaches a Session.
//
// # Engines and what stays open
//
// The session builds the host and every plugin with [BuildTags]: the Big
// Data engines' implementations (DuckDB's driver, the Parquet codecs,
// franz-go, the NATS server) are linked into the host once (package
// bigdata/internal/linked explains), so a cell that uses a DuckDB database,
// an Arrow table or a broker made earlier links only the API it calls. The
// host program is built into the user's cache and shared by the sessions of
// a checkout (it is linked again only after the module's source changes).
// What the cells' values hold open on servers and files (Spark Connect
// sessions, databases, brokers, Parquet files: package internal/resources)
// is closed by the host when the session ends ([Session.Close], a restart)
// and on %reset, before the host exits; a host that does not exit within a
// few seconds is killed.
//
// # Errors
//
// [Session.Execute] reports a cell's failure in its [Result] (compile
// errors with cell lines, panics with the cell lines they went through,
// interrupts). When the host dies (os.Exit, a panic on another goroutine,
// a crash, out of memory, an interrupted cell that would not stop, this
// module's source changing under it) the result says in plain words that
// the values are lost and which cells to run again (those that ran to
// their end: a cell that panicked would panic again, so the names only
// such cells declared are named apart); the next cell gets a new host.
//
// # Concepts
//
//   - Each cell is a Go package: later cells see its top-level names, but
//     not the unexported fields and methods of its types, and cannot add
//     methods to them (package compose explains).
//   - Plugins never unload: the host's memory grows with every cell (see
//     the README for the measured figure); %reset gives it back.
package stateful
