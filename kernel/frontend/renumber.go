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
// that they continue the front end's count; it returns nil when nothing changes.
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
	e.mu.Lock()
	from := f.gonbCount
	e.mu.Unlock()
	if from != 0 && from != f.count {
		for _, k := range []string{"evalue", "traceback"} {
			if raw, ok := fields[k]; ok {
				fields[k] = gonbCount.ReplaceAllFunc(raw, func(m []byte) []byte {
					if n, _ := strconv.Atoi(string(gonbCount.FindSubmatch(m)[1])); n == from {
						return []byte(cellpos.Pos{Cell: f.count}.String())
					}
					return m
				})
			}
		}
	}
	return encode(fields)
}
