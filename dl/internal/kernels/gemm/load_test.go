package gemm

import (
	"math"
	"os"
	"testing"
	"time"
)

// TestFreeOf checks how the estimate of other processes' cores becomes the
// cores a call gets (Threads takes the fewer of these and its setting): a
// core is taken from 0.8 of one, at least one stays.
func TestFreeOf(t *testing.T) {
	for _, c := range []struct {
		cores int
		x16   int32
		want  int
	}{
		{2, 0, 2}, {2, 12, 2}, {2, 13, 1}, {2, 16, 1}, {2, 40, 1}, {8, 29, 6}, {1, 0, 1},
	} {
		if got := freeOf(c.cores, c.x16); got != c.want {
			t.Errorf("freeOf(%d, %d/16) = %d, want %d", c.cores, c.x16, got, c.want)
		}
	}
}

// TestMachineBusy reads /proc/stat twice around some work: the machine's
// busy time moves forward and this process's CPU time too.
func TestMachineBusy(t *testing.T) {
	if _, err := os.Stat("/proc/stat"); err != nil {
		t.Skip("no /proc/stat")
	}
	b0, ok := machineBusy(affinity())
	c0 := ownCPU()
	if !ok {
		t.Fatal("machineBusy could not parse /proc/stat")
	}
	x := 0.0
	for i := range 30_000_000 {
		x += float64(i & 7)
	}
	b1, ok := machineBusy(affinity())
	if !ok || b1 < b0 || ownCPU() <= c0 || x == 0 {
		t.Fatalf("busy %d -> %d (ok %v), own CPU %v -> %v", b0, b1, ok, c0, ownCPU())
	}
}

// TestLoadEstimate checks the smoothing and the ticks: the first figure
// taken as it is, rises halfway, falls 30 % of the way, quick ticks while
// other processes use a quarter of a core or more.
func TestLoadEstimate(t *testing.T) {
	var e loadEstimate
	steps := []struct {
		v, avg float64
		tick   time.Duration
	}{
		{0, 0, quietTick}, {1, 0.5, quickTick}, {1, 0.75, quickTick}, {1, 0.875, quickTick},
		{0, 0.6125, quickTick}, {0, 0.42875, quickTick}, {0.1, 0.330125, quickTick}, {0, 0.2310875, quietTick},
	}
	for i, s := range steps {
		avg, tick := e.update(s.v)
		if math.Abs(avg-s.avg) > 1e-12 || tick != s.tick {
			t.Fatalf("step %d: update(%v) = %v, %v; want %v, %v", i, s.v, avg, tick, s.avg, s.tick)
		}
	}
	var f loadEstimate
	if avg, tick := f.update(1.2); avg != 1.2 || tick != quickTick {
		t.Errorf("first update(1.2) = %v, %v; want 1.2 at once, quick ticks", avg, tick)
	}
}

// TestSetDynamic checks the switch: off, a call gets its setting; on, at
// most that and at least one; SetDynamic returns the previous state.
func TestSetDynamic(t *testing.T) {
	prev := SetDynamic(false)
	defer SetDynamic(prev)
	ks := &Kernels[float32]{}
	ks.SetThreads(3)
	if got := ks.Threads(); got != 3 {
		t.Errorf("dynamic off: Threads() = %d; want the setting 3", got)
	}
	if was := SetDynamic(true); was {
		t.Error("SetDynamic(true) after SetDynamic(false) returned true")
	}
	if got := ks.Threads(); got < 1 || got > 3 {
		t.Errorf("dynamic on: Threads() = %d; want 1..3", got)
	}
}
