package frontend

import (
	"encoding/json"

	"github.com/dlbd/dlbd/kernel/internal/wire"
	"github.com/dlbd/dlbd/kernel/protocol"
)

// setCurrent records j as the job whose cell runs.
func (e *execute) setCurrent(j *job) {
	e.statusMu.Lock()
	e.current = j
	e.statusMu.Unlock()
}

// ended runs publishIdle, the idle of job j's cell, and forgets j as the
// running job, in one step with respect to answered: a busy for j never
// follows its idle.
func (e *execute) ended(j *job, publishIdle func()) {
	e.statusMu.Lock()
	defer e.statusMu.Unlock()
	if e.current == j {
		e.current = nil
	}
	publishIdle()
}

// answer runs reply, the front end's own answer to request req (Tab,
// Shift+Tab, history, is_complete), between status busy and idle, as the
// spec asks of every request: JupyterLab shows a completion or a tooltip
// only after the request's idle. A cell that runs meanwhile is shown busy
// again at once, so the kernel does not look idle while it works.
func (s *server) answer(req wire.Parts, reply func()) {
	s.status(req, "busy")
	reply()
	e := s.exec
	e.statusMu.Lock()
	defer e.statusMu.Unlock()
	s.status(req, "idle")
	if e.current != nil {
		s.status(e.current.parts, "busy")
	}
}

// forwardIdle forwards frames, GoNB's status message for request parent
// with content content, ending the running job when it is that job's idle
// (in one step with respect to answer, as ended).
func (s *server) forwardIdle(parent string, content []byte, frames [][]byte) bool {
	var st protocol.Status
	if json.Unmarshal(content, &st) != nil || st.ExecutionState != "idle" {
		return false
	}
	e := s.exec
	e.statusMu.Lock()
	defer e.statusMu.Unlock()
	if e.current == nil || e.current.header.MsgID != parent {
		return false
	}
	e.current = nil
	s.forward(s.jup, protocol.IOPub, frames)
	return true
}
