package protocol

import (
	"encoding/json"
	"regexp"
	"testing"
)

func TestProtocolAtLeast(t *testing.T) {
	tests := []struct {
		version string
		want    bool
		wantErr bool
	}{
		{version: "5.3", want: true}, {version: "5.4", want: true}, {version: "6.0", want: true},
		{version: "5.2", want: false}, {version: "4.9", want: false}, {version: "5.3.1", want: true},
		{version: "5", wantErr: true}, {version: "five.3", wantErr: true}, {version: "", wantErr: true},
	}
	for _, tt := range tests {
		got, err := KernelInfoReply{ProtocolVersion: tt.version}.ProtocolAtLeast(5, 3)
		if got != tt.want || (err != nil) != tt.wantErr {
			t.Errorf("ProtocolAtLeast(%q, 5.3) = %v, %v; want %v, error %v", tt.version, got, err, tt.want, tt.wantErr)
		}
	}
}

func TestReplyMarshalJSON(t *testing.T) {
	tests := []struct {
		name  string
		reply any
		want  string
	}{
		{name: "execute/ok", reply: ExecuteReply{Status: "ok", ExecutionCount: 3, EName: "ignored"},
			want: `{"status":"ok","execution_count":3,"user_expressions":{},"payload":[]}`},
		{name: "execute/error", reply: ExecuteReply{Status: "error", ExecutionCount: 4, EName: "panic", EValue: "<nil>"},
			want: `{"status":"error","execution_count":4,"ename":"panic","evalue":"<nil>","traceback":[]}`},
		{name: "execute/aborted", reply: ExecuteReply{Status: "aborted", ExecutionCount: 5},
			want: `{"status":"aborted","execution_count":null}`},
		{name: "error", reply: NewErrorReply("bad_request", "no code"),
			want: `{"status":"error","ename":"bad_request","evalue":"no code","traceback":["no code"]}`},
		{name: "is_complete/incomplete", reply: IsCompleteReply{Status: Incomplete},
			want: `{"status":"incomplete","indent":""}`},
		{name: "is_complete/complete", reply: IsCompleteReply{Status: Complete, Indent: "\t"},
			want: `{"status":"complete"}`},
		{name: "display/transient", reply: DisplayData{Data: map[string]any{}, Metadata: map[string]any{}, Transient: map[string]any{}},
			want: `{"data":{},"metadata":{},"transient":{}}`},
		{name: "display/no-transient", reply: DisplayData{Data: map[string]any{}, Metadata: map[string]any{}},
			want: `{"data":{},"metadata":{}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Marshal(tt.reply)
			if err != nil || string(got) != tt.want {
				t.Errorf("Marshal(%+v) = %s, %v; want %s", tt.reply, got, err, tt.want)
			}
		})
	}
	// Reading a reply back needs no MarshalJSON: null is 0.
	var r ExecuteReply
	if err := json.Unmarshal([]byte(`{"status":"aborted","execution_count":null}`), &r); err != nil || r.Status != "aborted" {
		t.Errorf("decode aborted reply = %+v, %v", r, err)
	}
}

func TestNewHeader(t *testing.T) {
	h := NewHeader("kernel_info_request", "s", "u")
	if !regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`).MatchString(h.MsgID) {
		t.Errorf("msg_id %q is not a version 4 UUID", h.MsgID)
	}
	if h.Version != Version || h.MsgType != "kernel_info_request" || h.Session != "s" || h.Username != "u" {
		t.Errorf("NewHeader = %+v", h)
	}
	if !regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$`).MatchString(h.Date) {
		t.Errorf("date %q is not ISO 8601 UTC with microseconds", h.Date)
	}
}

func TestChannelPort(t *testing.T) {
	ci := ConnectionInfo{ShellPort: 1, ControlPort: 2, StdinPort: 3, IOPubPort: 4, HBPort: 5}
	names := []string{"shell", "control", "stdin", "iopub", "heartbeat"}
	for ch := range Channel(NumChannels) {
		if ch.String() != names[ch] || ci.Port(ch) != []int{1, 2, 3, 4, 5}[ch] {
			t.Errorf("channel %d: %s, port %d; want %s, port %d", int(ch), ch, ci.Port(ch), names[ch], ch+1)
		}
	}
}
