package cpuload

import (
	"os"
	"os/exec"
	"testing"
	"time"
)

// TestBusyOf checks which lines of /proc/stat count: the total with every
// CPU allowed (or no mask), the allowed CPUs' lines with a narrower mask
// (a container's cpuset), idle and iowait never.
func TestBusyOf(t *testing.T) {
	stat := []byte(`cpu  100 1 10 5000 7 1 2 3 0 0
cpu0 60 1 5 2000 3 1 1 2 0 0
cpu1 30 0 4 1500 2 0 1 1 0 0
cpu2 10 0 1 1500 2 0 0 0 0 0
intr 12345
ctxt 999
`)
	for _, c := range []struct {
		cpus []int
		want int64
	}{
		{nil, 117}, {[]int{0, 1, 2}, 117}, {[]int{1}, 36}, {[]int{0, 2}, 81}, {[]int{7}, 117},
	} {
		var allowed map[int]bool
		if c.cpus != nil {
			allowed = map[int]bool{}
			for _, n := range c.cpus {
				allowed[n] = true
			}
		}
		if got, ok := busyOf(stat, allowed); !ok || got != c.want {
			t.Errorf("busyOf(cpus %v) = %d, %v; want %d", c.cpus, got, ok, c.want)
		}
	}
	if _, ok := busyOf([]byte("cpu 1 2 3\n"), nil); ok {
		t.Error("busyOf accepted a cpu line with too few fields")
	}
}

// TestMachineBusy reads /proc/stat twice around some work: the machine's
// busy time moves forward and this process's CPU time too.
func TestMachineBusy(t *testing.T) {
	if _, err := os.Stat("/proc/stat"); err != nil {
		t.Skip("no /proc/stat")
	}
	m := NewMachine()
	b0, ok := m.Busy()
	c0 := Self(false)
	if !ok {
		t.Fatal("Busy could not parse /proc/stat")
	}
	x := 0.0
	for i := range 30_000_000 {
		x += float64(i & 7)
	}
	b1, ok := m.Busy()
	if c1 := Self(false); !ok || b1 < b0 || c1 <= c0 || x == 0 {
		t.Fatalf("busy %v -> %v (ok %v), own CPU %v -> %v", b0, b1, ok, c0, c1)
	}
	if m.Cores() < 1 {
		t.Errorf("Cores() = %d on Linux, where the affinity mask can be read", m.Cores())
	}
}

// TestProcessOf reads the CPU fields of a /proc/PID/stat line whose
// command name holds spaces and parentheses, and refuses short lines.
func TestProcessOf(t *testing.T) {
	line := []byte("4242 (go (build) x) S 1 4242 4242 0 -1 4194304 100 0 0 0 250 50 7 3 20 0 1 0 123 0 0\n")
	if got, ok := processOf(line); !ok || got != 3100*time.Millisecond {
		t.Errorf("processOf = %v, %v; want 3.1s (250+50+7+3 ticks), true", got, ok)
	}
	if _, ok := processOf([]byte("4242 (x) S 1 2 3\n")); ok {
		t.Error("processOf accepted a line with too few fields")
	}
}

// TestOthersSeesABusyProcess: a child that loops, whose CPU
// time is not ours (it is not waited for yet), counts as most of a core
// that another program takes; once waited for, Self(true) has it.
func TestOthersSeesABusyProcess(t *testing.T) {
	if _, err := os.Stat("/proc/stat"); err != nil {
		t.Skip("no /proc/stat")
	}
	busy := exec.Command("sh", "-c", "while :; do :; done")
	if err := busy.Start(); err != nil {
		t.Skip("cannot start a busy process:", err)
	}
	defer busy.Process.Kill()
	m := NewMachine()
	time.Sleep(50 * time.Millisecond)
	b0, _ := m.Busy()
	o0, t0 := Self(true), time.Now()
	time.Sleep(300 * time.Millisecond)
	b1, _ := m.Busy()
	o1, t1 := Self(true), time.Now()
	p, ok := Process(busy.Process.Pid)
	busy.Process.Kill()
	busy.Wait()
	if others := Others(b0, b1, o0, o1, t1.Sub(t0)); others < 0.7 {
		t.Errorf("Others = %.2f cores beside a process that loops; want at least 0.7", others)
	}
	if !ok || p < 100*time.Millisecond {
		t.Errorf("Process(busy) = %v, %v after 350 ms of looping", p, ok)
	}
	if d := Self(true) - o1; d < 200*time.Millisecond {
		t.Errorf("Self(true) grew by %v once the busy child was waited for; want its CPU time", d)
	}
}
