package shim

import (
	"encoding/json"
	"time"

	"github.com/dlbd/dlbd/kernel/internal/wire"
	"github.com/dlbd/dlbd/kernel/protocol"
)

// protocolVersion is the protocol version GoNB v0.11.4 announces; the
// shim's own replies use it too.
const protocolVersion = "5.4"

// answerIsComplete replies to an is_complete_request from Jupyter, on the
// shell socket it came from, instead of forwarding it to GoNB (which would
// never answer). It publishes no busy/idle status: GoNB may be running a
// cell meanwhile, and an "idle" from the shim would make front-ends show
// the kernel idle while it is busy.
func (s *shim) answerIsComplete(req wire.Parts) {
	var code struct {
		Code string `json:"code"`
	}
	json.Unmarshal(req.Content, &code) // malformed content: the empty cell, complete
	status, indent := IsComplete(code.Code)
	content := map[string]string{"status": status}
	if status == Incomplete {
		content["indent"] = indent
	}
	reply := wire.Parts{
		Identities:   req.Identities,
		Header:       encode(s.header("is_complete_reply")),
		ParentHeader: req.Header,
		Metadata:     []byte("{}"),
		Content:      encode(content),
	}
	s.forward(s.jup, shell, wire.Encode(s.signer, reply))
}

// header returns a fresh header of type msgType from the shim's session.
func (s *shim) header(msgType string) protocol.Header {
	return protocol.Header{
		MsgID:    randomHex(16),
		Session:  s.session,
		Username: "dlbd",
		Date:     time.Now().UTC().Format("2006-01-02T15:04:05.000000Z"),
		MsgType:  msgType,
		Version:  protocolVersion,
	}
}
