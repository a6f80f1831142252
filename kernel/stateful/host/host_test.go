package host

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// cellStack is a stack trace of a panic in f of cell 2, called from the
// body of cell 3, as runtime/debug.Stack writes it.
const cellStack = "goroutine 7 [running]:\nruntime/debug.Stack()\n\t/usr/local/go/src/runtime/debug/stack.go:26 +0x5e\n" +
	"panic({0x7f1e2c0?, 0xc000010250?})\n\t/usr/local/go/src/runtime/panic.go:785 +0x132\n" +
	"dlbd.cells/cell2.f(0x1, {0xc00001a0a8, 0x3})\n\tdlbd-cell-2:3 +0x1d\n" +
	"dlbd.cells/cell3.DlbdRun()\n\tdlbd-cell-3:4 +0x25\n"

func TestPanicked(t *testing.T) {
	tests := []struct {
		name  string
		r     any
		stack string
		want  Reply
	}{
		{name: "cell-frames", r: "boom", stack: cellStack, want: Reply{ID: 1, Status: "error", Phase: "run", EName: "panic",
			EValue: "boom (Cell [2] Line 3)", Traceback: []string{"panic: boom", "\tcell2.f(...) [[ Cell [2] Line 3 ]]", "\tcell3 body [[ Cell [3] Line 4 ]]"}}},
		{name: "no-cell-frames", r: fmt.Errorf("bad\nvalue"), stack: "goroutine 1 [running]:\nmain.main()\n\t/tmp/x.go:3\n",
			want: Reply{ID: 1, Status: "error", Phase: "run", EName: "panic", EValue: "bad\nvalue", Traceback: []string{"panic: bad", "value"}}},
		{name: "interrupt", r: fmt.Errorf("dl: %w", context.Canceled), stack: cellStack, want: Reply{ID: 1, Status: "interrupted", Phase: "run", EName: "interrupt",
			EValue: "dl: context canceled (Cell [2] Line 3)", Traceback: []string{"interrupted: dl: context canceled", "\tcell2.f(...) [[ Cell [2] Line 3 ]]", "\tcell3 body [[ Cell [3] Line 4 ]]"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := panicked(Request{ID: 1, Cell: 3}, "run", tt.r, []byte(tt.stack)); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("panicked(%v) = %+v; want %+v", tt.r, got, tt.want)
			}
		})
	}
}

func TestParseCrash(t *testing.T) {
	tests := []struct {
		name, stderr string
		crash        string
		frames       []string
	}{
		{name: "goroutine-panic", stderr: "hola\npanic: boom\n\ngoroutine 9 [running]:\n" + cellStack[len("goroutine 7 [running]:\n"):] + "exit status 2\n",
			crash: "panic: boom", frames: []string{"Cell [2] Line 3", "Cell [3] Line 4"}},
		{name: "fatal-error", stderr: "fatal error: out of memory\n\ngoroutine 1 [running]:\nmain.main()\n\t/tmp/x.go:3\n", crash: "fatal error: out of memory"},
		{name: "none", stderr: "exit status 1\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			crash, frames := ParseCrash(tt.stderr)
			if crash != tt.crash || !reflect.DeepEqual(frames, tt.frames) {
				t.Errorf("ParseCrash(%q) = %q, %q; want %q, %q", tt.stderr, crash, frames, tt.crash, tt.frames)
			}
		})
	}
}

// buildPlugin builds a plugin whose Run is body, in a module that uses this
// checkout, and returns its path.
func buildPlugin(t *testing.T, body string) string {
	t.Helper()
	dir := t.TempDir()
	repo, err := filepath.Abs("../../..")
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"go.mod":  "module plugintest\n\ngo 1.26.0\n",
		"go.work": fmt.Sprintf("go 1.26.0\n\nuse (\n\t.\n\t%s\n)\n", repo),
		"main.go": "package main\n\nimport \"github.com/dlbd/dlbd/kernel\"\n\nfunc Run() {\n" + body + "\n}\n\nvar _ = kernel.ShowResult\n\nfunc main() {}\n",
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	so := filepath.Join(dir, "cell.so")
	args := []string{"build", "-buildmode=plugin", "-o", so}
	if raceEnabled { // a plugin must be built as the program that opens it
		args = append(args, "-race")
	}
	cmd := exec.Command("go", append(args, ".")...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=", "CGO_ENABLED=1", "GOWORK=")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build -buildmode=plugin: %v\n%s", err, out)
	}
	return so
}

func TestServeReplyCarriesResult(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a plugin")
	}
	so := buildPlugin(t, "kernel.ShowResult(42)")
	var requests strings.Builder
	for id, plugin := range []string{so, filepath.Join(t.TempDir(), "missing.so")} {
		line, _ := json.Marshal(Request{ID: id + 1, Plugin: plugin, Cell: id + 1})
		requests.Write(append(line, '\n'))
	}
	var replies bytes.Buffer
	if err := Serve(Options{Requests: strings.NewReader(requests.String()), Replies: &replies, Marker: "\x1etest-end:"}); err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(&replies)
	var first, second Reply
	if err := errors.Join(dec.Decode(&first), dec.Decode(&second)); err != nil {
		t.Fatalf("decode replies %q: %v", replies.String(), err)
	}
	if want := map[string]any{"text/plain": "42"}; first.Status != StatusOK || !reflect.DeepEqual(first.Result, want) {
		t.Errorf("reply of a cell that shows 42 = %+v; want status ok and result %v", first, want)
	}
	if second.Status != StatusError || second.Result != nil {
		t.Errorf("reply of a cell that did not load = %+v; want an error and no result", second)
	}
}
