package protocol

import (
	"bytes"
	"encoding/json"
)

// ExecuteRequest is the content of an execute_request (spec section
// "Execute"). A field with a `default` tag may be left out of a request,
// and then has that value (JSON); one without (Code) is required. The
// kernel's front end checks requests against these fields and fills the
// defaults in (kernel/frontend's validator).
type ExecuteRequest struct {
	// Code is the cell's source.
	Code string `json:"code"`
	// Silent asks the kernel to publish no output and not count the cell.
	Silent bool `json:"silent" default:"false"`
	// StoreHistory asks the kernel to count the cell (execution_count).
	StoreHistory bool `json:"store_history" default:"true"`
	// UserExpressions are evaluated after the code, by name; clients send
	// {} for none (package kernel/jupyter's client does when nil).
	UserExpressions map[string]string `json:"user_expressions" default:"{}"`
	// AllowStdin says whether the kernel may send input_request on stdin.
	AllowStdin bool `json:"allow_stdin" default:"true"`
	// StopOnError asks the kernel to abort queued cells after an error.
	StopOnError bool `json:"stop_on_error" default:"true"`
}

// Counts reports whether the request gets an execution count: not when it
// is silent, nor when it asks not to be stored.
func (r ExecuteRequest) Counts() bool { return !r.Silent && r.StoreHistory }

// ExecuteReply is the content of an execute_reply (spec section "Execution
// results"). On error the same ename/evalue/traceback are also published
// on IOPub as an "error" message ([ErrorContent]).
type ExecuteReply struct {
	// Status is "ok", "error" or "aborted" (not run: an earlier cell
	// failed, or the kernel shuts down).
	Status string `json:"status"`
	// ExecutionCount is the cell's number, the kernel's counter of
	// executed cells; none (JSON null, read as 0) when aborted.
	ExecutionCount int `json:"execution_count"`
	// EName is the error's name when Status is "error".
	EName string `json:"ename,omitempty"`
	// EValue is the error's message when Status is "error".
	EValue string `json:"evalue,omitempty"`
	// Traceback is the error's traceback lines when Status is "error".
	Traceback []string `json:"traceback,omitempty"`
	// UserExpressions are the values of the request's user expressions
	// when Status is "ok".
	UserExpressions map[string]any `json:"user_expressions,omitempty"`
	// Payload is deprecated by the spec; "ok" replies carry it empty.
	Payload []any `json:"payload,omitempty"`
}

// MarshalJSON writes the fields the spec gives r.Status: "ok" with
// user_expressions and payload ({} and [] when nil), "aborted" with
// execution_count null, any other status with ename, evalue and traceback
// ([] when nil).
func (r ExecuteReply) MarshalJSON() ([]byte, error) {
	switch r.Status {
	case "ok":
		if r.UserExpressions == nil {
			r.UserExpressions = map[string]any{}
		}
		if r.Payload == nil {
			r.Payload = []any{}
		}
		return Marshal(struct {
			Status          string         `json:"status"`
			ExecutionCount  int            `json:"execution_count"`
			UserExpressions map[string]any `json:"user_expressions"`
			Payload         []any          `json:"payload"`
		}{r.Status, r.ExecutionCount, r.UserExpressions, r.Payload})
	case "aborted":
		return Marshal(struct {
			Status         string `json:"status"`
			ExecutionCount *int   `json:"execution_count"`
		}{Status: r.Status})
	}
	return Marshal(struct {
		Status         string `json:"status"`
		ExecutionCount int    `json:"execution_count"`
		ErrorContent
	}{r.Status, r.ExecutionCount, NewError(r.EName, r.EValue, r.Traceback)})
}

// ErrorReply is the content of a reply of any type whose status is "error"
// (spec section "Request-Reply"): the request failed, or the kernel
// refused it.
type ErrorReply struct {
	// Status is "error".
	Status string `json:"status"`
	// ErrorContent is the error's name, message and traceback, written
	// beside the status.
	ErrorContent
}

// NewErrorReply returns the error reply whose one traceback line is msg.
func NewErrorReply(ename, msg string) ErrorReply {
	return ErrorReply{Status: "error", ErrorContent: NewError(ename, msg, []string{msg})}
}

// Marshal is json.Marshal without HTML escaping: "<" stays "<", as GoNB
// writes it (an encoder that escapes escapes a MarshalJSON's result
// itself).
func Marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}
