package jupyter

import (
	"fmt"
	"strconv"
	"strings"
)

// Content structs of the shell and control channels. Field names follow the
// spec's JSON names; each type links to its section of
// https://jupyter-client.readthedocs.io/en/latest/messaging.html.

// KernelInfoReply is the content of a kernel_info_reply (spec section
// "Kernel info").
type KernelInfoReply struct {
	// Status is "ok" or "error".
	Status string `json:"status"`
	// ProtocolVersion is the messaging protocol the kernel speaks, like "5.4".
	ProtocolVersion string `json:"protocol_version"`
	// Implementation names the kernel program, like "gonb" or "ipython".
	Implementation string `json:"implementation"`
	// ImplementationVersion is the kernel program's version.
	ImplementationVersion string `json:"implementation_version"`
	// LanguageInfo describes the language of the cells.
	LanguageInfo LanguageInfo `json:"language_info"`
	// Banner is shown by console front-ends.
	Banner string `json:"banner"`
	// HelpLinks are shown in the front-end's help menu.
	HelpLinks []HelpLink `json:"help_links,omitempty"`
}

// LanguageInfo is the language_info field of a [KernelInfoReply].
type LanguageInfo struct {
	// Name is the language, like "go".
	Name string `json:"name"`
	// Version is the language version (for GoNB, the Go that built it).
	Version string `json:"version"`
	// MIMEType is the MIME type of a cell's source, like "text/x-go".
	MIMEType string `json:"mimetype"`
	// FileExtension is the extension of a source file, like ".go".
	FileExtension string `json:"file_extension"`
}

// HelpLink is one entry of [KernelInfoReply.HelpLinks].
type HelpLink struct {
	// Text is the link's label.
	Text string `json:"text"`
	// URL is where it points.
	URL string `json:"url"`
}

// ProtocolAtLeast reports whether r.ProtocolVersion is at least
// major.minor. It returns an error when the version is not "X.Y" or "X.Y.Z".
func (r KernelInfoReply) ProtocolAtLeast(major, minor int) (bool, error) {
	parts := strings.Split(r.ProtocolVersion, ".")
	if len(parts) < 2 || len(parts) > 3 {
		return false, fmt.Errorf("jupyter: protocol_version %q is not major.minor[.patch]", r.ProtocolVersion)
	}
	var nums [2]int
	for i := range nums {
		n, err := strconv.Atoi(parts[i])
		if err != nil {
			return false, fmt.Errorf("jupyter: protocol_version %q is not major.minor[.patch]", r.ProtocolVersion)
		}
		nums[i] = n
	}
	return nums[0] > major || nums[0] == major && nums[1] >= minor, nil
}

// ExecuteRequest is the content of an execute_request (spec section
// "Execute"). It is sent as is: [Client.Execute] fills the defaults that
// Jupyter front-ends use.
type ExecuteRequest struct {
	// Code is the cell's source.
	Code string `json:"code"`
	// Silent asks the kernel to publish no output and not count the cell.
	Silent bool `json:"silent"`
	// StoreHistory asks the kernel to count the cell (execution_count).
	StoreHistory bool `json:"store_history"`
	// UserExpressions are evaluated after the code; sent as {} when nil.
	UserExpressions map[string]string `json:"user_expressions"`
	// AllowStdin says whether the kernel may send input_request on stdin.
	AllowStdin bool `json:"allow_stdin"`
	// StopOnError asks the kernel to abort queued cells after an error.
	StopOnError bool `json:"stop_on_error"`
}

// ExecuteReply is the content of an execute_reply (spec section "Execution
// results"). On error the same ename/evalue/traceback are also published
// on IOPub as an "error" message.
type ExecuteReply struct {
	// Status is "ok", "error" or "aborted".
	Status string `json:"status"`
	// ExecutionCount is the kernel's counter of executed cells.
	ExecutionCount int `json:"execution_count"`
	// EName is the error's name when Status is "error".
	EName string `json:"ename,omitempty"`
	// EValue is the error's message when Status is "error".
	EValue string `json:"evalue,omitempty"`
	// Traceback is the error's traceback lines when Status is "error".
	Traceback []string `json:"traceback,omitempty"`
}

// CompleteRequest is the content of a complete_request (spec section
// "Completion").
type CompleteRequest struct {
	// Code is the cell's source.
	Code string `json:"code"`
	// CursorPos is the cursor offset in Unicode code points (protocol ≥ 5.2).
	CursorPos int `json:"cursor_pos"`
}

// CompleteReply is the content of a complete_reply.
type CompleteReply struct {
	// Status is "ok" or "error".
	Status string `json:"status"`
	// Matches are the candidate completions.
	Matches []string `json:"matches"`
	// CursorStart is where the text to replace starts.
	CursorStart int `json:"cursor_start"`
	// CursorEnd is where the text to replace ends.
	CursorEnd int `json:"cursor_end"`
	// Metadata is free-form extra information.
	Metadata map[string]any `json:"metadata"`
}

// IsCompleteRequest is the content of an is_complete_request (spec section
// "Code completeness"), used by consoles to decide whether Enter runs the
// code or starts a new line.
type IsCompleteRequest struct {
	// Code is the text typed so far.
	Code string `json:"code"`
}

// IsCompleteReply is the content of an is_complete_reply.
type IsCompleteReply struct {
	// Status is "complete", "incomplete", "invalid" or "unknown".
	Status string `json:"status"`
	// Indent is the indentation for the next line when Status is "incomplete".
	Indent string `json:"indent,omitempty"`
}

// InterruptReply is the content of an interrupt_reply (spec section
// "Kernel interrupt").
type InterruptReply struct {
	// Status is "ok" or "error".
	Status string `json:"status"`
}

// ShutdownRequest is the content of a shutdown_request (spec section
// "Kernel shutdown").
type ShutdownRequest struct {
	// Restart says that the kernel will be started again.
	Restart bool `json:"restart"`
}

// ShutdownReply is the content of a shutdown_reply.
type ShutdownReply struct {
	// Status is "ok" or "error".
	Status string `json:"status"`
	// Restart echoes the request's Restart.
	Restart bool `json:"restart"`
}

// InputRequest is the content of an input_request sent by the kernel on
// stdin (spec section "Messages on the stdin ROUTER/DEALER channel").
type InputRequest struct {
	// Prompt is shown to the user.
	Prompt string `json:"prompt"`
	// Password says the input should not be echoed.
	Password bool `json:"password"`
}

// InputReply is the content of an input_reply.
type InputReply struct {
	// Value is the text the user typed.
	Value string `json:"value"`
}
