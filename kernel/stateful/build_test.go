package stateful

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestBuildFailed(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want []string
	}{
		{name: "cell-lines", err: &buildError{out: "# dlbd.cells/cell3\ndlbd-cell-3:2:5: undefined: x\ndlbd-cell-3:4: too many errors"},
			want: []string{"Cell [3] Line 2:5: undefined: x", "Cell [3] Line 4: too many errors"}},
		{name: "generated", err: &buildError{out: "# dlbd.cells/cell3\ndlbd-generated:1:1: oops"},
			want: []string{"the kernel generated code Go does not accept (a bug of the dlbd kernel; please report it with the cell): dlbd-generated:1:1: oops"}},
		{name: "other-lines", err: &buildError{out: "go: cannot find module\n\n"}, want: []string{"go: cannot find module"}},
		{name: "position-without-message", err: &buildError{out: "dlbd-cell-3:2"}, want: []string{"dlbd-cell-3:2"}},
		{name: "empty", err: &buildError{out: "# dlbd.cells/cell3"}, want: []string{"Cell [3]: the build failed without a message"}},
		{name: "not-a-build", err: errors.New("signal: killed"), want: []string{"signal: killed"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := buildFailed(3, tt.err)
			if got.Status != "error" || got.EName != "compile" || got.EValue != tt.want[0] || !reflect.DeepEqual(got.Traceback, tt.want) {
				t.Errorf("buildFailed(3, %q) = %+v; want the lines %q", tt.err, got, tt.want)
			}
		})
	}
}

// TestGoRunCancelKillsItsCompilers cancels a long go build (every package
// again, in an empty cache): the go command's compilers and linkers end
// with it. Killing the go command alone left them running after a shutdown.
func TestGoRunCancelKillsItsCompilers(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	work := t.TempDir() // the go command's $WORK is inside: its tools' command lines name it
	s := &Session{o: Options{Env: append(os.Environ(), "GOCACHE="+t.TempDir(), "TMPDIR="+work, "GOFLAGS=")}}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(1500*time.Millisecond, cancel)
	if _, err := s.goRun(ctx, repo, s.goEnv(), "build", "-a", "-o", filepath.Join(t.TempDir(), "host"), hostPackage); err == nil {
		t.Fatal("the build ended before it was cancelled; want a build that takes longer")
	}
	time.Sleep(200 * time.Millisecond)
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		cmd, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err == nil && strings.Contains(string(cmd), work) {
			t.Errorf("process %s (%.120s…) of the cancelled build is still running", e.Name(), strings.ReplaceAll(string(cmd), "\x00", " "))
		}
	}
}
