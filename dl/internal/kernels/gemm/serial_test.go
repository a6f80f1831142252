package gemm

import (
	"errors"
	"math/rand/v2"
	"sync/atomic"
	"testing"
)

func TestForEach(t *testing.T) {
	for _, nt := range []int{0, 1, 2, 5} {
		for _, n := range []int{0, 1, 3, 100} {
			counts := make([]atomic.Int32, n)
			if err := ForEach(nt, n, func(i int) error { counts[i].Add(1); return nil }); err != nil {
				t.Fatalf("ForEach(%d, %d) = %v; want nil", nt, n, err)
			}
			for i := range counts {
				if c := counts[i].Load(); c != 1 {
					t.Fatalf("ForEach(%d, %d) ran item %d %d times; want once", nt, n, i, c)
				}
			}
		}
	}
	boom := errors.New("boom")
	var ran atomic.Int32
	err := ForEach(2, 1000, func(i int) error {
		ran.Add(1)
		if i == 3 {
			return boom
		}
		return nil
	})
	if !errors.Is(err, boom) {
		t.Fatalf("ForEach with a failing item = %v; want %v", err, boom)
	}
	if r := ran.Load(); r == 1000 {
		t.Errorf("ForEach ran all 1000 items after item 3 failed; want it to stop")
	}
}

// TestRunSerial compares RunSerial with the naive product on strided
// operands (leading dimensions larger than the widths), both transposes.
func TestRunSerial(t *testing.T) {
	ks := &Kernels[float64]{Go: GoMicroKernel[float64]()}
	r := rand.New(rand.NewPCG(1, 2))
	for _, tr := range [][2]bool{{false, false}, {false, true}, {true, false}, {true, true}} {
		m, n, k, ld := 37, 29, 70, 80
		a, b := make([]float64, 80*ld), make([]float64, 80*ld)
		for i := range a {
			a[i], b[i] = r.NormFloat64(), r.NormFloat64()
		}
		c, want := make([]float64, m*ld), make([]float64, m*ld)
		for i := range c {
			c[i] = r.NormFloat64()
			want[i] = c[i]
		}
		p := Args[float64]{Op: "test", TransA: tr[0], TransB: tr[1], M: m, N: n, K: k, Alpha: 0.5, A: a, LDA: ld, B: b, LDB: ld, Beta: 2, C: c, LDC: ld}
		q := p
		q.C = want
		Naive(&q)
		if err := ks.RunSerial(&p); err != nil {
			t.Fatal(err)
		}
		for i := range c {
			if d := c[i] - want[i]; d > 1e-12 || d < -1e-12 {
				t.Fatalf("transposes %v: C[%d] = %v; the naive product gives %v", tr, i, c[i], want[i])
			}
		}
	}
}

// TestForRange: every element is covered once, pieces are contiguous,
// start at multiples of 16 and hold at least grain elements (but for the
// last), and small ranges stay on one piece.
func TestForRange(t *testing.T) {
	for _, nt := range []int{0, 1, 2, 3, 8} {
		for _, n := range []int{0, 1, 15, 100, 1000, 4097} {
			for _, grain := range []int{0, 1, 64, 1000} {
				counts := make([]atomic.Int32, n)
				var pieces atomic.Int32
				var bad atomic.Value
				ForRange(nt, n, grain, func(lo, hi int) {
					pieces.Add(1)
					if lo >= hi || lo%16 != 0 || (hi < n && hi-lo < grain) {
						bad.Store([2]int{lo, hi})
					}
					for i := lo; i < hi; i++ {
						counts[i].Add(1)
					}
				})
				if b := bad.Load(); b != nil {
					t.Fatalf("ForRange(%d, %d, %d) gave the piece %v", nt, n, grain, b)
				}
				for i := range counts {
					if c := counts[i].Load(); c != 1 {
						t.Fatalf("ForRange(%d, %d, %d) covered element %d %d times; want once", nt, n, grain, i, c)
					}
				}
				if p := int(pieces.Load()); p > max(nt, 1) || (n > 0 && n < 2*max(grain, 1) && p != 1) {
					t.Errorf("ForRange(%d, %d, %d) ran %d pieces", nt, n, grain, p)
				}
			}
		}
	}
}
