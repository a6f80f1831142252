package jupyter

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"time"

	"github.com/dlbd/dlbd/kernel/internal/wire"
	"github.com/dlbd/dlbd/kernel/protocol"
)

// Channel names one of the sockets of a kernel connection. The heartbeat is
// not a message channel: it echoes raw bytes (see [Client.Ping]).
type Channel int

// The message channels of the spec's section "Introduction"
// (https://jupyter-client.readthedocs.io/en/latest/messaging.html#introduction).
const (
	// Shell carries requests for code execution, completion and kernel info.
	Shell Channel = iota
	// Control carries interrupt and shutdown requests, which must not wait
	// behind a long execution on Shell.
	Control
	// Stdin carries input requests from the kernel to the client.
	Stdin
	// IOPub broadcasts side effects: status, output streams, display data.
	IOPub
)

// String returns the channel's name as the spec writes it ("shell", ...).
func (ch Channel) String() string {
	switch ch {
	case Shell:
		return "shell"
	case Control:
		return "control"
	case Stdin:
		return "stdin"
	case IOPub:
		return "iopub"
	}
	return fmt.Sprintf("channel(%d)", int(ch))
}

// Message is one Jupyter message, as in the spec's section "General Message
// Format" (https://jupyter-client.readthedocs.io/en/latest/messaging.html#general-message-format).
type Message struct {
	// Channel is the channel the message arrived on (for received messages).
	Channel Channel
	// Identities are the ZeroMQ routing frames; on IOPub the first one is the
	// topic chosen by the kernel.
	Identities [][]byte
	// Header identifies the message and its type.
	Header protocol.Header
	// ParentHeader is the header of the request this message answers; it is
	// zero for a request.
	ParentHeader protocol.Header
	// Metadata is free-form; nil is sent as {}.
	Metadata map[string]any
	// Content is the JSON body; its fields depend on Header.MsgType and are
	// read with [Message.DecodeContent].
	Content json.RawMessage
	// Buffers are optional binary frames.
	Buffers [][]byte
}

// DecodeContent unmarshals the content into v, typically a pointer to one of
// this package's content structs.
func (m *Message) DecodeContent(v any) error {
	if err := json.Unmarshal(m.Content, v); err != nil {
		return fmt.Errorf("jupyter: decode %s content on %s: %w", m.Header.MsgType, m.Channel, err)
	}
	return nil
}

// newID returns a random UUID (version 4) string.
func newID() string {
	var b [16]byte
	rand.Read(b[:]) // crypto/rand.Read never fails on supported platforms
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b[:])
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

// newMessage returns a request of type msgType with the given content,
// stamped with a fresh id, the session and the current time.
func newMessage(session, username, msgType string, content any) (*Message, error) {
	if content == nil {
		content = struct{}{}
	}
	raw, err := json.Marshal(content)
	if err != nil {
		return nil, fmt.Errorf("jupyter: encode %s content: %w", msgType, err)
	}
	return &Message{
		Header: protocol.Header{
			MsgID:    newID(),
			Session:  session,
			Username: username,
			Date:     time.Now().UTC().Format("2006-01-02T15:04:05.000000Z"),
			MsgType:  msgType,
			Version:  protocol.Version,
		},
		Content: raw,
	}, nil
}

// encodeHeader marshals h, writing a zero header as {} (the spec's empty
// parent of a request).
func encodeHeader(h protocol.Header) ([]byte, error) {
	if h == (protocol.Header{}) {
		return []byte("{}"), nil
	}
	return json.Marshal(h)
}

// toParts converts m to wire parts.
func (m *Message) toParts() (wire.Parts, error) {
	header, err := encodeHeader(m.Header)
	if err != nil {
		return wire.Parts{}, fmt.Errorf("jupyter: encode header: %w", err)
	}
	parent, err := encodeHeader(m.ParentHeader)
	if err != nil {
		return wire.Parts{}, fmt.Errorf("jupyter: encode parent header: %w", err)
	}
	metadata := []byte("{}")
	if m.Metadata != nil {
		if metadata, err = json.Marshal(m.Metadata); err != nil {
			return wire.Parts{}, fmt.Errorf("jupyter: encode metadata: %w", err)
		}
	}
	return wire.Parts{
		Identities:   m.Identities,
		Header:       header,
		ParentHeader: parent,
		Metadata:     metadata,
		Content:      m.Content,
		Buffers:      m.Buffers,
	}, nil
}

// fromParts converts wire parts received on ch into a Message.
func fromParts(ch Channel, p wire.Parts) (*Message, error) {
	m := &Message{Channel: ch, Identities: p.Identities, Buffers: p.Buffers}
	if err := json.Unmarshal(p.Header, &m.Header); err != nil {
		return nil, fmt.Errorf("jupyter: %s message: bad header %q: %w", ch, p.Header, err)
	}
	if err := json.Unmarshal(p.ParentHeader, &m.ParentHeader); err != nil {
		return nil, fmt.Errorf("jupyter: %s %s: bad parent header: %w", ch, m.Header.MsgType, err)
	}
	if len(bytes.TrimSpace(p.Metadata)) > 0 {
		if err := json.Unmarshal(p.Metadata, &m.Metadata); err != nil {
			return nil, fmt.Errorf("jupyter: %s %s: bad metadata: %w", ch, m.Header.MsgType, err)
		}
	}
	m.Content = append(json.RawMessage(nil), p.Content...)
	return m, nil
}
