package wire

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// pythonFrames were produced by jupyter_client 8.10's Session.serialize with
// key "5ecret-key" and identity "client-7": an independent implementation of
// the same spec, so the signature below is a known answer.
var pythonFrames = [][]byte{
	[]byte("client-7"),
	[]byte("<IDS|MSG>"),
	[]byte("baeaa61b1128be704e9b440d001e0cfe8fbeba2708e5b3aa8780ed1bf0a33fee"),
	[]byte(`{"msg_id": "id-1", "session": "sess-1", "username": "dlbd", "date": "2024-01-01T00:00:00.000000Z", "msg_type": "execute_request", "version": "5.3"}`),
	[]byte(`{}`),
	[]byte(`{}`),
	[]byte(`{"code": "fmt.Println(1)", "silent": false}`),
}

func mustSigner(t *testing.T, key string) *Signer {
	t.Helper()
	s, err := NewSigner(SchemeHMACSHA256, []byte(key))
	if err != nil {
		t.Fatalf("NewSigner: %v", err)
	}
	return s
}

func TestDecodeJupyterClientFrames(t *testing.T) {
	p, err := Decode(mustSigner(t, "5ecret-key"), pythonFrames)
	if err != nil {
		t.Fatalf("Decode(jupyter_client frames) = %v; want nil", err)
	}
	if len(p.Identities) != 1 || string(p.Identities[0]) != "client-7" {
		t.Errorf("Identities = %q; want [client-7]", p.Identities)
	}
	if string(p.Content) != string(pythonFrames[6]) {
		t.Errorf("Content = %s; want %s", p.Content, pythonFrames[6])
	}
	if p.Buffers != nil {
		t.Errorf("Buffers = %q; want none", p.Buffers)
	}
}

func TestEncodeMatchesJupyterClient(t *testing.T) {
	p := Parts{
		Identities:   [][]byte{[]byte("client-7")},
		Header:       pythonFrames[3],
		ParentHeader: pythonFrames[4],
		Metadata:     pythonFrames[5],
		Content:      pythonFrames[6],
	}
	got := Encode(mustSigner(t, "5ecret-key"), p)
	if len(got) != len(pythonFrames) {
		t.Fatalf("Encode gave %d frames; want %d", len(got), len(pythonFrames))
	}
	for i := range got {
		if !bytes.Equal(got[i], pythonFrames[i]) {
			t.Errorf("frame %d = %q; want %q", i, got[i], pythonFrames[i])
		}
	}
}

func TestDecodeRejectsTampering(t *testing.T) {
	tests := []struct {
		name   string
		key    string
		frames func() [][]byte
	}{
		{name: "wrong-key", key: "another-key", frames: func() [][]byte { return pythonFrames }},
		{name: "content-changed", key: "5ecret-key", frames: func() [][]byte {
			f := append([][]byte(nil), pythonFrames...)
			f[6] = []byte(`{"code": "os.Exit(0)", "silent": false}`)
			return f
		}},
		{name: "header-changed", key: "5ecret-key", frames: func() [][]byte {
			f := append([][]byte(nil), pythonFrames...)
			f[3] = bytes.Replace(f[3], []byte("id-1"), []byte("id-2"), 1)
			return f
		}},
		{name: "not-hex", key: "5ecret-key", frames: func() [][]byte {
			f := append([][]byte(nil), pythonFrames...)
			f[2] = []byte("zz-not-hex")
			return f
		}},
		{name: "empty-signature", key: "5ecret-key", frames: func() [][]byte {
			f := append([][]byte(nil), pythonFrames...)
			f[2] = nil
			return f
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Decode(mustSigner(t, tt.key), tt.frames())
			if !errors.Is(err, ErrBadSignature) {
				t.Fatalf("Decode = %v; want ErrBadSignature", err)
			}
			if !strings.HasPrefix(err.Error(), "wire: ") {
				t.Errorf("error %q lacks the package prefix", err)
			}
			if len(p.Header) == 0 {
				t.Errorf("Decode returned no header with the signature error; want the parsed parts")
			}
		})
	}
}

func TestDecodeMalformed(t *testing.T) {
	s := mustSigner(t, "k")
	tests := []struct {
		name    string
		frames  [][]byte
		want    error
		wantMsg string
	}{
		{name: "no-delimiter", frames: [][]byte{[]byte("a"), []byte("{}")}, want: ErrNoDelimiter, wantMsg: "decode 2 frames"},
		{name: "empty", frames: nil, want: ErrNoDelimiter, wantMsg: "decode 0 frames"},
		{name: "four-after-delimiter", frames: [][]byte{[]byte(Delimiter), nil, []byte("{}"), []byte("{}"), []byte("{}")}, want: ErrTooFewFrames, wantMsg: "got 4"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Decode(s, tt.frames)
			if !errors.Is(err, tt.want) || !strings.Contains(err.Error(), tt.wantMsg) {
				t.Errorf("Decode = %v; want %v mentioning %q", err, tt.want, tt.wantMsg)
			}
		})
	}
}

func TestRoundTripWithBuffersAndIdentities(t *testing.T) {
	s := mustSigner(t, "round-trip")
	in := Parts{
		Identities: [][]byte{[]byte("id-a"), []byte("id-b")},
		Header:     []byte(`{"msg_id":"m"}`),
		Content:    []byte(`{"x":1}`),
		Buffers:    [][]byte{{0, 1, 2}, {}},
	}
	frames := Encode(s, in)
	out, err := Decode(s, frames)
	if err != nil {
		t.Fatalf("Decode(Encode(p)) = %v", err)
	}
	checks := []struct{ name, got, want string }{
		{"identities", fmt.Sprint(out.Identities), fmt.Sprint(in.Identities)},
		{"header", string(out.Header), string(in.Header)},
		{"parent", string(out.ParentHeader), "{}"},
		{"metadata", string(out.Metadata), "{}"},
		{"content", string(out.Content), string(in.Content)},
		{"buffers", fmt.Sprint(out.Buffers), fmt.Sprint(in.Buffers)},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s = %s; want %s", c.name, c.got, c.want)
		}
	}
}

func TestEmptyKeyDoesNotSign(t *testing.T) {
	s, err := NewSigner("", nil)
	if err != nil {
		t.Fatalf("NewSigner(\"\", nil) = %v; want nil (an empty key needs no scheme)", err)
	}
	frames := Encode(s, Parts{Content: []byte(`{}`)})
	if len(frames[1]) != 0 {
		t.Errorf("signature with empty key = %q; want empty", frames[1])
	}
	if _, err := Decode(s, pythonFrames); err != nil {
		t.Errorf("Decode with empty key = %v; want nil (no verification)", err)
	}
	var zero Signer
	if zero.Enabled() || (*Signer)(nil).Enabled() {
		t.Errorf("zero or nil Signer reports Enabled")
	}
}

func TestNewSignerRejectsOtherSchemes(t *testing.T) {
	_, err := NewSigner("hmac-md5", []byte("k"))
	if err == nil || !strings.Contains(err.Error(), `"hmac-md5"`) || !strings.Contains(err.Error(), SchemeHMACSHA256) {
		t.Errorf("NewSigner(hmac-md5) = %v; want an error naming the scheme and the supported one", err)
	}
}
