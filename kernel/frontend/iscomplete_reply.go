package frontend

import (
	"encoding/json"

	"github.com/dlbd/dlbd/kernel/internal/wire"
	"github.com/dlbd/dlbd/kernel/protocol"
)

// answerIsComplete replies to an is_complete_request from Jupyter, on the
// shell socket it came from, instead of forwarding it to GoNB (which would
// never answer), inside [server.answer]'s busy and idle.
func (s *server) answerIsComplete(req wire.Parts) {
	var r protocol.IsCompleteRequest
	json.Unmarshal(req.Content, &r) // malformed content: the empty cell, complete
	status, indent := IsComplete(r.Code)
	s.reply(req, "is_complete_reply", protocol.IsCompleteReply{Status: status, Indent: indent})
}
