// Package protocol is the vocabulary of the Jupyter messaging protocol
// that the kernel's parts share, with no socket code: the protocol version,
// the channels, message headers, the content of the messages, connection
// files and kernelspecs (kernel.json).
//
// # Overview
//
// [Version] is the protocol version the kernel speaks; [Channel] names the
// five sockets ([Shell], [Control], [Stdin], [IOPub], [Heartbeat]);
// [NewHeader] makes the header of a new message and [NewID] its id. The
// content structs mirror the spec's JSON: [ExecuteRequest] and
// [ExecuteReply], [Status], [Stream], [DisplayData], [ErrorContent],
// [IsCompleteReply], [InterruptReply], [ShutdownRequest], .... Where the
// spec gives a field a value when a request leaves it out, the struct
// says so in a `default` tag. [ConnectionInfo] is a connection file (where
// a kernel listens, and the key that signs its messages) and [Spec] a
// kernel.json.
//
// The kernel's front end (kernel/frontend) writes and checks messages with
// these types, the installer (kernel/kernelspec) writes a [Spec], and the
// test client (kernel/jupyter) sends and reads the same messages; the
// ZeroMQ framing and the signatures are in kernel/internal/wire.
//
// # Errors
//
// ReadConnectionFile and WriteFile return errors for files that cannot be
// read, parsed or written, naming the file. [KernelInfoReply.ProtocolAtLeast]
// returns one for a version it cannot read.
//
// # Concepts
//
//   - Request and reply: a client sends a request on shell or control; the
//     kernel answers with the reply of the same name ("execute_request",
//     "execute_reply"), whose parent header is the request's header.
//   - Status-dependent shapes: a reply's fields depend on its status; the
//     MarshalJSON methods of [ExecuteReply] and [IsCompleteReply] write
//     the ones the spec lists for each status.
//
// The spec: https://jupyter-client.readthedocs.io/en/latest/messaging.html
// and https://jupyter-client.readthedocs.io/en/latest/kernels.html.
package protocol
