package jupyter

import (
	"fmt"
	"strings"
	"time"

	"github.com/dlbd/dlbd/kernel/protocol"
)

// outputTypes are the IOPub message types an [Execution] collects.
var outputTypes = map[string]bool{
	"stream": true, "display_data": true, "update_display_data": true,
	"execute_result": true, "error": true, "clear_output": true,
}

// Execution is what one execute_request produced: the reply on shell and
// the output messages published on IOPub with the request as parent, in
// arrival order, up to the kernel's "idle" status for it.
type Execution struct {
	// Request is the execute_request that was sent.
	Request *Message
	// Reply is the content of the execute_reply.
	Reply protocol.ExecuteReply
	// Outputs are the stream, display_data, update_display_data,
	// execute_result, error and clear_output messages, in arrival order.
	Outputs []*Message
	// Elapsed is the time from sending the request to receiving both the
	// reply and the idle status: the cell latency a user sees.
	Elapsed time.Duration
}

// Stdout returns the concatenated text of the stdout stream messages.
func (e *Execution) Stdout() string { return e.stream("stdout") }

// Stderr returns the concatenated text of the stderr stream messages.
func (e *Execution) Stderr() string { return e.stream("stderr") }

// stream concatenates the text of the stream messages called name.
func (e *Execution) stream(name string) string {
	var sb strings.Builder
	for _, m := range e.Outputs {
		var s protocol.Stream
		if m.Header.MsgType == "stream" && m.DecodeContent(&s) == nil && s.Name == name {
			sb.WriteString(s.Text)
		}
	}
	return sb.String()
}

// Errors returns the content of the "error" messages on IOPub.
func (e *Execution) Errors() []protocol.ErrorContent {
	var out []protocol.ErrorContent
	for _, m := range e.Outputs {
		var ec protocol.ErrorContent
		if m.Header.MsgType == "error" && m.DecodeContent(&ec) == nil {
			out = append(out, ec)
		}
	}
	return out
}

// CellError is returned by [Client.Execute] when the kernel ran the request
// but the reply's status is not "ok": the cell failed to compile, panicked,
// exited non-zero, was interrupted or was aborted.
type CellError struct {
	// Status is the reply's status, "error" or "aborted".
	Status string
	// EName, EValue and Traceback are the reply's error fields.
	EName, EValue string
	// Traceback holds the reply's traceback lines.
	Traceback []string
}

// Error returns "jupyter: cell failed (status): ename: evalue".
func (e *CellError) Error() string {
	return fmt.Sprintf("jupyter: cell failed (%s): %s: %s", e.Status, e.EName, strings.TrimSpace(e.EValue))
}

// Displayed returns the representation of MIME type mime (like
// "text/plain") of the last display_data the cell showed, or "".
func (e *Execution) Displayed(mime string) string {
	var shown string
	for _, m := range e.Outputs {
		var d protocol.DisplayData
		if m.Header.MsgType == "display_data" && m.DecodeContent(&d) == nil {
			if text, ok := d.Data[mime].(string); ok {
				shown = text
			}
		}
	}
	return shown
}
