package frontend

import (
	"encoding/json"
	"path"
	"sync"

	"github.com/dlbd/dlbd/kernel/internal/wire"
	"github.com/dlbd/dlbd/kernel/protocol"
)

// historySession is the session number of this kernel's cells in
// history replies. The kernel keeps no history across sessions: a request
// for session 0, 1 or a negative number (counted back from the current
// one, IPython's convention) reads this session's cells, any other none.
const historySession = 1

// history is the record of the cells the front end counted (in either
// mode), for history_request: JupyterLab's console and %history-style
// tools read it.
type history struct {
	mu      sync.Mutex
	entries []historyEntry
}

// historyEntry is one counted cell.
type historyEntry struct {
	line   int
	input  string
	output any // the text/plain of its execute_result, or nil
}

// add records the cell counted line.
func (h *history) add(line int, input string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.entries = append(h.entries, historyEntry{line: line, input: input})
}

// setOutput records the text of cell line's result.
func (h *history) setOutput(line int, text string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for i := len(h.entries) - 1; i >= 0; i-- {
		if h.entries[i].line == line {
			h.entries[i].output = text
			return
		}
	}
}

// entriesFor returns the entries r asks for, oldest first.
func (h *history) entriesFor(r protocol.HistoryRequest) []historyEntry {
	h.mu.Lock()
	all := append([]historyEntry(nil), h.entries...)
	h.mu.Unlock()
	switch r.HistAccessType {
	case "range":
		if r.Session > historySession {
			return nil
		}
		var out []historyEntry
		for _, e := range all {
			if e.line >= r.Start && (r.Stop <= 0 || e.line < r.Stop) {
				out = append(out, e)
			}
		}
		return out
	case "search":
		var out []historyEntry
		seen := map[string]bool{}
		for i := len(all) - 1; i >= 0 && (r.N <= 0 || len(out) < r.N); i-- {
			e := all[i]
			if ok, _ := path.Match(r.Pattern, e.input); !ok || (r.Unique && seen[e.input]) {
				continue
			}
			seen[e.input] = true
			out = append(out, e)
		}
		for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
			out[i], out[j] = out[j], out[i]
		}
		return out
	default: // "tail"
		if r.N > 0 && len(all) > r.N {
			all = all[len(all)-r.N:]
		}
		return all
	}
}

// answerHistory replies to a history_request from the cells this front end
// counted (inside [server.answer]'s busy and idle).
func (s *server) answerHistory(req wire.Parts) {
	var r protocol.HistoryRequest
	json.Unmarshal(req.Content, &r) // checked and completed by checkMessage
	rows := [][]any{}
	for _, e := range s.exec.hist.entriesFor(r) {
		if r.Output {
			rows = append(rows, []any{historySession, e.line, []any{e.input, e.output}})
		} else {
			rows = append(rows, []any{historySession, e.line, e.input})
		}
	}
	s.reply(req, "history_reply", protocol.HistoryReply{Status: "ok", History: rows})
}
