package cellpos_test

import (
	"reflect"
	"testing"

	"github.com/dlbd/dlbd/kernel/internal/cellpos"
)

func TestPosString(t *testing.T) {
	tests := []struct {
		pos  cellpos.Pos
		want string
	}{
		{pos: cellpos.Pos{Cell: 3, Line: 2, Col: 5}, want: "Cell [3] Line 2:5"},
		{pos: cellpos.Pos{Cell: 3, Line: 2}, want: "Cell [3] Line 2"},
		{pos: cellpos.Pos{Cell: 3}, want: "Cell [3]"},
		{pos: cellpos.Pos{Cell: 3, Col: 5}, want: "Cell [3]"}, // a column without a line says nothing
	}
	for _, tt := range tests {
		if got := tt.pos.String(); got != tt.want {
			t.Errorf("%#v.String() = %q; want %q", tt.pos, got, tt.want)
		}
	}
}

func TestParse(t *testing.T) {
	tests := []struct {
		name, in string
		want     cellpos.Pos
		rest     string
		ok       bool
	}{
		{name: "compiler", in: "dlbd-cell-3:2:5: undefined: x", want: cellpos.Pos{Cell: 3, Line: 2, Col: 5}, rest: ": undefined: x", ok: true},
		{name: "no-column", in: "dlbd-cell-3:2: undefined: x", want: cellpos.Pos{Cell: 3, Line: 2}, rest: ": undefined: x", ok: true},
		{name: "stack", in: "dlbd-cell-12:40 +0x1d", want: cellpos.Pos{Cell: 12, Line: 40}, rest: " +0x1d", ok: true},
		{name: "alone", in: "dlbd-cell-1:1", want: cellpos.Pos{Cell: 1, Line: 1}, ok: true},
		{name: "colon-no-column", in: "dlbd-cell-1:7:", want: cellpos.Pos{Cell: 1, Line: 7}, rest: ":", ok: true},
		{name: "empty", in: ""},
		{name: "other-file", in: "/repo/dl/matmul.go:40 +0x99"},
		{name: "generated", in: "dlbd-generated:1:3: oops"},
		{name: "no-line", in: "dlbd-cell-3: x"},
		{name: "no-number", in: "dlbd-cell-:2:5"},
		{name: "letters", in: "dlbd-cell-x:2"},
		{name: "no-colon", in: "dlbd-cell-3"},
		{name: "negative", in: "dlbd-cell--3:2"},
		{name: "overflow", in: "dlbd-cell-99999999999999999999:1"},
		{name: "indented", in: "\tdlbd-cell-3:2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, rest, ok := cellpos.Parse(tt.in)
			if !tt.ok {
				tt.rest = tt.in
			}
			if got != tt.want || rest != tt.rest || ok != tt.ok {
				t.Errorf("Parse(%q) = %+v, %q, %v; want %+v, %q, %v", tt.in, got, rest, ok, tt.want, tt.rest, tt.ok)
			}
		})
	}
}

func TestFileParsesBack(t *testing.T) {
	for _, n := range []int{0, 1, 42} {
		if p, _, ok := cellpos.Parse(cellpos.File(n) + ":7"); !ok || p != (cellpos.Pos{Cell: n, Line: 7}) {
			t.Errorf("Parse(File(%d)+\":7\") = %+v, %v; want cell %d line 7", n, p, ok, n)
		}
	}
}

// stack is what runtime/debug.Stack returned in the host for a panic in
// f of cell 2, called from the body of cell 3.
const stack = "goroutine 7 [running]:\nruntime/debug.Stack()\n\t/usr/local/go/src/runtime/debug/stack.go:26 +0x5e\n" +
	"github.com/dlbd/dlbd/kernel/stateful/host.run.func1.1()\n\t/repo/kernel/stateful/host/host.go:150 +0x45\n" +
	"panic({0x7f1e2c0?, 0xc000010250?})\n\t/usr/local/go/src/runtime/panic.go:785 +0x132\n" +
	"dlbd.cells/cell2.f(0x1, {0xc00001a0a8, 0x3})\n\tdlbd-cell-2:3 +0x1d\n" +
	"dlbd.cells/cell3.DlbdRun()\n\tdlbd-cell-3:4 +0x25\n" +
	"plugin/unnamed-1234.Run(...)\n\t/tmp/dlbd-session-1/plugins/cell3/cell.go:8\n"

func TestParseStack(t *testing.T) {
	tests := []struct {
		name, trace string
		want        []cellpos.Frame
		names       []string
	}{
		{name: "host", trace: stack, want: []cellpos.Frame{
			{Func: "dlbd.cells/cell2.f(0x1, {0xc00001a0a8, 0x3})", Pos: cellpos.Pos{Cell: 2, Line: 3}},
			{Func: "dlbd.cells/cell3.DlbdRun()", Pos: cellpos.Pos{Cell: 3, Line: 4}},
		}, names: []string{"cell2.f(...)", "cell3 body"}},
		{name: "no-cell-frames", trace: "goroutine 1 [running]:\nmain.main()\n\t/tmp/x.go:3 +0x1d\n"},
		{name: "not-indented", trace: "main.main()\ndlbd-cell-2:3 +0x1d\n"},
		{name: "first-line", trace: "\tdlbd-cell-2:3 +0x1d\n"},
		{name: "empty", trace: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := cellpos.ParseStack(tt.trace)
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("ParseStack(%q) = %+v; want %+v", tt.trace, got, tt.want)
			}
			for i, f := range got {
				if name := f.Name(); name != tt.names[i] {
					t.Errorf("%+v.Name() = %q; want %q", f, name, tt.names[i])
				}
			}
		})
	}
}
