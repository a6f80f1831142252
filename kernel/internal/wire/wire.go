package wire

import (
	"bytes"
	"errors"
	"fmt"
)

// Delimiter is the frame that separates the routing identities from the
// signed part of a message.
const Delimiter = "<IDS|MSG>"

// Errors wrapped by [Decode] and [Signer.Verify].
var (
	// ErrNoDelimiter means no frame equals [Delimiter]: the peer does not
	// speak the Jupyter wire protocol, or the message was cut.
	ErrNoDelimiter = errors.New("no <IDS|MSG> delimiter frame")
	// ErrTooFewFrames means fewer than the five frames signature, header,
	// parent_header, metadata and content follow the delimiter.
	ErrTooFewFrames = errors.New("too few frames after <IDS|MSG>")
	// ErrBadSignature means the signature frame does not match the HMAC of
	// the message under the connection's key.
	ErrBadSignature = errors.New("bad message signature")
)

// Parts is one Jupyter message split into its wire frames. Header,
// ParentHeader, Metadata and Content hold JSON objects as raw bytes; an empty
// slice is sent as "{}".
type Parts struct {
	// Identities are the routing frames before the delimiter.
	Identities [][]byte
	// Signature is the hex HMAC as received; Encode ignores it and signs anew.
	Signature []byte
	// Header is the JSON header (msg_id, session, msg_type, ...).
	Header []byte
	// ParentHeader is the JSON header of the request this message answers,
	// "{}" for a request.
	ParentHeader []byte
	// Metadata is a free-form JSON object.
	Metadata []byte
	// Content is the JSON body, whose fields depend on the message type.
	Content []byte
	// Buffers are optional binary frames after the content.
	Buffers [][]byte
}

// emptyObject is what an absent JSON part is sent as.
var emptyObject = []byte("{}")

// orEmpty returns b, or "{}" when b is empty.
func orEmpty(b []byte) []byte {
	if len(b) == 0 {
		return emptyObject
	}
	return b
}

// Encode returns the frames of p, signed with s (p.Signature is ignored).
func Encode(s *Signer, p Parts) [][]byte {
	header, parent := orEmpty(p.Header), orEmpty(p.ParentHeader)
	metadata, content := orEmpty(p.Metadata), orEmpty(p.Content)
	frames := make([][]byte, 0, len(p.Identities)+6+len(p.Buffers))
	frames = append(frames, p.Identities...)
	frames = append(frames, []byte(Delimiter), s.Sign(header, parent, metadata, content))
	frames = append(frames, header, parent, metadata, content)
	return append(frames, p.Buffers...)
}

// Decode splits frames into [Parts] and verifies the signature with s. The
// returned slices alias frames. On a bad signature it returns the parsed
// parts together with the error, so a caller can say which message was
// rejected.
func Decode(s *Signer, frames [][]byte) (Parts, error) {
	delim := -1
	for i, f := range frames {
		if bytes.Equal(f, []byte(Delimiter)) {
			delim = i
			break
		}
	}
	if delim < 0 {
		return Parts{}, fmt.Errorf("wire: decode %d frames: %w", len(frames), ErrNoDelimiter)
	}
	rest := frames[delim+1:]
	if len(rest) < 5 {
		return Parts{}, fmt.Errorf("wire: decode: %w: got %d, need signature, header, parent_header, metadata and content", ErrTooFewFrames, len(rest))
	}
	p := Parts{
		Identities:   frames[:delim],
		Signature:    rest[0],
		Header:       rest[1],
		ParentHeader: rest[2],
		Metadata:     rest[3],
		Content:      rest[4],
	}
	if len(rest) > 5 {
		p.Buffers = rest[5:]
	}
	// Verify's error already names the package and the problem.
	return p, s.Verify(p.Signature, p.Header, p.ParentHeader, p.Metadata, p.Content)
}
