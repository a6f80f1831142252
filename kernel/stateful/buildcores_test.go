package stateful

import (
	"os"
	"os/exec"
	"runtime"
	"testing"
	"time"
)

// TestBuildCoresNext steps the decision through readings on a 2-core
// machine: other programs' core counts once they hold 0.8 of one; short
// intervals keep the estimate and its baseline; a new host or a failed
// reading starts again.
func TestBuildCoresNext(t *testing.T) {
	s, ms := time.Second, time.Millisecond
	t0 := time.Unix(1000, 0)
	b := &buildCores{cores: 2, last: loadReading{at: t0, ok: true}}
	steps := []struct {
		what          string
		busy, ours    time.Duration
		at            time.Duration
		host          int
		ok            bool
		want          int
		others        float64
		baselineMoves bool
	}{
		{"other programs hold 1 core of 2", 1900 * ms, 900 * ms, s, 0, true, 1, 1, true},
		{"a short interval keeps it", 1900 * ms, 900 * ms, s + 50*ms, 0, true, 1, 1, false},
		{"1.1 cores", 3900 * ms, 1800 * ms, 2 * s, 0, true, 1, 1.1, true},
		{"a new host: start again, keep the estimate", 9 * s, 1800 * ms, 3 * s, 42, true, 1, 1.1, true},
		{"only our work since", 11 * s, 3800 * ms, 4 * s, 42, true, 0, 0, true},
		{"0.7 of a core is not taken", 11700 * ms, 3800 * ms, 5 * s, 42, true, 0, 0.7, true},
		{"0.85 is", 12550 * ms, 3800 * ms, 6 * s, 42, true, 1, 0.85, true},
		{"no reading: no limit", 0, 0, 7 * s, 42, false, 0, 0, true},
		{"after a failed reading, start again", 20 * s, 5 * s, 8 * s, 42, true, 0, 0, true},
	}
	for _, st := range steps {
		r := loadReading{busy: st.busy, ours: st.ours, at: t0.Add(st.at), host: st.host, ok: st.ok}
		before := b.last
		got := b.next(r)
		if got != st.want || abs(b.others-st.others) > 1e-9 {
			t.Errorf("%s: next = %d with %.3f cores of others; want %d, %.3f", st.what, got, b.others, st.want, st.others)
		}
		if moved := b.last != before; moved != st.baselineMoves {
			t.Errorf("%s: the baseline moved: %v; want %v", st.what, moved, st.baselineMoves)
		}
	}
}

func abs(x float64) float64 { return max(x, -x) }

// TestBuildCoresOff: DLBD_DYNAMIC_THREADS=0 or a GOMAXPROCS of the
// kernel's environment leave the builds alone.
func TestBuildCoresOff(t *testing.T) {
	for _, env := range [][]string{{"DLBD_DYNAMIC_THREADS=0"}, {"GOMAXPROCS=2"}} {
		if b := newBuildCores(env); b != nil || b.procs(0) != 0 {
			t.Errorf("newBuildCores(%q) limits the builds", env)
		}
	}
	if b := newBuildCores([]string{"DLBD_DYNAMIC_THREADS=1"}); b == nil {
		t.Error("newBuildCores with dynamic threads on returned nil")
	}
}

// TestBuildCoresBesideABusyProcess: a program that loops beside the
// kernel takes a core from the next build.
func TestBuildCoresBesideABusyProcess(t *testing.T) {
	if runtime.GOOS != "linux" || runtime.NumCPU() < 2 {
		t.Skip("needs Linux's /proc and 2 cores")
	}
	if _, err := os.Stat("/proc/stat"); err != nil {
		t.Skip("no /proc/stat")
	}
	busy := exec.Command("sh", "-c", "while :; do :; done")
	if err := busy.Start(); err != nil {
		t.Skip("cannot start a busy process:", err)
	}
	defer func() { busy.Process.Kill(); busy.Wait() }()
	time.Sleep(50 * time.Millisecond)
	b := newBuildCores(nil)
	time.Sleep(300 * time.Millisecond)
	if got := b.procs(0); got < 1 || got >= b.cores {
		t.Errorf("procs beside a busy loop = %d with %.2f cores of others; want 1..%d", got, b.others, b.cores-1)
	}
}
