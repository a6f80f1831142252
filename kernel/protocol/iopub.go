package protocol

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
	// Transient holds data not saved in the notebook, like display_id;
	// left out when nil (an empty map is written {}).
	Transient map[string]any `json:"transient,omitzero"`
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
// a reply whose status is "error" ([ExecuteReply], [ErrorReply]).
type ErrorContent struct {
	// EName is the error's name.
	EName string `json:"ename"`
	// EValue is the error's message.
	EValue string `json:"evalue"`
	// Traceback holds the lines a front-end shows.
	Traceback []string `json:"traceback"`
}

// NewError returns the error fields ename, evalue and traceback, with a
// nil traceback made empty: the spec's traceback is a list, never null.
func NewError(ename, evalue string, traceback []string) ErrorContent {
	if traceback == nil {
		traceback = []string{}
	}
	return ErrorContent{EName: ename, EValue: evalue, Traceback: traceback}
}

// ExecuteInput is the content of an "execute_input": the code being run.
type ExecuteInput struct {
	// Code is the cell's source.
	Code string `json:"code"`
	// ExecutionCount is the cell's number.
	ExecutionCount int `json:"execution_count"`
}
