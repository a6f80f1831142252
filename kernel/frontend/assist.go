package frontend

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/dlbd/dlbd/kernel/internal/wire"
	"github.com/dlbd/dlbd/kernel/protocol"
	"github.com/dlbd/dlbd/kernel/stateful"
)

// Assistant helps while a student writes a cell: Tab (complete_request)
// and Shift+Tab (inspect_request), computed in the kernel from go/types
// (*stateful.Session implements it; a nil *stateful.Session answers with
// keywords, magics and the cell's own names). The front end asks it in
// both modes: in the process mode the session's names are left out.
type Assistant interface {
	// Complete returns what Tab offers at q's cursor.
	Complete(q stateful.Query) stateful.Completion
	// Inspect describes the name at q's cursor.
	Inspect(q stateful.Query) stateful.Inspection
}

// assistant returns the executor's Assistant, or a nil session's.
func assistantOf(ex Executor) Assistant {
	if a, ok := ex.(Assistant); ok {
		return a
	}
	return (*stateful.Session)(nil)
}

// answerComplete replies to a complete_request (inside [server.answer]'s
// busy and idle); completion never waits for a running cell.
func (s *server) answerComplete(req wire.Parts) {
	var r protocol.CompleteRequest
	json.Unmarshal(req.Content, &r) // checked by checkMessage
	c := s.exec.assist.Complete(s.exec.query(r.Code, r.CursorPos, 0))
	matches := make([]string, len(c.Matches))
	types := make([]protocol.CompletionType, len(c.Matches))
	for i, m := range c.Matches {
		matches[i] = m.Text
		types[i] = protocol.CompletionType{Start: c.CursorStart, End: c.CursorEnd, Text: m.Text, Type: string(m.Kind), Signature: m.Signature}
	}
	if len(c.Matches) == 0 { // nothing to replace: the cursor stays where it is
		c.CursorStart, c.CursorEnd = r.CursorPos, r.CursorPos
	}
	s.reply(req, "complete_reply", protocol.CompleteReply{Status: "ok", Matches: matches, CursorStart: c.CursorStart, CursorEnd: c.CursorEnd,
		Metadata: map[string]any{"_jupyter_types_experimental": types}})
}

// answerInspect replies to an inspect_request (Shift+Tab), as
// answerComplete.
func (s *server) answerInspect(req wire.Parts) {
	var r protocol.InspectRequest
	json.Unmarshal(req.Content, &r) // checked by checkMessage
	in := s.exec.assist.Inspect(s.exec.query(r.Code, r.CursorPos, r.DetailLevel))
	s.reply(req, "inspect_reply", inspectReply(in))
}

// query is the Assistant's query for code with the cursor at cursor (code
// points): in the process mode, the declarations GoNB keeps come first.
func (e *execute) query(code string, cursor, detail int) stateful.Query {
	q := stateful.Query{Code: code, Cursor: cursor, Detail: detail, ProcessMode: e.currentMode() == ModeProcess}
	if q.ProcessMode {
		q.Decls = e.processDecls()
	}
	return q
}

// processDecls returns the declarations of the cells GoNB ran.
func (e *execute) processDecls() string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return strings.Join(e.procDecls, "\n")
}

// inspectReply is the inspect_reply that shows in.
func inspectReply(in stateful.Inspection) protocol.InspectReply {
	r := protocol.InspectReply{Status: "ok", Found: in.Found, Data: map[string]any{}, Metadata: map[string]any{}}
	if in.Found {
		r.Data["text/plain"] = in.Text
		r.Data["text/markdown"] = in.Markdown
	}
	return r
}

// help runs a help cell ("?name", "name?", "??name"), in either mode: the
// inspection of name as display_data, or a line saying it is unknown.
func (e *execute) help(j *job, q stateful.Query) {
	num, done := e.begin(j)
	defer done()
	if !j.req.Silent { // a silent request shows nothing: nothing to look up
		if in := e.assist.Inspect(e.query(q.Code, q.Cursor, q.Detail)); in.Found {
			e.s.publish(j.parts, "display_data", protocol.DisplayData{Data: inspectReply(in).Data, Metadata: map[string]any{}})
		} else {
			e.note(j, "stdout", fmt.Sprintf("Object `%s` not found.\n", strings.Trim(strings.TrimSpace(j.req.Code), "?")))
		}
	}
	e.finish(j, num, nil)
}
