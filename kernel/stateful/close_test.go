package stateful

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"
)

// These tests close the session while a cell runs, in every place a cell
// can be, and in a race with the host's own end (issue 37: Close and the
// running cell both ended the host, and the cell dereferenced the nil host
// Close left). Run them under -race (make test does).

// started is what each long cell prints once it runs.
const started = "corriendo\n"

// startCell runs code as cell n of ts in the background and returns the
// channel its result arrives on and its output.
func startCell(ts *testSession, code string) (<-chan Result, *recorder) {
	ts.n++
	rec := &recorder{}
	done := make(chan Result, 1)
	go func(n int) {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		defer cancel()
		done <- ts.s.Execute(ctx, code, n, rec)
	}(ts.n)
	return done, rec
}

// hostPid returns the pid of the session's host, or 0 when none runs.
func hostPid(s *Session) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.h == nil {
		return 0
	}
	return s.h.p.Pid()
}

// alive reports whether process pid exists and is not a zombie.
func alive(pid int) bool {
	st, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return syscall.Kill(pid, 0) == nil
	}
	_, rest, _ := strings.Cut(string(st), ") ")
	return !strings.HasPrefix(rest, "Z")
}

// pidsOf returns the pids of processes whose command line is exactly argv.
func pidsOf(argv ...string) []int {
	want := strings.Join(argv, "\x00") + "\x00"
	entries, _ := os.ReadDir("/proc")
	var pids []int
	for _, e := range entries {
		var pid int
		if _, err := fmt.Sscan(e.Name(), &pid); err != nil {
			continue
		}
		if cmd, err := os.ReadFile("/proc/" + e.Name() + "/cmdline"); err == nil && string(cmd) == want && alive(pid) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// closeWhileRunning starts code, waits until it printed started, closes the
// session and checks the cell's result, that Close returned nil and that
// no process of the cell is left.
func closeWhileRunning(t *testing.T, code string, children []string) {
	ts := newTestSession(t)
	ts.ok("%%\nfmt.Println(\"listo\")") // the host runs
	done, rec := startCell(ts, code)
	waitFor(t, func() bool {
		rec.mu.Lock()
		defer rec.mu.Unlock()
		return strings.Contains(rec.stdout.String(), started)
	})
	pid := hostPid(ts.s)
	if pid == 0 {
		t.Fatal("no host runs the cell")
	}
	t0 := time.Now()
	if err := ts.s.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	closed := time.Since(t0)
	var res Result
	select {
	case res = <-done:
	default:
		t.Fatalf("Close returned (after %v) before the running cell's Execute", closed)
	}
	if res.Status != "error" || res.EName != "shutdown" || !strings.Contains(res.EValue, "shutting down") {
		t.Errorf("the running cell's result after Close: %s %s: %q; want an error saying the kernel is shutting down", res.Status, res.EName, res.EValue)
	}
	if closed > 5*time.Second {
		t.Errorf("Close took %v with a cell running; want it to stop the cell at once", closed)
	}
	if alive(pid) {
		t.Errorf("host %d still alive after Close", pid)
	}
	if left := pidsOf(children...); len(children) > 0 && len(left) > 0 {
		t.Errorf("the cell's child %q still alive after Close: %v", children, left)
	}
	if _, err := os.Stat(ts.s.Dir()); !os.IsNotExist(err) {
		t.Errorf("session directory %s after Close: %v; want it removed", ts.s.Dir(), err)
	}
	if res := ts.s.Execute(context.Background(), "%%\nfmt.Println(1)", ts.n+1, &recorder{}); res.EName != "shutdown" {
		t.Errorf("Execute after Close: %s %s %q; want a shutdown error", res.Status, res.EName, res.EValue)
	}
}

// TestSessionCloseWhileRunning closes the session while a cell loops, while
// it waits for a shell command's child and while dl multiplies matrices,
// three times each.
func TestSessionCloseWhileRunning(t *testing.T) {
	secs := fmt.Sprint(1000 + rand.IntN(9000)) // a sleep no other test starts
	cells := []struct {
		name, code string
		children   []string
	}{
		{"loop", "%%\nfmt.Print(\"" + strings.TrimSpace(started) + "\\n\")\nn := 0\nfor { n++ }", nil},
		{"shell-child", "!echo " + strings.TrimSpace(started) + "; sleep " + secs, []string{"sleep", secs}},
		{"dl-matmul", "import \"github.com/dlbd/dlbd/dl\"\n%%\na := dl.Ones(512, 512)\nfmt.Print(\"" + strings.TrimSpace(started) + "\\n\")\nfor { a = a.MatMul(a).MulScalar(1.0 / 512) }", nil},
	}
	for _, c := range cells {
		for i := range 3 {
			t.Run(fmt.Sprintf("%s/%d", c.name, i), func(t *testing.T) { closeWhileRunning(t, c.code, c.children) })
		}
	}
}

// TestSessionCloseWhileBuilding closes a new session while its first cell
// waits for the session's preparation or compiles.
func TestSessionCloseWhileBuilding(t *testing.T) {
	for i, wait := range []time.Duration{0, 300 * time.Millisecond, time.Second} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			ts := newTestSession(t)
			done, _ := startCell(ts, "import \"github.com/dlbd/dlbd/dl\"\n%%\nfmt.Println(dl.Ones(2))")
			time.Sleep(wait)
			if err := ts.s.Close(); err != nil {
				t.Errorf("Close: %v", err)
			}
			res := <-done
			// The cell may have finished before Close came; otherwise it says why it stopped.
			if res.Status != "ok" && res.EName != "shutdown" {
				t.Errorf("cell closed while preparing or building: %s %s %q; want ok or a shutdown error", res.Status, res.EName, res.EValue)
			}
		})
	}
}

// TestSessionCloseRacesHostCrash ends the host from inside a cell (a
// crash) at about the time Close ends it: whichever comes first, the cell
// gets one result and nothing panics.
func TestSessionCloseRacesHostCrash(t *testing.T) {
	for i := range 6 {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			ts := newTestSession(t)
			ts.ok("%%\nfmt.Println(\"listo\")")
			delay := time.Duration(i) * 20 * time.Millisecond
			done, rec := startCell(ts, fmt.Sprintf("import \"os\"\n%%%%\nfmt.Print(\"%s\\n\")\ntime.Sleep(%d)\nos.Exit(3)", strings.TrimSpace(started), 50*time.Millisecond))
			waitFor(t, func() bool {
				rec.mu.Lock()
				defer rec.mu.Unlock()
				return strings.Contains(rec.stdout.String(), started)
			})
			time.Sleep(delay)
			if err := ts.s.Close(); err != nil {
				t.Errorf("Close: %v", err)
			}
			res := <-done
			if res.Status != "error" || (res.EName != "shutdown" && res.EName != "kernel") {
				t.Errorf("cell whose host crashed as Close came: %s %s %q; want a shutdown or kernel error", res.Status, res.EName, res.EValue)
			}
		})
	}
}

// TestSessionCloseAfterInterrupt closes the session while an interrupt
// waits for a cell that ignores it: Close does not wait for the grace.
func TestSessionCloseAfterInterrupt(t *testing.T) {
	ts := newTestSession(t)
	ts.ok("%%\nfmt.Println(\"listo\")")
	done, rec := startCell(ts, "import \"os/signal\"\nimport \"os\"\n%%\nsignal.Ignore(os.Interrupt)\nfmt.Print(\""+strings.TrimSpace(started)+"\\n\")\nfor {}")
	waitFor(t, func() bool {
		rec.mu.Lock()
		defer rec.mu.Unlock()
		return strings.Contains(rec.stdout.String(), started)
	})
	ts.s.Interrupt()
	t0 := time.Now()
	if err := ts.s.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	if d := time.Since(t0); d > 1500*time.Millisecond {
		t.Errorf("Close after an interrupt took %v; want it not to wait for the interrupt's grace (2 s here)", d)
	}
	if res := <-done; res.EName != "shutdown" {
		t.Errorf("interrupted cell closed: %s %s %q; want a shutdown error", res.Status, res.EName, res.EValue)
	}
}
