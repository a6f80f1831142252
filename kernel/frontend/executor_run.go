package frontend

import (
	"context"
	"strings"

	"github.com/dlbd/dlbd/kernel/internal/wire"
	"github.com/dlbd/dlbd/kernel/protocol"
	"github.com/dlbd/dlbd/kernel/stateful"
)

// run executes j in the Executor, publishing what the spec asks of a
// kernel (busy, execute_input, output, error, idle) and replying on shell.
// It reports whether the cell succeeded.
func (e *execute) run(j *job) bool {
	num, done := e.begin(j)
	defer done()
	out := &cellOutput{s: e.s, parent: j.parts, silent: j.req.Silent, count: num}
	e.running.Store(true)
	res := e.ex.Execute(context.Background(), j.req.Code, num, out)
	e.running.Store(false)
	if res.Status == stateful.StatusOK {
		e.finish(j, num, nil)
		return true
	}
	err := protocol.NewError(res.EName, res.EValue, res.Traceback)
	e.finish(j, num, &err)
	return false
}

// begin starts the front end's execution of j: status busy, its execution
// count (0 when it is not counted) and execute_input. done publishes
// status idle.
func (e *execute) begin(j *job) (num int, done func()) {
	e.s.status(j.parts, "busy")
	e.setCurrent(j)
	if j.req.Counts() {
		e.count++
		num = e.count
		e.hist.add(num, j.req.Code)
	}
	if !j.req.Silent {
		e.s.publish(j.parts, "execute_input", protocol.ExecuteInput{Code: j.req.Code, ExecutionCount: num})
	}
	return num, func() { e.ended(j, func() { e.s.status(j.parts, "idle") }) }
}

// finish answers j, whose execution count is num: "ok" when err is nil,
// else the error, which it also publishes on IOPub.
func (e *execute) finish(j *job, num int, err *protocol.ErrorContent) {
	if err == nil {
		e.s.reply(j.parts, "execute_reply", protocol.ExecuteReply{Status: "ok", ExecutionCount: num})
		return
	}
	e.s.publish(j.parts, "error", *err)
	e.s.reply(j.parts, "execute_reply", protocol.ExecuteReply{Status: "error", ExecutionCount: num,
		EName: err.EName, EValue: err.EValue, Traceback: err.Traceback})
}

// note publishes text on a stream of j's cell.
func (e *execute) note(j *job, name, text string) {
	e.s.publish(j.parts, "stream", protocol.Stream{Name: name, Text: text})
}

// cellOutput publishes a stateful cell's output on IOPub, child messages
// of its request.
type cellOutput struct {
	s      *server
	parent wire.Parts
	silent bool
	count  int // the cell's execution count, which its execute_result carries
}

// Stream publishes a stream message.
func (o *cellOutput) Stream(name, text string) {
	if o.silent {
		return
	}
	o.s.publish(o.parent, "stream", protocol.Stream{Name: name, Text: strings.ToValidUTF8(text, "\uFFFD")})
}

// Display publishes display_data, update_display_data for an update, or
// execute_result for the cell's result (the value of its last line).
func (o *cellOutput) Display(d stateful.Display) {
	if o.silent {
		return
	}
	if d.Result {
		if text, ok := d.Data["text/plain"].(string); ok && o.count > 0 {
			o.s.exec.hist.setOutput(o.count, text)
		}
		metadata := d.Metadata
		if metadata == nil {
			metadata = map[string]any{}
		}
		o.s.publish(o.parent, "execute_result", protocol.ExecuteResult{ExecutionCount: o.count, Data: d.Data, Metadata: metadata})
		return
	}
	msgType := "display_data"
	if d.Update {
		msgType = "update_display_data"
	}
	content := protocol.DisplayData{Data: d.Data, Metadata: d.Metadata, Transient: map[string]any{}}
	if content.Metadata == nil {
		content.Metadata = map[string]any{}
	}
	if d.ID != "" {
		content.Transient["display_id"] = d.ID
	}
	o.s.publish(o.parent, msgType, content)
}

// publish sends a message of type msgType on IOPub as a child of parent.
func (s *server) publish(parent wire.Parts, msgType string, content any) {
	p := wire.Parts{
		Identities:   [][]byte{[]byte("kernel.dlbd." + msgType)},
		Header:       encode(s.header(msgType)),
		ParentHeader: parent.Header,
		Metadata:     []byte("{}"),
		Content:      encode(content),
	}
	s.forward(s.jup, protocol.IOPub, wire.Encode(s.signer, p))
}

// status publishes the kernel's execution state ("busy", "idle") for the
// request parent.
func (s *server) status(parent wire.Parts, state string) {
	s.publish(parent, "status", protocol.Status{ExecutionState: state})
}

// reply sends a shell reply to the request req.
func (s *server) reply(req wire.Parts, msgType string, content any) {
	s.replyOn(protocol.Shell, req, msgType, content)
}

// replyOn sends a reply to the request req on channel ch.
func (s *server) replyOn(ch protocol.Channel, req wire.Parts, msgType string, content any) {
	p := wire.Parts{
		Identities:   req.Identities,
		Header:       encode(s.header(msgType)),
		ParentHeader: req.Header,
		Metadata:     []byte("{}"),
		Content:      encode(content),
	}
	s.forward(s.jup, ch, wire.Encode(s.signer, p))
}

// header returns a fresh header of type msgType from the front end's
// session.
func (s *server) header(msgType string) protocol.Header {
	return protocol.NewHeader(msgType, s.session, "dlbd")
}

// replyError answers a request the front end refuses with an error reply
// of type msgType on channel ch, between busy and idle statuses, so that
// the client is not left waiting.
func (s *server) replyError(ch protocol.Channel, req wire.Parts, msgType, ename, msg string) {
	s.status(req, "busy")
	s.replyOn(ch, req, msgType, protocol.NewErrorReply(ename, msg))
	s.status(req, "idle")
}
