package frontend

import (
	"encoding/json"

	"github.com/dlbd/dlbd/internal/checkout"
	"github.com/dlbd/dlbd/kernel/internal/wire"
	"github.com/dlbd/dlbd/kernel/protocol"
)

// helpLinks are the entries the dlbd kernel adds to the front-end's Help
// menu (kernel_info_reply's help_links), after GoNB's own (Go's home page
// and GoNB's): the Go documentation a student of the course needs, and
// this module's packages.
var helpLinks = []protocol.HelpLink{
	{Text: "Go: biblioteca estándar", URL: "https://pkg.go.dev/std"},
	{Text: "Go: especificación del lenguaje", URL: "https://go.dev/ref/spec"},
	{Text: "Go: Effective Go", URL: "https://go.dev/doc/effective_go"},
	{Text: "dlbd: paquetes del curso (dl, viz, bigdata)", URL: "https://pkg.go.dev/" + checkout.ModulePath},
}

// withHelpLinks returns the content of GoNB's kernel_info_reply with
// helpLinks added after GoNB's own, or nil when it cannot be read (it is
// then forwarded as it came).
func withHelpLinks(content []byte) []byte {
	var fields map[string]json.RawMessage
	if json.Unmarshal(content, &fields) != nil {
		return nil
	}
	var links []protocol.HelpLink
	if raw, ok := fields["help_links"]; ok && json.Unmarshal(raw, &links) != nil {
		return nil
	}
	fields["help_links"] = encode(append(links, helpLinks...))
	return encode(fields)
}

// announceReady publishes the kernel's status with no parent, as ipykernel
// does when it starts: "starting" at once, then "idle" when the stateful
// executor (when there is one) has prepared its session, so that a front
// end shows the kernel ready before the first cell (JupyterLab showed
// "Unknown" until then). A front end that connects later learns the state
// from the busy and idle around its history_request (JupyterLab ignores
// the status of kernel_info requests).
func (s *server) announceReady(ex Executor) {
	none := wire.Parts{Header: []byte("{}")}
	s.status(none, "starting")
	if ex != nil {
		ex.Available()
	}
	if !s.closing.Load() {
		s.status(none, "idle")
	}
}
