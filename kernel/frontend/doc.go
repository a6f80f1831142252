// Package frontend is the dlbd kernel's front end: the process Jupyter
// starts and talks to. It binds Jupyter's sockets, checks every message,
// keeps the one queue of execute requests and the one execution count,
// owns the kernel's two modes, runs cells in the stateful executor
// (package kernel/stateful) in the stateful mode, and forwards them to
// GoNB, with its repairs, in the process mode. Jupyter's messaging
// protocol: https://jupyter-client.readthedocs.io/en/latest/messaging.html.
//
// # Overview
//
// `dlbd launch` (the argv of the dlbd kernelspec) calls [Run], which:
//
//  1. reads the connection file Jupyter wrote and binds Jupyter's five
//     sockets itself: shell, control and stdin (ROUTER), IOPub (PUB) and
//     heartbeat (REP);
//  2. writes a second connection file, mode 0600, into a private temporary
//     directory (mode 0700), with the same key and IPC (Unix socket)
//     endpoints in that directory, so that only this user can reach GoNB
//     at all (fresh TCP ports on 127.0.0.1 instead when the directory's
//     path is too long for a socket);
//  3. starts GoNB on it as a child in the front end's own process group
//     (so Jupyter's kill of the group reaches GoNB and its cell processes),
//     with Linux's parent-death signal set to SIGKILL (so GoNB dies with
//     the front end), forwarding SIGINT and SIGTERM to it, and makes the
//     stateful executor ([Options.Executor]);
//  4. serves Jupyter until GoNB exits, then exits with GoNB's status.
//
// Every request from Jupyter is verified (HMAC signature, no replay, at
// most [DefaultMaxMessage] bytes) and checked against the spec's shapes
// of package kernel/protocol; a malformed one gets an error reply and
// never reaches GoNB, which would stop the whole kernel, or crash, on it.
// Then:
//
//   - execute_request joins the queue. Its worker runs the requests one at
//     a time, in the current [Mode]: [ModeStateful] runs the cell in the
//     [Executor] and writes the kernel's messages itself (busy,
//     execute_input, output, error, execute_reply, idle);
//     [ModeProcess] forwards the request to GoNB and waits for its reply.
//     The execution count is the front end's in both modes: the counts in
//     GoNB's messages are rewritten to it. A failed cell aborts the
//     requests queued behind it, as ipykernel does.
//   - A cell with a %mode command is the front end's in either mode: it
//     switches the mode for the next cells (the command goes alone in its
//     cell; the executor never sees it). A help cell ("?name", "name?",
//     "??name", as IPython's) shows the name's inspection, in either mode.
//   - interrupt_request interrupts the running stateful cell and is
//     answered by the front end in the stateful mode; in the process mode
//     it goes to GoNB, which runs the cell. GoNB drops a request that
//     arrives before it has subscribed its handler (right after it started
//     the cell's process, or while the cell compiles), so the front end sees
//     it through: a cell still running a second later gets the SIGINT GoNB
//     would have sent, and SIGKILL five seconds after that.
//   - shutdown_request first stops the running stateful cell and answers
//     the queued cells "aborted", then goes to GoNB.
//   - is_complete_request, which GoNB never answers, is answered by the
//     front end ([IsComplete]); so are complete_request (Tab) and
//     inspect_request (Shift+Tab), from the session's go/types view of the
//     cells ([Assistant]; GoNB answers them only through gopls, and knows
//     nothing of the stateful session), and history_request, from the
//     cells the front end counted. None of these waits for a running cell.
//     Each is answered between busy and idle, as the spec asks (JupyterLab
//     shows a completion only after the request's idle); a cell running
//     meanwhile is shown busy again at once.
//   - Every other request goes to GoNB byte for byte, routing identities
//     included (IOPub messages only lose the front end's own identity,
//     which GoNB puts first in their topic).
//
// The front end announces the kernel's status with no parent, as ipykernel
// does: "starting" when it starts, "idle" once the stateful session is
// ready, so a notebook shows the kernel ready before its first cell.
//
// What GoNB v0.11.4 sends back is forwarded with these repairs, each
// message changed signed again with the key:
//
//   - Its kernel_info_reply gets the course's help links.
//   - Its cell numbers become the front end's execution counts, in
//     execution_count and in the cell references of errors ("Cell[3]",
//     "[[ Cell [3] Line 2 ]]"), an earlier cell's as well as the running
//     one's: the front end remembers the number GoNB gave each cell it ran
//     (its execute_input).
//   - When a cell panics, GoNB's execute_reply and IOPub error say only
//     "exit status 2": the front end collects the cell's stderr stream and
//     rewrites both with the panic message and the cell line
//     ([ParsePanic]). GoNB marks a frame with its cell line only when the
//     frame's path and line came in one read of the program's stderr; a
//     frame it left unmarked, the front end places itself, finding the
//     line of GoNB's main.go (in the TMPDIR it gives GoNB) among the
//     cells' code (programline.go says why so).
//   - When a cell does not compile, GoNB's error (ename "ERROR") holds go
//     build's output, "# gonb_…" and "./main.go:11:30: …", and a traceback
//     of the generated program around each error. The front end rewrites
//     it as the stateful mode writes its compile errors (ename "compile"),
//     "Cell [3] Line 2:30: undefined: res", one error a line: the cell
//     line from GoNB's own mapping, the column where GoNB copied the line
//     unchanged; a syntax error GoNB finds at a line it wrote (the brace
//     after a body left open) is placed by parsing the cell. An
//     "undefined: name" whose name the body (after %%, or a func main) of
//     an earlier process-mode cell made gets a hint in Spanish: each cell
//     is a program of its own, and %mode stateful, with that cell run
//     again, keeps values.
//   - GoNB sends the replies to control requests on its shell socket: the
//     front end remembers which requests came in on control and sends
//     their replies back on Jupyter's control socket, where the spec puts
//     them.
//
// The heartbeat is proxied: Jupyter's ping is echoed only after
// GoNB echoed it, so a hung GoNB looks dead, as it should.
//
// # Errors
//
// [Run] returns an error when it cannot start at all (unreadable connection
// file, a port Jupyter chose is taken, GoNB's executable is missing);
// otherwise it returns GoNB's exit status. Problems with single messages
// (bad signature, malformed frames) are written to the log, never returned:
// the kernel must stay up. An executor that cannot run cells (no C
// compiler for Go plugins) is logged and said in the first cell's output,
// and the kernel runs every cell in the process mode.
//
// # Concepts
//
//   - Modes: in the stateful mode the values a cell makes live on in the
//     next cells; in the process mode each cell is a new program, GoNB's
//     model. One queue and one execution count span both, so a notebook's
//     order and numbering hold across a switch.
//   - Identities: a ROUTER socket prefixes every message it receives with
//     the sender's identity and routes what it sends by the first frame.
//     The front end's three sockets towards GoNB share one identity, as a
//     Jupyter client's do, because GoNB addresses input_request and
//     control replies to the identity of the request's sender on another
//     socket.
//   - Signature: HMAC-SHA256 of header, parent_header, metadata and content
//     (see package kernel/internal/wire); changing content means signing
//     again, which the front end can because it holds the key.
//   - Overhead: in the process mode every message takes one more hop
//     through local sockets. BenchmarkRoundTrip times a five-message cell
//     on a fake kernel with and without the front end; on the 2-core
//     development machine, under load, it took 0.56 ms direct and 1.03 ms
//     through the front end (medians of six runs of
//     `go test -run '^$' -bench RoundTrip -benchtime 1000x -count 6`,
//     measured when the package was kernel/shim), against the 80 to 180
//     ms that GoNB needs to build and run a cell.
package frontend
