package gemm

import (
	"math"
	"testing"
	"time"
)

// TestFreeOf checks the estimate's sixteenths: 13/16 of a core is taken
// (cpuload.Free, tested there), 12/16 is not.
func TestFreeOf(t *testing.T) {
	if got := freeOf(2, 13); got != 1 {
		t.Errorf("freeOf(2, 13/16) = %d, want 1", got)
	}
	if got := freeOf(2, 12); got != 2 {
		t.Errorf("freeOf(2, 12/16) = %d, want 2", got)
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
