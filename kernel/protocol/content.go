package protocol

import (
	"fmt"
	"strconv"
	"strings"
)

// Content structs of the shell, control and stdin channels. Field names
// follow the spec's JSON names; each type links to its section of
// https://jupyter-client.readthedocs.io/en/latest/messaging.html. In a
// request, a field with a `default` tag may be left out and then has that
// value (JSON); a field without one is required (see [ExecuteRequest]).

// KernelInfoReply is the content of a kernel_info_reply (spec section
// "Kernel info").
type KernelInfoReply struct {
	// Status is "ok" or "error".
	Status string `json:"status"`
	// ProtocolVersion is the messaging protocol the kernel speaks, like
	// [Version].
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
		return false, fmt.Errorf("protocol: protocol_version %q is not major.minor[.patch]", r.ProtocolVersion)
	}
	var nums [2]int
	for i := range nums {
		n, err := strconv.Atoi(parts[i])
		if err != nil {
			return false, fmt.Errorf("protocol: protocol_version %q is not major.minor[.patch]", r.ProtocolVersion)
		}
		nums[i] = n
	}
	return nums[0] > major || nums[0] == major && nums[1] >= minor, nil
}

// InspectRequest is the content of an inspect_request (spec section
// "Introspection"): what is known of the name at the cursor.
type InspectRequest struct {
	// Code is the cell's source.
	Code string `json:"code"`
	// CursorPos is the cursor offset in Unicode code points.
	CursorPos int `json:"cursor_pos"`
	// DetailLevel is 0 (the doc) or 1 (also the source).
	DetailLevel int `json:"detail_level" default:"0"`
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

// The statuses of an [IsCompleteReply].
const (
	// Complete: the code can run as it is.
	Complete = "complete"
	// Incomplete: more lines are needed.
	Incomplete = "incomplete"
	// Invalid: no further line can make the code valid.
	Invalid = "invalid"
	// Unknown: the kernel cannot tell.
	Unknown = "unknown"
)

// IsCompleteReply is the content of an is_complete_reply.
type IsCompleteReply struct {
	// Status is [Complete], [Incomplete], [Invalid] or [Unknown].
	Status string `json:"status"`
	// Indent is the indentation for the next line when Status is
	// [Incomplete].
	Indent string `json:"indent,omitempty"`
}

// MarshalJSON writes indent exactly when the status is [Incomplete], even
// when it is "", as the spec wants.
func (r IsCompleteReply) MarshalJSON() ([]byte, error) {
	if r.Status != Incomplete {
		return Marshal(struct {
			Status string `json:"status"`
		}{r.Status})
	}
	return Marshal(struct {
		Status string `json:"status"`
		Indent string `json:"indent"`
	}{r.Status, r.Indent})
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
	Restart bool `json:"restart" default:"false"`
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

// CommOpen is the content of a comm_open (spec section "Custom Messages"),
// which opens a channel between a widget and its kernel-side object.
type CommOpen struct {
	// CommID names the comm.
	CommID string `json:"comm_id"`
	// TargetName names the kernel-side handler.
	TargetName string `json:"target_name"`
	// Data is free-form.
	Data map[string]any `json:"data" default:"{}"`
}

// CommMsg is the content of a comm_msg: data for an open comm.
type CommMsg struct {
	// CommID names the comm.
	CommID string `json:"comm_id"`
	// Data is free-form.
	Data map[string]any `json:"data" default:"{}"`
}

// CommClose is the content of a comm_close, which closes a comm: the
// fields of a [CommMsg].
type CommClose CommMsg

// HistoryRequest is the content of a history_request (spec section
// "History").
type HistoryRequest struct {
	// Output asks for each cell's output beside its input.
	Output bool `json:"output" default:"false"`
	// Raw asks for the input as typed (the dlbd kernel keeps only that).
	Raw bool `json:"raw" default:"false"`
	// HistAccessType is "range", "tail" or "search".
	HistAccessType string `json:"hist_access_type" default:"\"tail\""`
	// Session, Start and Stop select a range: lines Start to Stop-1 of
	// Session (0 or negative numbers mean the current session).
	Session int `json:"session" default:"0"`
	Start   int `json:"start" default:"0"`
	Stop    int `json:"stop" default:"0"`
	// N is how many entries a "tail" or "search" returns (0: all).
	N int `json:"n" default:"0"`
	// Pattern is a "search" pattern, with * and ? as in glob.
	Pattern string `json:"pattern" default:"\"*\""`
	// Unique, for a search, drops repeated inputs.
	Unique bool `json:"unique" default:"false"`
}

// HistoryReply is the content of a history_reply.
type HistoryReply struct {
	// Status is "ok".
	Status string `json:"status"`
	// History holds [session, line, input] entries, or [session, line,
	// [input, output]] when the request asked for output (output is null
	// when the cell showed no result).
	History [][]any `json:"history"`
}

// InspectReply is the content of an inspect_reply.
type InspectReply struct {
	// Status is "ok".
	Status string `json:"status"`
	// Found reports whether the kernel knows the name at the cursor.
	Found bool `json:"found"`
	// Data maps MIME types to representations ("text/plain",
	// "text/markdown"); empty when not found.
	Data map[string]any `json:"data"`
	// Metadata maps MIME types to extra information.
	Metadata map[string]any `json:"metadata"`
}

// CompletionType is one entry of a complete_reply's
// metadata._jupyter_types_experimental, which JupyterLab shows beside each
// match (IPython's convention).
type CompletionType struct {
	// Start and End delimit the replaced text, in code points.
	Start int `json:"start"`
	End   int `json:"end"`
	// Text is the match.
	Text string `json:"text"`
	// Type is what it names: "function", "method", "field", …
	Type string `json:"type"`
	// Signature is its type or signature.
	Signature string `json:"signature"`
}
