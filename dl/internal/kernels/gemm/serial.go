package gemm

import "sync/atomic"

// RunSerial checks p and computes it with the fastest available kernel on
// the calling goroutine alone, for callers that spread their own items
// over goroutines with ForEach (the fused attention's heads).  It returns
// the context's error (dl.SetCancel) instead of panicking, so that it may
// run on a helper goroutine; bad arguments still panic (an *ArgError: a
// bug in the caller).
func (ks *Kernels[T]) RunSerial(p *Args[T]) error {
	p.Check()
	mk := ks.Go
	if len(ks.SIMD) > 0 {
		mk = ks.simd(p)
	}
	return blocked(mk, 1, p)
}

// ForEach runs f(i) for every i < n on up to nt goroutines: the caller's
// and nt−1 workers of the pool that the GEMM kernels use, each taking the
// next i until none is left.  It returns when every f that started has
// returned, with the first error one of them returned; after an error no
// further i starts.  f runs on helper goroutines, so it must not panic:
// report failures (a cancelled context) as errors.
func ForEach(nt, n int, f func(i int) error) error {
	if n <= 0 {
		return nil
	}
	if nt <= 1 || n == 1 { // no hand-out to share: no atomics per item
		for i := range n {
			if err := f(i); err != nil {
				return err
			}
		}
		return nil
	}
	var (
		next, done atomic.Int32
		g          gang
	)
	items := int32(n)
	work := func() {
		for i := next.Add(1) - 1; i < items; i = next.Add(1) - 1 {
			if g.stop.Load() {
				return
			}
			if err := f(int(i)); err != nil {
				g.halt(err)
				return
			}
			g.arrive(&done, items)
		}
	}
	goParallel(min(nt, n)-1, func() {
		if g.enter() {
			work()
		}
		g.leave()
	}, func() {
		work()
		g.wait(&done, items)
	})
	if g.stop.Load() {
		g.quiesce() // helpers still inside f
		return g.cause()
	}
	return nil
}

// ForRange runs f over [0, n) in contiguous pieces on up to nt goroutines
// (as ForEach), giving each at least grain elements: below that, handing
// work to another core costs more than it saves.  Pieces start at
// multiples of 16 elements (a 64-byte line of float32), so no two
// goroutines write the same cache line of an aligned float32 or float64
// slice; of a 16-bit one, at most the line a boundary falls in.  f must not
// panic.  What f computes for an element must not depend on where the
// pieces start, so that results are the same on any number of threads.
func ForRange(nt, n, grain int, f func(lo, hi int)) {
	pieces := min(max(nt, 1), n/max(grain, 1))
	if pieces <= 1 {
		if n > 0 {
			f(0, n)
		}
		return
	}
	step := ((n+pieces-1)/pieces + 15) &^ 15
	pieces = (n + step - 1) / step
	ForEach(pieces, pieces, func(i int) error {
		f(i*step, min((i+1)*step, n))
		return nil
	})
}
