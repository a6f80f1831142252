// Package wire turns Jupyter messages into ZeroMQ frames and back, and
// signs and verifies them.
//
// # Overview
//
// Every message between a Jupyter client and a kernel travels as one
// multipart ZeroMQ message laid out as the Jupyter messaging spec's section
// "The Wire Protocol" describes
// (https://jupyter-client.readthedocs.io/en/latest/messaging.html#the-wire-protocol):
//
//	[identity, ..., "<IDS|MSG>", signature, header, parent_header, metadata, content, buffer, ...]
//
// The identities route a reply back through a ROUTER socket; the delimiter
// separates them from the message proper; the signature is the hex-encoded
// HMAC-SHA256 of the four JSON frames that follow it, keyed with the key of
// the connection file; binary buffers (rarely used) come last. [Encode] builds
// the frames of a [Parts] value and [Decode] parses them, checking the
// signature with a [Signer].
//
// This package knows nothing about message types: header, parent header,
// metadata and content stay raw JSON here. Package
// github.com/dlbd/dlbd/kernel/jupyter gives them Go types.
//
// # Errors
//
// [Decode] returns an error wrapping [ErrNoDelimiter], [ErrTooFewFrames] or
// [ErrBadSignature] (test with errors.Is), with the number of frames or the
// reason in its text. [NewSigner] rejects signature schemes other than
// hmac-sha256, the only one Jupyter writes in connection files today.
//
// # Concepts
//
//   - Identity frames: ZeroMQ ROUTER sockets prefix each received message
//     with the sender's identity; a DEALER client receives replies with the
//     identities the kernel copied, usually none.
//   - Signature: HMAC-SHA256 over header, parent_header, metadata and content,
//     in that order, so a peer without the key can neither forge nor alter a
//     request. An empty key disables signing: the signature frame is empty.
package wire
