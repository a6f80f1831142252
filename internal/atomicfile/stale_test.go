package atomicfile

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"testing"
	"time"
)

// deadPid returns the pid of a process that has exited.
func deadPid(t *testing.T) int {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	if err := cmd.Run(); err != nil {
		t.Fatalf("run a child: %v", err)
	}
	return cmd.Process.Pid
}

// TestWriteRemovesStaleTemp leaves the temporary files a killed writer would leave
// and checks which the next Write removes: a dead writer's and an old unnamed one go,
// a live writer's and a recent unnamed one stay.
func TestWriteRemovesStaleTemp(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("processAlive cannot ask on windows")
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "model.safetensors")
	write := func(name string, age time.Duration) string {
		f := filepath.Join(dir, name)
		if err := os.WriteFile(f, []byte("partial"), 0o600); err != nil {
			t.Fatal(err)
		}
		at := time.Now().Add(-age)
		if err := os.Chtimes(f, at, at); err != nil {
			t.Fatal(err)
		}
		return f
	}
	dead := write(".model.safetensors.tmp-"+strconv.Itoa(deadPid(t))+"-123", 0)
	live := write(".model.safetensors.tmp-"+strconv.Itoa(os.Getppid())+"-456", 0)
	self := write(".model.safetensors.tmp-"+strconv.Itoa(os.Getpid())+"-789", 0) // a concurrent write of this process
	oldLegacy := write(".model.safetensors.tmp-3141592653", 2*time.Hour)
	newLegacy := write(".model.safetensors.tmp-2718281828", time.Minute)
	other := write(".other.safetensors.tmp-"+strconv.Itoa(deadPid(t))+"-1", 0) // another destination's

	if got := Stale(p); !slices.Equal(got, []string{dead, oldLegacy}) && !slices.Equal(got, []string{oldLegacy, dead}) {
		t.Errorf("Stale = %v; want %v and %v", got, dead, oldLegacy)
	}
	if err := WriteFile(p, []byte("checkpoint"), 0o644); err != nil {
		t.Fatal(err)
	}
	for f, wantKept := range map[string]bool{dead: false, oldLegacy: false, live: true, self: true, newLegacy: true, other: true} {
		_, err := os.Stat(f)
		if kept := err == nil; kept != wantKept {
			t.Errorf("%s kept = %v after WriteFile; want %v", filepath.Base(f), kept, wantKept)
		}
	}
}

// TestWritePanicRemovesTemp: a panic in fill leaves no temporary file.
func TestWritePanicRemovesTemp(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f")
	func() {
		defer func() { _ = recover() }()
		_ = Write(p, 0o644, func(w io.Writer) error {
			_, _ = w.Write([]byte("half"))
			panic("fill failed")
		})
	}()
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("directory holds %d entries after a panic in fill; want none", len(ents))
	}
}

// TestKilledWriter kills a child process with SIGKILL while it writes (the
// issue's kill -9 during a save): its temporary file is left, the destination keeps
// its old content, and the next write removes the child's file.
func TestKilledWriter(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no SIGKILL semantics to test on windows")
	}
	if dest := os.Getenv("ATOMICFILE_TEST_CHILD"); dest != "" {
		_ = Write(dest, 0o644, func(w io.Writer) error {
			_, _ = w.Write(make([]byte, 1<<20))
			os.Stdout.WriteString("writing\n")
			select {} // killed here, mid-write
		})
		return
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "ckpt")
	if err := WriteFile(p, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestKilledWriter$")
	cmd.Env = append(os.Environ(), "ATOMICFILE_TEST_CHILD="+p)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if line, err := bufio.NewReader(out).ReadString('\n'); err != nil || line != "writing\n" {
		_ = cmd.Process.Kill()
		t.Fatalf("child said %q, %v; want writing", line, err)
	}
	_ = cmd.Process.Kill() // SIGKILL: no deferred cleanup runs
	_ = cmd.Wait()
	if left := Stale(p); len(left) != 1 {
		t.Fatalf("after the kill, Stale = %v; want the child's temporary file", left)
	}
	if got, _ := os.ReadFile(p); string(got) != "old" {
		t.Errorf("destination = %q after the killed write; want the old content", got)
	}
	if err := WriteFile(p, []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	assertNoTemp(t, dir)
}
