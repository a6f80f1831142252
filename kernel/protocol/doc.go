// Package protocol holds the types of the Jupyter protocol that the kernel's
// parts share, with no socket code: connection files, message headers, and
// kernelspecs (kernel.json).
//
// # Overview
//
// [ConnectionInfo] is a connection file (where a kernel listens, and the
// key that signs its messages); [Header] a message header; [Spec] a
// kernel.json. The shim (kernel/shim), the installer (kernel/kernelspec)
// and the test client (kernel/jupyter) all use them; the ZeroMQ framing is
// in kernel/internal/wire.
//
// # Errors
//
// ReadConnectionFile and WriteFile return errors for files that cannot be
// read, parsed or written, naming the file.
//
// # Concepts
//
// The spec: https://jupyter-client.readthedocs.io/en/latest/messaging.html
// and https://jupyter-client.readthedocs.io/en/latest/kernels.html.
package protocol
