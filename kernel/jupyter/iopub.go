package jupyter

import (
	"fmt"
	"strings"
	"time"
)

// Content structs of the IOPub channel (spec section "Messages on the IOPub
// (PUB/SUB) channel",
// https://jupyter-client.readthedocs.io/en/latest/messaging.html#messages-on-the-iopub-pub-sub-channel).

// Status is the content of a "status" message: the kernel is "busy" while it
// handles a request and "idle" when done with it; "starting" once at start.
type Status struct {
	// ExecutionState is "busy", "idle" or "starting".
	ExecutionState string `json:"execution_state"`
}

// Stream is the content of a "stream" message: text written to stdout or
// stderr.
type Stream struct {
	// Name is "stdout" or "stderr".
	Name string `json:"name"`
	// Text is the chunk of text.
	Text string `json:"text"`
}

// DisplayData is the content of "display_data" and "update_display_data".
// An update replaces the output whose Transient["display_id"] matches.
type DisplayData struct {
	// Data maps MIME types ("text/html", "text/plain") to representations.
	Data map[string]any `json:"data"`
	// Metadata maps MIME types to extra information.
	Metadata map[string]any `json:"metadata"`
	// Transient holds data not saved in the notebook, like display_id.
	Transient map[string]any `json:"transient,omitempty"`
}

// ExecuteResult is the content of an "execute_result": the value of a cell.
type ExecuteResult struct {
	// ExecutionCount is the cell's number.
	ExecutionCount int `json:"execution_count"`
	// Data maps MIME types to representations.
	Data map[string]any `json:"data"`
	// Metadata maps MIME types to extra information.
	Metadata map[string]any `json:"metadata"`
}

// ErrorContent is the content of an "error" message, and the error fields of
// an [ExecuteReply].
type ErrorContent struct {
	// EName is the error's name.
	EName string `json:"ename"`
	// EValue is the error's message.
	EValue string `json:"evalue"`
	// Traceback holds the lines a front-end shows.
	Traceback []string `json:"traceback"`
}

// ExecuteInput is the content of an "execute_input": the code being run.
type ExecuteInput struct {
	// Code is the cell's source.
	Code string `json:"code"`
	// ExecutionCount is the cell's number.
	ExecutionCount int `json:"execution_count"`
}

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
	Reply ExecuteReply
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
		var s Stream
		if m.Header.MsgType == "stream" && m.DecodeContent(&s) == nil && s.Name == name {
			sb.WriteString(s.Text)
		}
	}
	return sb.String()
}

// Errors returns the content of the "error" messages on IOPub.
func (e *Execution) Errors() []ErrorContent {
	var out []ErrorContent
	for _, m := range e.Outputs {
		var ec ErrorContent
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
