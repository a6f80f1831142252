package gemm

import (
	"errors"
	"sync/atomic"
	"testing"
	"time"
)

func TestBlockDepth(t *testing.T) {
	for _, tc := range []struct{ k, want int }{
		{10, 16}, {256, 256}, {300, 304}, {320, 320}, {330, 176}, {784, 272}, {1024, 256}, {1100, 288}, {2048, 256},
	} {
		got := blockDepth(tc.k, 256)
		if got != tc.want {
			t.Errorf("blockDepth(%d, 256) = %d; want %d", tc.k, got, tc.want)
		}
		if got > maxDepth(256) {
			t.Errorf("blockDepth(%d, 256) = %d > maxDepth %d", tc.k, got, maxDepth(256))
		}
	}
}

// TestJobSplitsFewRows: a product with fewer row tiles than about 4 per
// goroutine (a 40-row product: 3 tiles for 2 goroutines) also splits N,
// so that none waits long for the last chunk; with one goroutine, or rows
// enough, it does not.  The split product equals the naive one.
func TestJobSplitsFewRows(t *testing.T) {
	mk := &MicroKernel[float64]{Name: "avx512-shaped", MR: 14, NR: 32, KC: 256, MC: 14 * 32, NC: 4096, Fn: micro2x4[float64]}
	for _, tc := range []struct {
		m, n, nt  int
		wantParts int
	}{
		{40, 1536, 2, 3},  // 3 chunks → 9
		{40, 1536, 1, 1},  // one goroutine: nothing to balance
		{128, 1536, 2, 1}, // 10 one-tile chunks (one sequence's inference): enough
		{1024, 768, 2, 1}, // 74 chunks
		{10, 1024, 2, 8},  // dW of a 10-output layer: 1 chunk → 8
	} {
		j := newJob(mk, &Args[float64]{M: tc.m, N: tc.n, K: 256}, tc.nt)
		if j.partsN != tc.wantParts {
			t.Errorf("m=%d n=%d nt=%d: %d chunks of rows split into %d along N; want %d",
				tc.m, tc.n, tc.nt, j.chunksM, j.partsN, tc.wantParts)
		}
	}

	// The tiles go to chunks whose sizes differ by one tile at most (74
	// tiles in chunks of at most 10 once left a last chunk of 4), none
	// larger than chunkRows or MC, and small enough that each goroutine
	// gets many.
	for _, tc := range []struct{ m, nt, maxTiles int }{
		{1024, 2, 1}, {1024, 1, 2}, {8192, 2, 5}, {100000, 2, mk.MC / mk.MR},
	} {
		j := newJob(mk, &Args[float64]{M: tc.m, N: 768, K: 256}, tc.nt)
		lo, hi, sum := j.tilesM, 0, 0
		for c := range j.chunksM {
			n := (c+1)*j.tilesM/j.chunksM - c*j.tilesM/j.chunksM
			lo, hi, sum = min(lo, n), max(hi, n), sum+n
		}
		if sum != j.tilesM || hi-lo > 1 || hi > tc.maxTiles || hi*mk.MR > j.chunkRows || j.chunkRows > mk.MC {
			t.Errorf("m=%d nt=%d: %d tiles in %d chunks of %d to %d tiles (largest %d rows); want all tiles, sizes within one, at most %d tiles and MC rows",
				tc.m, tc.nt, j.tilesM, j.chunksM, lo, hi, j.chunkRows, tc.maxTiles)
		}
	}

	go2x4 := GoMicroKernel[float64]()
	m, n, k := 9, 70, 33 // 5 row chunks of 2 rows for 2 goroutines: N split in 2
	if j := newJob(go2x4, &Args[float64]{M: m, N: n, K: k}, 2); j.partsN < 2 {
		t.Fatalf("go-2x4 m=%d: partsN = %d, want a split", m, j.partsN)
	}
	a, b := make([]float64, m*k), make([]float64, k*n)
	for i := range a {
		a[i] = float64(i%7) - 3
	}
	for i := range b {
		b[i] = float64(i%5) - 2
	}
	got, want := make([]float64, m*n), make([]float64, m*n)
	p := Args[float64]{M: m, N: n, K: k, Alpha: 1, A: a, LDA: k, B: b, LDB: n, C: got, LDC: n}
	q := p
	q.C = want
	Blocked(go2x4, 2, &p)
	Naive(&q)
	for i := range got {
		if got[i] != want[i] { // small integers: every order of the sums is exact
			t.Fatalf("C[%d] = %v; want %v", i, got[i], want[i])
		}
	}
}

// TestGangWaitBlocks: a wait longer than waitSpin blocks, and the arrive
// that completes its count, or a halt, wakes it.
func TestGangWaitBlocks(t *testing.T) {
	for _, halt := range []bool{false, true} {
		var (
			g    gang
			v    atomic.Int32
			done = make(chan bool)
		)
		go func() { done <- g.wait(&v, 2) }()
		g.arrive(&v, 2)
		for g.sleepers.Load() == 0 { // spun for waitSpin, now blocked
			time.Sleep(time.Millisecond)
		}
		if halt {
			g.halt(errors.New("cancelled"))
		} else {
			g.arrive(&v, 2)
		}
		select {
		case ok := <-done:
			if ok == halt {
				t.Errorf("halt=%v: wait returned %v", halt, ok)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("halt=%v: wait still blocked 10 s after it was woken", halt)
		}
		if halt && g.cause().Error() != "cancelled" {
			t.Errorf("cause() = %v; want the halting error", g.cause())
		}
	}
}
