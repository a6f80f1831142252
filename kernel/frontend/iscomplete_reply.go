package frontend

import (
	"encoding/json"

	"github.com/dlbd/dlbd/kernel/internal/wire"
	"github.com/dlbd/dlbd/kernel/protocol"
)

// answerIsComplete replies to an is_complete_request from Jupyter, on the
// shell socket it came from, instead of forwarding it to GoNB (which would
// never answer). It publishes no busy/idle status: GoNB may be running a
// cell meanwhile, and an "idle" from the front end would make front-ends
// show the kernel idle while it is busy.
func (s *server) answerIsComplete(req wire.Parts) {
	var r protocol.IsCompleteRequest
	json.Unmarshal(req.Content, &r) // malformed content: the empty cell, complete
	status, indent := IsComplete(r.Code)
	s.reply(req, "is_complete_reply", protocol.IsCompleteReply{Status: status, Indent: indent})
}
