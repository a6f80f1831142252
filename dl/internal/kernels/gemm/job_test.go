package gemm

import "testing"

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

// TestJobSplitsFewRows: a product with few row chunks for its goroutines
// (one sequence's inference: 128 rows, 5 chunks of 28 for 2 goroutines)
// also splits N, so that each goroutine gets about 4 chunks and none
// waits for the last one; with one goroutine, or rows enough, it does not.
// The split product equals the naive one.
func TestJobSplitsFewRows(t *testing.T) {
	mk := &MicroKernel[float64]{Name: "avx512-shaped", MR: 14, NR: 32, KC: 256, MC: 14 * 32, NC: 4096, Fn: micro2x4[float64]}
	for _, tc := range []struct {
		m, n, nt  int
		wantParts int
	}{
		{128, 1536, 2, 2}, // 5 chunks → 10
		{128, 1536, 1, 1}, // one goroutine: nothing to balance
		{1024, 768, 2, 1}, // 8 chunks of 126 or 140 rows: enough
		{10, 1024, 2, 8},  // dW of a 10-output layer: 1 chunk → 8
	} {
		j := newJob(mk, &Args[float64]{M: tc.m, N: tc.n, K: 256}, tc.nt)
		if j.partsN != tc.wantParts {
			t.Errorf("m=%d n=%d nt=%d: %d chunks of rows split into %d along N; want %d",
				tc.m, tc.n, tc.nt, j.chunksM, j.partsN, tc.wantParts)
		}
	}

	// The 74 tiles of 1024 rows go to 8 chunks of 9 or 10 tiles, not 7 of
	// 10 and one of 4.
	j := newJob(mk, &Args[float64]{M: 1024, N: 768, K: 256}, 2)
	for c := range j.chunksM {
		t0, t1 := c*j.tilesM/j.chunksM, (c+1)*j.tilesM/j.chunksM
		if t1-t0 < 9 || t1-t0 > 10 || (t1-t0)*mk.MR > j.chunkRows {
			t.Errorf("m=1024: chunk %d of %d has %d tiles (largest chunk %d rows); want 9 or 10", c, j.chunksM, t1-t0, j.chunkRows)
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
