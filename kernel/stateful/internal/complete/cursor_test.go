package complete

import "testing"

func TestByteOffset(t *testing.T) {
	tests := []struct {
		s      string
		cp     int
		off    int
		inside bool
	}{
		{s: "año", cp: 2, off: 3, inside: true},
		{s: "año", cp: 3, off: 4, inside: true},
		{s: "año", cp: 4},
		{s: "¿qué?", cp: 5, off: 7, inside: true},
		{s: "¿qué?", cp: 1, off: 2, inside: true},
		{s: "🙂x", cp: 1, off: 4, inside: true},
		{s: "🙂x", cp: 2, off: 5, inside: true},
		{s: "x", cp: -1},
		{s: "", cp: 0, off: 0, inside: true},
		{s: "\xffa", cp: 1, off: 1, inside: true}, // a byte that is not UTF-8 counts as one
	}
	for _, tt := range tests {
		off, ok := ByteOffset(tt.s, tt.cp)
		if ok != tt.inside || ok && off != tt.off {
			t.Errorf("ByteOffset(%q, %d) = %d, %v; want %d, %v", tt.s, tt.cp, off, ok, tt.off, tt.inside)
		}
		if ok {
			if back := CodePoints(tt.s, off); back != tt.cp {
				t.Errorf("CodePoints(%q, %d) = %d; want %d", tt.s, off, back, tt.cp)
			}
		}
	}
}

func TestHelp(t *testing.T) {
	tests := []struct {
		code   string
		name   string
		detail int
		ok     bool
	}{
		{code: "?dl.MatMulWith", name: "dl.MatMulWith", ok: true},
		{code: "modelo?", name: "modelo", ok: true},
		{code: "modelo.Forward??\n", name: "modelo.Forward", detail: 1, ok: true},
		{code: "??año", name: "año", detail: 1, ok: true},
		{code: "?"},
		{code: "x := 1"},
		{code: "? x"},
		{code: "?1x"},
		{code: "?a..b"},
		{code: "fmt.Println(x)?"},
	}
	for _, tt := range tests {
		name, detail, ok := Help(tt.code)
		if ok != tt.ok || ok && (name != tt.name || detail != tt.detail) {
			t.Errorf("Help(%q) = %q, %d, %v; want %q, %d, %v", tt.code, name, detail, ok, tt.name, tt.detail, tt.ok)
		}
	}
}
