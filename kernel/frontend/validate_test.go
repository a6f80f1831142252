package frontend

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"strings"
	"testing"
)

func TestCheckMessage(t *testing.T) {
	hdr := `{"msg_id":"1","session":"s","username":"u","date":"d","msg_type":"%s","version":"5.3"}`
	h := func(msgType string) string { return strings.Replace(hdr, "%s", msgType, 1) }
	tests := []struct {
		name, header, parent, metadata, content string
		err                                     string // substring of the error; "" for accepted
		filled                                  string // a field the defaults fill
	}{
		{name: "execute-minimal", header: h("execute_request"), parent: "{}", metadata: "{}", content: `{"code":"%%"}`, filled: "store_history"},
		{name: "kernel-info", header: h("kernel_info_request"), parent: "{}", metadata: "{}", content: `{}`},
		{name: "header-not-object", header: `[1]`, parent: "{}", metadata: "{}", content: "{}", err: "header is not a JSON object"},
		{name: "header-field-type", header: `{"msg_id":"1","msg_type":"x","session":3}`, parent: "{}", metadata: "{}", content: "{}", err: "session is not a string"},
		{name: "no-msg-type", header: `{"msg_id":"1"}`, parent: "{}", metadata: "{}", content: "{}", err: "no msg_type"},
		{name: "parent-broken", header: h("execute_request"), parent: "{", metadata: "{}", content: `{"code":""}`, err: "parent_header"},
		{name: "content-null", header: h("execute_request"), parent: "{}", metadata: "{}", content: "null", err: "content is not a JSON object"},
		{name: "code-number", header: h("execute_request"), parent: "{}", metadata: "{}", content: `{"code":5}`, err: "code is a number, not a string"},
		{name: "inspect-no-cursor", header: h("inspect_request"), parent: "{}", metadata: "{}", content: `{"code":"x"}`, err: "no cursor_pos"},
		{name: "cursor-negative", header: h("complete_request"), parent: "{}", metadata: "{}", content: `{"code":"x","cursor_pos":-1}`, err: "non-negative integer"},
		{name: "user-expression-number", header: h("execute_request"), parent: "{}", metadata: "{}", content: `{"code":"x","user_expressions":{"a":1}}`, err: "does not match the spec"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, fixed, err := checkMessage([]byte(tt.header), []byte(tt.parent), []byte(tt.metadata), []byte(tt.content))
			switch {
			case tt.err == "" && err != nil:
				t.Fatalf("checkMessage: %v; want it accepted", err)
			case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
				t.Fatalf("checkMessage: %v; want an error containing %q", err, tt.err)
			case tt.filled != "" && !bytes.Contains(fixed, []byte(`"`+tt.filled+`"`)):
				t.Errorf("content %s; want %s filled in", fixed, tt.filled)
			}
		})
	}
}

// TestContentFieldsDefaults checks the default tags of the protocol's
// request structs: each is JSON of its field's kind.
func TestContentFieldsDefaults(t *testing.T) {
	for msgType, fields := range contentFields {
		for _, f := range fields {
			if f.def != nil && kindOf(f.def) != f.kind {
				t.Errorf("%s field %s: default %s is not a %s", msgType, f.name, f.def, f.kind)
			}
		}
	}
	if got := len(contentFields["execute_request"]); got != 6 {
		t.Errorf("execute_request has %d checked fields; want the spec's 6", got)
	}
}

// FuzzCheckMessage: no input makes the check panic, and what it accepts
// has every field GoNB reads, with the right JSON kind.
func FuzzCheckMessage(f *testing.F) {
	f.Add([]byte(`{"msg_id":"1","msg_type":"execute_request","session":"s"}`), []byte("{}"), []byte("{}"), []byte(`{"code":"%%"}`))
	f.Add([]byte(`{"msg_id":"1","msg_type":"inspect_request"}`), []byte(`{"msg_id":7}`), []byte(`{}`), []byte(`{"code":"x","cursor_pos":1.5}`))
	f.Add([]byte(`{"msg_id":"1","msg_type":"comm_open"}`), []byte("{}"), []byte("null"), []byte(`{"comm_id":"c","target_name":"t","data":[]}`))
	f.Fuzz(func(t *testing.T, header, parent, metadata, content []byte) {
		msgType, fixed, err := checkMessage(header, parent, metadata, content)
		if err != nil {
			return
		}
		if fixed != nil {
			content = fixed
		}
		var c map[string]json.RawMessage
		if json.Unmarshal(content, &c) != nil {
			t.Fatalf("accepted content %q is not an object", content)
		}
		for _, fl := range contentFields[msgType] {
			if k := kindOf(c[fl.name]); k != fl.kind {
				t.Fatalf("accepted %s with %s of kind %s; want %s", msgType, fl.name, k, fl.kind)
			}
		}
	})
}

// frame returns a ZMTP frame: flags, size (long when over 255), body.
func frame(body []byte, more bool) []byte {
	var flags byte
	if more {
		flags |= 1
	}
	if len(body) > 255 {
		out := []byte{flags | 2, 0, 0, 0, 0, 0, 0, 0, 0}
		binary.BigEndian.PutUint64(out[1:], uint64(len(body)))
		return append(out, body...)
	}
	return append([]byte{flags, byte(len(body))}, body...)
}

func TestLimitedConnScan(t *testing.T) {
	greeting := make([]byte, zmtpGreeting)
	ok := append(append(append([]byte(nil), greeting...), frame(make([]byte, 300), true)...), frame(make([]byte, 10), false)...)
	c := &limitedConn{max: 400, greeting: zmtpGreeting}
	for i := range ok { // byte by byte: headers split across reads
		if err := c.scan(ok[i : i+1]); err != nil {
			t.Fatalf("a message under the limit was refused at byte %d: %v", i, err)
		}
	}
	big := append(append([]byte(nil), greeting...), frame(make([]byte, 1000), false)[:9]...)
	c = &limitedConn{max: 400, greeting: zmtpGreeting}
	if err := c.scan(big); err == nil || !strings.Contains(err.Error(), "1000 bytes") {
		t.Errorf("a 1000-byte frame under a 400-byte limit: %v; want it refused from its header", err)
	}
	many := append([]byte(nil), greeting...)
	for range 5 {
		many = append(many, frame(make([]byte, 100), true)...)
	}
	c = &limitedConn{max: 400, greeting: zmtpGreeting}
	if err := c.scan(many); err == nil || !strings.Contains(err.Error(), "message exceeds") {
		t.Errorf("five 100-byte frames of one message under a 400-byte limit: %v; want it refused", err)
	}
}

// FuzzLimitedConnScan: the framing scan never panics, and a stream it
// accepts never announced a frame larger than the limit.
func FuzzLimitedConnScan(f *testing.F) {
	f.Add(append(make([]byte, zmtpGreeting), frame([]byte("hola"), false)...), uint8(3))
	f.Add(append(make([]byte, zmtpGreeting), 2, 0xff, 0, 0, 0, 0, 0, 0, 0), uint8(1))
	f.Fuzz(func(t *testing.T, stream []byte, chunk uint8) {
		c := &limitedConn{max: 1 << 10, greeting: zmtpGreeting}
		step := int(chunk)%16 + 1
		for i := 0; i < len(stream); i += step {
			if c.scan(stream[i:min(i+step, len(stream))]) != nil {
				return
			}
			if c.body > c.max || c.msg > c.max {
				t.Fatalf("accepted a frame or message over the limit: body %d, message %d", c.body, c.msg)
			}
		}
	})
}
