package frontend

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"sync"

	"github.com/dlbd/dlbd/kernel/protocol"
)

// badRequest is a signed message that is not a Jupyter message the kernel
// can act on: the front end answers it with an error reply (for a request) and
// never forwards it, because GoNB stops the whole kernel, or crashes, on
// the first malformed message it reads.
type badRequest struct {
	msgType string // "" when the header itself is unreadable
	reason  string
}

// Error returns why the message is refused.
func (e *badRequest) Error() string { return e.reason }

// headerFields are the header fields of the spec, all strings
// (https://jupyter-client.readthedocs.io/en/latest/messaging.html#message-header).
var headerFields = []string{"msg_id", "session", "username", "date", "msg_type", "version", "subshell_id"}

// object decodes a JSON object, failing for anything else (null, an
// array, a number, broken JSON).
func object(what string, b []byte) (map[string]json.RawMessage, error) {
	var m map[string]json.RawMessage
	if !bytes.HasPrefix(bytes.TrimSpace(b), []byte("{")) || json.Unmarshal(b, &m) != nil {
		return nil, fmt.Errorf("%s is not a JSON object: %q", what, truncate(b))
	}
	return m, nil
}

// checkHeader validates a header or parent_header frame; a parent may be
// the empty object.
func checkHeader(what string, b []byte, parent bool) (map[string]json.RawMessage, error) {
	h, err := object(what, b)
	if err != nil {
		return nil, err
	}
	for _, f := range headerFields {
		raw, ok := h[f]
		if !ok {
			continue
		}
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return nil, fmt.Errorf("%s field %s is not a string: %s", what, f, truncate(raw))
		}
	}
	if !parent {
		for _, f := range []string{"msg_id", "msg_type"} {
			var s string
			if json.Unmarshal(h[f], &s) != nil || s == "" {
				return nil, fmt.Errorf("%s has no %s", what, f)
			}
		}
	}
	return h, nil
}

// field says what one content field must be.
type field struct {
	name string
	kind string          // "string", "number", "bool", "object"
	def  json.RawMessage // the spec's default when absent; nil: required
}

// contentTypes are the request types whose content GoNB or the front end
// reads, with the protocol structs that describe their content.
var contentTypes = map[string]reflect.Type{
	"execute_request":  reflect.TypeFor[protocol.ExecuteRequest](),
	"inspect_request":  reflect.TypeFor[protocol.InspectRequest](),
	"complete_request": reflect.TypeFor[protocol.CompleteRequest](),
	"shutdown_request": reflect.TypeFor[protocol.ShutdownRequest](),
	"history_request":  reflect.TypeFor[protocol.HistoryRequest](),
	"comm_open":        reflect.TypeFor[protocol.CommOpen](),
	"comm_msg":         reflect.TypeFor[protocol.CommMsg](),
	"comm_close":       reflect.TypeFor[protocol.CommClose](),
}

// contentFields are, per request type of contentTypes, the fields of its
// struct: absent optional ones get the spec's defaults.
var contentFields = fieldsOf(contentTypes)

// fieldsOf reads the fields of the structs in types: each field's JSON
// name from its json tag, its JSON kind from its Go type, and its default
// from its default tag (see package kernel/protocol).
func fieldsOf(types map[string]reflect.Type) map[string][]field {
	out := map[string][]field{}
	for msgType, t := range types {
		for sf := range t.Fields() {
			name, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
			f := field{name: name, kind: jsonKind(sf.Type)}
			if def, ok := sf.Tag.Lookup("default"); ok {
				f.def = json.RawMessage(def)
			}
			out[msgType] = append(out[msgType], f)
		}
	}
	return out
}

// jsonKind returns the JSON kind of values of Go type t, as kindOf names
// it. It panics for a type the protocol's request structs do not use.
func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "bool"
	case reflect.Int:
		return "number"
	case reflect.Map:
		return "object"
	}
	panic("frontend: no JSON kind for a request field of type " + t.String())
}

// kindOf returns the JSON kind of raw.
func kindOf(raw json.RawMessage) string {
	t := bytes.TrimSpace(raw)
	switch {
	case len(t) == 0:
		return "nothing"
	case t[0] == '"':
		return "string"
	case t[0] == '{':
		return "object"
	case t[0] == '[':
		return "array"
	case bytes.Equal(t, []byte("true")) || bytes.Equal(t, []byte("false")):
		return "bool"
	case bytes.Equal(t, []byte("null")):
		return "null"
	}
	return "number"
}

// checkMessage validates a verified message from Jupyter: header,
// parent_header, metadata and content must be JSON objects of the spec's
// shape. It returns the message type and the content to forward, with
// the spec's defaults filled in where GoNB would fail without them (nil
// when the content is fine as it is).
func checkMessage(header, parent, metadata, content []byte) (msgType string, fixed []byte, err error) {
	h, err := checkHeader("header", header, false)
	if err != nil {
		return "", nil, &badRequest{reason: err.Error()}
	}
	json.Unmarshal(h["msg_type"], &msgType)
	bad := func(format string, args ...any) (string, []byte, error) {
		return msgType, nil, &badRequest{msgType: msgType, reason: fmt.Sprintf(msgType+": "+format, args...)}
	}
	if _, err := checkHeader("parent_header", parent, true); err != nil {
		return bad("%v", err)
	}
	if len(bytes.TrimSpace(metadata)) > 0 {
		if _, err := object("metadata", metadata); err != nil {
			return bad("%v", err)
		}
	}
	c, err := object("content", content)
	if err != nil {
		return bad("%v", err)
	}
	changed := false
	for _, f := range contentFields[msgType] {
		raw, ok := c[f.name]
		if !ok || kindOf(raw) == "null" {
			if f.def == nil {
				return bad("content has no %s (%s); see https://jupyter-client.readthedocs.io/en/latest/messaging.html", f.name, f.kind)
			}
			c[f.name], changed = f.def, true
			continue
		}
		if k := kindOf(raw); k != f.kind {
			return bad("content field %s is a %s, not a %s", f.name, k, f.kind)
		}
		if f.kind == "number" {
			var x float64
			if json.Unmarshal(raw, &x) != nil || x < 0 || x != float64(int64(x)) {
				return bad("content field %s is not a non-negative integer: %s", f.name, truncate(raw))
			}
		}
	}
	if changed {
		content = encode(c)
	}
	if t := contentTypes[msgType]; t != nil {
		if err := json.Unmarshal(content, reflect.New(t).Interface()); err != nil {
			return bad("content does not match the spec: %v", err)
		}
	}
	if changed {
		return msgType, content, nil
	}
	return msgType, nil, nil
}

// replyType is the reply of a request type ("execute_request" →
// "execute_reply"), or "" for a message that is not a request.
func replyType(msgType string) string {
	if base, ok := strings.CutSuffix(msgType, "_request"); ok {
		return base + "_reply"
	}
	return ""
}

// digestHistory remembers the signatures of the messages accepted, so
// that a replayed message (the same signed frames sent again, by anyone
// who saw them) is refused, as ipykernel's Session does. It holds at most
// max signatures and forgets the oldest tenth when full (ipykernel's
// digest_history_size is 2^16 and it culls 10%).
type digestHistory struct {
	mu    sync.Mutex
	max   int
	seen  map[string]bool
	order []string
}

// maxDigests is ipykernel's default digest history size.
const maxDigests = 1 << 16

// add records sig and reports whether it was new.
func (d *digestHistory) add(sig []byte) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.seen == nil {
		d.seen = map[string]bool{}
		if d.max == 0 {
			d.max = maxDigests
		}
	}
	key := string(sig)
	if d.seen[key] {
		return false
	}
	if len(d.order) >= d.max {
		cull := max(1, d.max/10)
		for _, k := range d.order[:cull] {
			delete(d.seen, k)
		}
		d.order = append(d.order[:0], d.order[cull:]...)
	}
	d.seen[key] = true
	d.order = append(d.order, key)
	return true
}
