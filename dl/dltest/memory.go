package dltest

import (
	"runtime"
	"runtime/debug"
	"testing"
	"time"

	"github.com/dlbd/dlbd/dl"
)

// HoldGC makes the device memory figures (Allocated, Peak) deterministic for the rest
// of the test. Tensors dropped without Release are freed by runtime cleanups after a
// garbage collection, at moments nobody controls; in a test binary the garbage of
// earlier tests (models on the same Sim devices) can vanish in the middle of a
// measurement. HoldGC collects that garbage, waits until the cleanups have run (the
// allocated bytes of every host device stop changing), then turns the collector off
// until the test ends. Tensors the test itself drops are then never freed behind its
// back: release them, as the code under test must.
func HoldGC(tb testing.TB) {
	tb.Helper()
	total := func() int64 {
		sum := dl.MemoryStats(dl.CPU).Allocated
		for i := range dl.DeviceCount(dl.SimKind) {
			sum += dl.MemoryStats(dl.Sim(i)).Allocated
		}
		return sum
	}
	last, stable := total(), 0
	for deadline := time.Now().Add(2 * time.Second); stable < 3 && time.Now().Before(deadline); {
		runtime.GC()
		time.Sleep(5 * time.Millisecond)
		if now := total(); now == last {
			stable++
		} else {
			last, stable = now, 0
		}
	}
	old := debug.SetGCPercent(-1)
	tb.Cleanup(func() { debug.SetGCPercent(old) })
}
