package jupyter

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/dlbd/dlbd/kernel/internal/wire"
	"github.com/dlbd/dlbd/kernel/protocol"
)

// Message is one Jupyter message, as in the spec's section "General Message
// Format" (https://jupyter-client.readthedocs.io/en/latest/messaging.html#general-message-format).
type Message struct {
	// Channel is the channel the message arrived on (for received messages).
	Channel protocol.Channel
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
	return &Message{Header: protocol.NewHeader(msgType, session, username), Content: raw}, nil
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
func fromParts(ch protocol.Channel, p wire.Parts) (*Message, error) {
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
