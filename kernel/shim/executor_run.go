package shim

import (
	"context"
	"fmt"
	"strings"

	"github.com/dlbd/dlbd/kernel/cell"
	"github.com/dlbd/dlbd/kernel/internal/wire"
	"github.com/dlbd/dlbd/kernel/stateful"
)

// run executes j in the Executor, publishing what the spec asks of a
// kernel (busy, execute_input, output, error, idle) and replying on shell.
// It reports whether the cell succeeded.
func (e *execute) run(j *job) bool {
	s := e.s
	num, done := e.begin(j)
	defer done()
	out := &cellOutput{s: s, parent: j.parts, silent: j.req.Silent}
	e.running.Store(true)
	res := e.ex.Execute(context.Background(), *j.req.Code, num, out)
	e.running.Store(false)
	if res.Mode != "" {
		e.setMode(j, res.Mode)
	}
	if res.Status == "ok" {
		s.reply(j.parts, "execute_reply", map[string]any{"status": "ok", "execution_count": num, "user_expressions": map[string]any{}, "payload": []any{}})
		return true
	}
	tb := res.Traceback
	if tb == nil {
		tb = []string{}
	}
	errFields := map[string]any{"ename": res.EName, "evalue": res.EValue, "traceback": tb}
	s.publish(j.parts, "error", errFields)
	reply := map[string]any{"status": "error", "execution_count": num}
	for k, v := range errFields {
		reply[k] = v
	}
	s.reply(j.parts, "execute_reply", reply)
	return false
}

// begin starts the shim's execution of j: status busy, its execution
// count (0 when it is not counted) and execute_input. done publishes
// status idle.
func (e *execute) begin(j *job) (num int, done func()) {
	e.s.publish(j.parts, "status", map[string]string{"execution_state": "busy"})
	if j.req.counts() {
		e.count++
		num = e.count
	}
	if !j.req.Silent {
		e.s.publish(j.parts, "execute_input", map[string]any{"code": *j.req.Code, "execution_count": num})
	}
	return num, func() { e.s.publish(j.parts, "status", map[string]string{"execution_state": "idle"}) }
}

// switchMode runs a %mode cell in either mode.
func (e *execute) switchMode(j *job, c *cell.Cell) {
	s := e.s
	num, done := e.begin(j)
	defer done()
	m, _ := c.Magic("mode")
	args := m.Args()
	fail := func(msg string) {
		s.publish(j.parts, "error", map[string]any{"ename": "magic", "evalue": msg, "traceback": []string{msg}})
		s.reply(j.parts, "execute_reply", map[string]any{"status": "error", "execution_count": num, "ename": "magic", "evalue": msg, "traceback": []string{msg}})
	}
	switch {
	case len(args) != 1 || args[0] != ModeProcess && args[0] != ModeStateful:
		fail("%mode takes one word: process (each cell a new process, as GoNB) or stateful (values live on)")
		return
	case args[0] == ModeStateful && e.ex == nil:
		fail("the stateful mode is not available in this kernel (it needs Linux or macOS, cgo and a C compiler); it stays in process mode")
		return
	case args[0] == ModeStateful:
		if err := e.ex.Available(); err != nil {
			fail(fmt.Sprintf("the stateful mode is unavailable: %v", err))
			return
		}
	}
	e.setMode(j, args[0])
	s.reply(j.parts, "execute_reply", map[string]any{"status": "ok", "execution_count": num, "user_expressions": map[string]any{}, "payload": []any{}})
}

// setMode switches the mode for the next cells and says what that means.
func (e *execute) setMode(j *job, mode string) {
	if mode == e.currentMode() {
		e.note(j, "stdout", fmt.Sprintf("Already in %s mode.\n", mode))
		return
	}
	e.mode.Store(mode)
	if mode == ModeProcess {
		e.note(j, "stdout", "Process mode: from the next cell on, each cell is compiled and run as a new process (GoNB). Declarations of later cells persist, values do not; what earlier cells declared in stateful mode is not carried over. %mode stateful switches back.\n")
		return
	}
	e.note(j, "stdout", "Stateful mode: from the next cell on, the values cells make live on in the cells after them. What earlier cells declared in process mode is not carried over: run those cells again. %mode process switches back.\n")
}

// note publishes text on a stream of j's cell.
func (e *execute) note(j *job, name, text string) {
	e.s.publish(j.parts, "stream", map[string]string{"name": name, "text": text})
}

// cellOutput publishes a stateful cell's output on IOPub, child messages
// of its request.
type cellOutput struct {
	s      *shim
	parent wire.Parts
	silent bool
}

// Stream publishes a stream message.
func (o *cellOutput) Stream(name, text string) {
	if o.silent {
		return
	}
	o.s.publish(o.parent, "stream", map[string]string{"name": name, "text": strings.ToValidUTF8(text, "\uFFFD")})
}

// Display publishes display_data, or update_display_data for an update.
func (o *cellOutput) Display(d stateful.Display) {
	if o.silent {
		return
	}
	msgType := "display_data"
	if d.Update {
		msgType = "update_display_data"
	}
	md := d.Metadata
	if md == nil {
		md = map[string]any{}
	}
	content := map[string]any{"data": d.Data, "metadata": md, "transient": map[string]any{}}
	if d.ID != "" {
		content["transient"] = map[string]any{"display_id": d.ID}
	}
	o.s.publish(o.parent, msgType, content)
}

// publish sends a message of type msgType on IOPub as a child of parent.
func (s *shim) publish(parent wire.Parts, msgType string, content any) {
	p := wire.Parts{
		Identities:   [][]byte{[]byte("kernel.dlbd." + msgType)},
		Header:       encode(s.header(msgType)),
		ParentHeader: parent.Header,
		Metadata:     []byte("{}"),
		Content:      encode(content),
	}
	s.forward(s.jup, iopub, wire.Encode(s.signer, p))
}

// reply sends a shell reply to the request req.
func (s *shim) reply(req wire.Parts, msgType string, content any) {
	s.replyOn(shell, req, msgType, content)
}

// replyOn sends a reply to the request req on channel ch.
func (s *shim) replyOn(ch int, req wire.Parts, msgType string, content any) {
	p := wire.Parts{
		Identities:   req.Identities,
		Header:       encode(s.header(msgType)),
		ParentHeader: req.Header,
		Metadata:     []byte("{}"),
		Content:      encode(content),
	}
	s.forward(s.jup, ch, wire.Encode(s.signer, p))
}

// replyError answers a request the shim refuses with an error reply of
// type msgType, so that the client is not left waiting.
func (s *shim) replyError(req wire.Parts, msgType, ename, msg string) {
	s.log.Print(msg)
	s.publish(req, "status", map[string]string{"execution_state": "busy"})
	s.reply(req, msgType, map[string]any{"status": "error", "ename": ename, "evalue": msg, "traceback": []string{msg}})
	s.publish(req, "status", map[string]string{"execution_state": "idle"})
}
