package dltest

import (
	"runtime/debug"
	"testing"

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
	dl.CollectGarbage()
	old := debug.SetGCPercent(-1)
	tb.Cleanup(func() { debug.SetGCPercent(old) })
}
