package frontend

import (
	"encoding/json"
	"regexp"
	"strconv"

	"github.com/dlbd/dlbd/kernel/internal/cellpos"
)

// gonbCount matches GoNB's cell references, "Cell [3]" and "Cell[3]".
var gonbCount = regexp.MustCompile(`Cell ?\[(\d+)\]`)

// renumber rewrites the execution counts in a message GoNB sent for
// request id (execute_input, execute_reply, execute_result, error), so
// that they continue the front end's count; it returns nil when nothing
// changes. Every cell GoNB ran is renamed in evalue and traceback, not
// only the request's own: an error can be in an earlier cell's
// declarations, and a panic's frames in an earlier cell's functions.
func (e *execute) renumber(id, msgType string, content []byte) []byte {
	e.mu.Lock()
	f := e.fwd[id]
	e.mu.Unlock()
	if f == nil || f.count == 0 {
		return nil
	}
	var fields map[string]json.RawMessage
	if json.Unmarshal(content, &fields) != nil {
		return nil
	}
	if raw, ok := fields["execution_count"]; ok {
		var n int
		if json.Unmarshal(raw, &n) == nil {
			if msgType == "execute_input" {
				e.mu.Lock()
				f.gonbCount = n
				e.gonbCells[n] = gonbCell{count: f.count, code: f.code}
				e.mu.Unlock()
			}
			if n == f.count {
				raw = nil
			}
		}
		if raw != nil {
			fields["execution_count"] = encode(f.count)
		}
	}
	for _, k := range []string{"evalue", "traceback"} {
		if raw, ok := fields[k]; ok {
			fields[k] = gonbCount.ReplaceAllFunc(raw, func(m []byte) []byte {
				n, _ := strconv.Atoi(string(gonbCount.FindSubmatch(m)[1]))
				e.mu.Lock()
				c, known := e.gonbCells[n]
				e.mu.Unlock()
				if known && c.count != 0 && c.count != n {
					return []byte(cellpos.Pos{Cell: c.count}.String())
				}
				return m
			})
		}
	}
	return encode(fields)
}
