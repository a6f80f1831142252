// Package shim sits between Jupyter and the GoNB kernel process and fixes,
// on the wire, the places where GoNB v0.11.4 departs from the Jupyter
// messaging protocol (https://jupyter-client.readthedocs.io/en/latest/messaging.html).
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
//  3. starts GoNB on it as a child in the shim's own process group (so
//     Jupyter's kill of the group reaches GoNB and its cell processes), with
//     Linux's parent-death signal set to SIGKILL (so GoNB dies with the
//     shim), forwarding SIGINT and SIGTERM to it;
//  4. forwards messages both ways until GoNB exits, then exits with GoNB's
//     status.
//
// Forwarding keeps every message byte for byte, routing identities
// included (IOPub messages only lose the shim's own identity, which GoNB
// puts first in their topic), except for the three repairs:
//
//   - A request whose HMAC signature does not verify, or that is not a
//     Jupyter message at all, is dropped (and logged once per peer): GoNB
//     would stop the whole kernel on the first and crash on the second.
//   - When a cell panics, GoNB's execute_reply and IOPub error say only
//     "exit status 2"; the shim collects the cell's stderr stream and
//     rewrites both with the panic message and the cell line
//     ([ParsePanic]), signing them again with the key.
//   - GoNB never answers is_complete_request; the shim answers it
//     ([IsComplete]) instead of forwarding it.
//
// GoNB also sends the replies to control requests on its shell socket; the
// shim remembers which requests came in on control and sends their replies
// back on Jupyter's control socket, where the spec puts them. The heartbeat
// is proxied: Jupyter's ping is echoed only after GoNB echoed it, so a hung
// GoNB looks dead, as it should.
//
// # Errors
//
// [Run] returns an error when it cannot start at all (unreadable connection
// file, a port Jupyter chose is taken, GoNB's executable is missing);
// otherwise it returns GoNB's exit status. Problems with single messages
// (bad signature, malformed frames) are written to the log, never returned:
// the kernel must stay up.
//
// # Concepts
//
//   - Identities: a ROUTER socket prefixes every message it receives with
//     the sender's identity and routes what it sends by the first frame. The
//     shim's three sockets towards GoNB share one identity, as a Jupyter
//     client's do, because GoNB addresses input_request and control replies
//     to the identity of the request's sender on another socket.
//   - Signature: HMAC-SHA256 of header, parent_header, metadata and content
//     (see package kernel/internal/wire); changing content means signing
//     again, which the shim can because it holds the key.
//   - Overhead: every message takes one more hop through local sockets.
//     BenchmarkRoundTrip times a five-message cell on a fake kernel with and
//     without the shim; on the 2-core development machine, under load, it
//     took 0.56 ms direct and 1.03 ms through the shim (medians of six
//     runs of `go test -run '^$' -bench RoundTrip -benchtime 1000x -count 6`),
//     against the 80 to 180 ms that GoNB needs to build and run a cell.
package shim
