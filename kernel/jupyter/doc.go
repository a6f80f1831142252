// Package jupyter is a Jupyter client: it starts an installed kernel the way
// Jupyter does and talks to it over the Jupyter messaging protocol
// (https://jupyter-client.readthedocs.io/en/latest/messaging.html), using
// ZeroMQ sockets from github.com/go-zeromq/zmq4 (pure Go, no libzmq).
//
// # Overview
//
// dlbd uses it to test its kernel (its front end, stateful executor and
// GoNB) from `go test` and to check a user's installation (`dlbd doctor`),
// without a browser and without Python. [Start] finds a kernelspec
// ([FindKernelSpec], [DataPath]), writes a connection file
// ([protocol.ConnectionInfo]), launches the kernel in its own process group
// and connects the five sockets. A [Client] then sends requests and
// collects what comes back:
//
//   - [Client.Execute] runs a cell and returns an [Execution]: the
//     execute_reply plus every output published on IOPub for it;
//   - [Client.KernelInfo], [Client.Complete], [Client.IsComplete];
//   - [Client.Interrupt] and [Client.Shutdown] on the control channel;
//   - [Client.Ping] on the heartbeat channel;
//   - [Client.MeasureLatency] times a cell (median of several runs);
//   - [Client.NewMessage], [Client.Send], [Client.Subscribe] and
//     [Client.Request] for any other message, and [Client.SendWithKey] to
//     send one signed with a wrong key (a security test).
//
// [Client.Close] shuts the kernel down and makes sure no process of it
// remains. A [Message]'s header is a [protocol.Header] (made by
// [protocol.NewHeader], with the kernel's [protocol.Version]) and its
// content one of package kernel/protocol's structs
// ([protocol.ExecuteRequest], [protocol.Stream], ...), the ones the
// kernel's front end writes; package kernel/internal/wire does the framing
// and the HMAC-SHA256 signatures.
// The package builds on Unix; [Process] listing needs Linux's /proc.
//
// # Errors
//
// Every call takes a context.Context and returns errors, never panics or
// logs: an error names the request, the channel and the cause (timeout,
// kernel exited — with the kernel's last output —, client closed:
// [ErrClosed]). A missing kernelspec wraps [ErrKernelSpecNotFound] and lists
// the directories searched. A cell that ran but failed (compile error,
// panic, non-zero exit, interrupt) is a *[CellError] returned together with
// its [Execution]. Received messages with a bad signature are dropped, as
// kernels drop bad requests; [Client.DroppedErrors] says why.
//
// # Concepts
//
//   - Channels ([protocol.Channel]): shell (requests and replies), control
//     (interrupt and shutdown, never queued behind a running cell), IOPub
//     (broadcast of status, output and display data), stdin (the kernel
//     asking for input), heartbeat (echo to tell that the kernel is alive).
//   - Parent header: each reply and each IOPub message carries the header
//     of the request that caused it; [Client.Subscribe] collects by it.
//   - Busy/idle: a kernel publishes status "busy" when it takes a request
//     and "idle" when done; an execution is complete only when both the
//     execute_reply and the idle status have arrived, because outputs can
//     arrive after the reply.
//   - Slow joiner: a SUB socket's subscription reaches the kernel some time
//     after connecting and earlier IOPub messages are lost, so [Start]
//     repeats kernel_info_request until IOPub answers too.
//
// # GoNB deviations
//
// GoNB v0.11.4, the kernel dlbd runs, differs from the spec in ways that
// `dlbd launch` repairs in the kernel's front end (package
// github.com/dlbd/dlbd/kernel/frontend) between Jupyter and GoNB; the tests
// of this package check the repaired behaviour against the installed
// kernel, and fail against GoNB alone (`dlbd launch -direct`):
//
//   - GoNB sends the replies to control requests (interrupt_reply,
//     shutdown_reply) on its shell socket; the front end sends them on control.
//     [Client.Request] still accepts them on shell, so that this client also
//     works with GoNB alone (shell and control share one identity, as in
//     jupyter_client);
//   - GoNB does not answer is_complete_request at all; the front end
//     answers it;
//   - GoNB stops the whole kernel on a message with a wrong signature ("Failed
//     to process incoming message, stopping kernel: message had an invalid
//     signature"); the front end drops such messages and logs them, and
//     the kernel stays alive;
//   - after a panic GoNB's execute_reply says only "exit status 2", with the
//     panic message and its "Cell [n] Line m" position on stderr only; the
//     front end rewrites the reply and the IOPub error to ename "panic" and
//     evalue "<message> (Cell [n] Line m)".
//
// GoNB answers complete_request and inspect_request only through gopls;
// the dlbd kernel's front end answers them itself, from go/types.
package jupyter
