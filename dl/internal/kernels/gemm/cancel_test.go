package gemm

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/dlbd/dlbd/dl/internal/cancel"
)

// square returns the arguments of an n x n x n float32 product of ones.
func square(n int) *Args[float32] {
	a := make([]float32, n*n)
	for i := range a {
		a[i] = 1
	}
	return &Args[float32]{Op: "test.Gemm", M: n, N: n, K: n, Alpha: 1, A: a, LDA: n, B: a, LDB: n, C: make([]float32, n*n), LDC: n}
}

// stoppedBy runs fn and returns the *cancel.Stopped it panicked with.
func stoppedBy(t *testing.T, fn func()) (s *cancel.Stopped) {
	t.Helper()
	defer func() {
		r := recover()
		var ok bool
		if s, ok = r.(*cancel.Stopped); !ok && r != nil {
			panic(r)
		}
	}()
	fn()
	return nil
}

// idleWorkers waits until no pool worker is busy, or fails.
func idleWorkers(t *testing.T) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Second)
	for {
		busy := 0
		poolMu.Lock()
		for _, w := range workers {
			if w.busy.Load() {
				busy++
			}
		}
		poolMu.Unlock()
		if busy == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d pool workers still busy 2 s after a cancelled call", busy)
		}
		time.Sleep(time.Millisecond)
	}
}

// TestBlockedCancel cancels a portable-kernel product running on three
// goroutines: it must stop with a *cancel.Stopped within a bound, every
// helper must leave, and the next product must be right.
func TestBlockedCancel(t *testing.T) {
	defer cancel.Set(nil)
	mk := GoMicroKernel[float32]()
	for _, batched := range []bool{false, true} {
		ctx, stop := context.WithCancel(context.Background())
		cancel.Set(ctx)
		p := square(1024) // ~2 GFLOP: seconds with the portable kernel
		var q *Args[float32]
		run := func() { Blocked(mk, 3, p) }
		if batched { // 64 small items spread over the goroutines
			q = square(128)
			q.A, q.B, q.C = make([]float32, 64*128*128), make([]float32, 64*128*128), make([]float32, 64*128*128)
			ks := &Kernels[float32]{Go: mk}
			ks.SetThreads(3)
			run = func() {
				for range 50 { // long enough for the cancel to land mid-batch
					ks.RunBatched(KernelBlocked, q, Batched{Count: 64, StrideA: 128 * 128, StrideB: 128 * 128, StrideC: 128 * 128})
				}
			}
		}
		time.AfterFunc(20*time.Millisecond, stop)
		start := time.Now()
		s := stoppedBy(t, run)
		took := time.Since(start)
		if s == nil || s.Op != "test.Gemm" || !errors.Is(s, context.Canceled) {
			t.Fatalf("batched=%v: panic value %v; want *cancel.Stopped{Op: test.Gemm} wrapping context.Canceled", batched, s)
		}
		if bound := time.Second; took > bound && !raceEnabled {
			t.Errorf("batched=%v: stopped %v after the start (cancel at 20 ms); want under %v", batched, took, bound)
		}
		idleWorkers(t)
		cancel.Set(nil)
		r := square(130)
		Blocked(mk, 3, r)
		if r.C[0] != 130 || r.C[len(r.C)-1] != 130 {
			t.Errorf("batched=%v: product after the cancel: C[0] = %v, C[last] = %v; want 130", batched, r.C[0], r.C[len(r.C)-1])
		}
	}
}

// TestCancelledBeforeStart: a context that is already done stops Naive,
// Blocked and the banded gonum path before any work.
func TestCancelledBeforeStart(t *testing.T) {
	defer cancel.Set(nil)
	ctx, stop := context.WithCancel(context.Background())
	stop()
	cancel.Set(ctx)
	calls := 0
	ks := &Kernels[float32]{Go: GoMicroKernel[float32](), Gonum: func(*Args[float32]) { calls++ }}
	for _, k := range []int{KernelNaive, KernelBlocked, KernelGonum} {
		p := square(2048) // big enough for gonum's bands
		if s := stoppedBy(t, func() { ks.Run(k, p) }); s == nil {
			t.Errorf("kernel %s ran to the end with a cancelled context", KernelName(k))
		}
	}
	if calls != 0 {
		t.Errorf("gonum was called %d times with a cancelled context; want 0", calls)
	}
}

// TestGonumBands checks that the banded gonum path covers every row once
// with consistent operands (both layouts of A).
func TestGonumBands(t *testing.T) {
	for _, transA := range []bool{false, true} {
		p := square(2048)
		p.TransA = transA
		var bands, rows int
		ks := &Kernels[float32]{Go: GoMicroKernel[float32](), Gonum: func(q *Args[float32]) {
			q.Check()
			bands++
			rows += q.M
		}}
		ks.Run(KernelGonum, p)
		if rows != p.M || bands < 2 {
			t.Errorf("transA=%v: %d bands covering %d rows; want several covering %d", transA, bands, rows, p.M)
		}
	}
}
