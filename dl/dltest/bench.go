package dltest

import (
	"runtime"
	"testing"

	"github.com/dlbd/dlbd/dl"
)

// UseThreads runs the rest of tb with n matrix-multiply threads (dl.SetNumThreads)
// and GOMAXPROCS n, so the Go runtime, its collector included, gets the same cores
// as an anchor limited to n threads. Both are restored when tb ends.
func UseThreads(tb testing.TB, n int) {
	procs, threads := runtime.GOMAXPROCS(n), dl.SetNumThreads(n)
	tb.Cleanup(func() {
		runtime.GOMAXPROCS(procs)
		dl.SetNumThreads(threads)
	})
}

// BenchStep times step, a training step, and reports it as "ms/step", with the
// peak memory of one step above the resting state as "MiB" from dev's accounting.
// It runs step once first, untimed: that allocates the gradients and warms the
// allocator's caches, so the resting state holds parameters, gradients and data.
// step must keep the gradients allocated (zero them in place with FillInPlace):
// a step that releases them, as ZeroGrad does, would hide them from the peak.
func BenchStep(b *testing.B, dev dl.Device, step func()) {
	b.Helper()
	step()
	benchTimed(b, peakAbove(dev, step), step)
}

// BenchTrainStep is BenchStep for a step that leaves its gradients to be
// released, as torch's optimizer.zero_grad(set_to_none=True) does (the
// default of the anchors it is compared with): the timed steps each end
// by releasing the gradients of params (dl.Tensor.ZeroGrad), so the next
// backward writes them afresh instead of adding into zeroed ones (a fill
// and an add per gradient that the anchor does not do).  The peak
// ("MiB") is still that of a step above a resting state holding
// parameters, gradients and data, as BenchStep reports it: one untimed
// step is measured with the gradients kept and zeroed in place.
func BenchTrainStep(b *testing.B, dev dl.Device, params []*dl.Tensor, step func()) {
	b.Helper()
	release := func() {
		for _, p := range params {
			p.ZeroGrad()
		}
	}
	step()
	for _, p := range params {
		if g := p.Grad(); g != nil {
			g.FillInPlace(0)
		}
	}
	peak := peakAbove(dev, step)
	release()
	step() // warm the allocator's caches for released gradients
	release()
	benchTimed(b, peak, func() {
		step()
		release()
	})
}

// peakAbove runs step once and returns its peak allocation on dev above
// what was allocated before it.
func peakAbove(dev dl.Device, step func()) int64 {
	before := dl.MemoryStats(dev).Allocated
	dl.ResetPeakMemory(dev)
	step()
	return dl.MemoryStats(dev).Peak - before
}

// benchTimed times step in b's loop and reports "ms/step" and the peak
// as "MiB".
func benchTimed(b *testing.B, peak int64, step func()) {
	b.ResetTimer()
	for b.Loop() {
		step()
	}
	b.ReportMetric(b.Elapsed().Seconds()*1e3/float64(b.N), "ms/step")
	b.ReportMetric(float64(peak)/(1<<20), "MiB")
}
