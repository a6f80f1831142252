//go:build !dlbd_noasm

package f32

import (
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/blas"
)

// TestRowsGemmNT checks the weight-gradient product against Gemm (A·Bᵀ)
// on the explicit matrix of A's rows: bit for bit when k fits one block
// of 256 (both sum each element in order of p with fused multiply-adds),
// within float32 rounding otherwise; writing and adding; for row counts
// around the 12-, 18- and 6-row tiles (a last group of one or two rows
// included), n around the 16- and 32-column panels, overlapping rows in
// groups of three with a common spacing (a convolution's taps), k = 0,
// and C with a wider stride whose other elements must not change.  It
// runs the tiles of every kernel this CPU has: AVX-512's, then AVX2's.
func TestRowsGemmNT(t *testing.T) {
	if !haveAVX512 && !haveAVX2 {
		if NewRowsGemmNT(3, 1, []int{0, 1, 2}) != nil {
			t.Fatal("NewRowsGemmNT without AVX-512 or AVX2 is not nil")
		}
		t.Skip("neither AVX-512 nor AVX2")
	}
	forEachTileSet(t, testRowsGemmNT)
}

func testRowsGemmNT(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for it := range 400 {
		m, n, k := 1+r.IntN(40), 1+r.IntN(70), r.IntN(600)
		if it%50 == 0 {
			k = 0
		}
		step := 1 + r.IntN(5)
		if it%3 == 0 {
			step = k + r.IntN(3) // the rows of a column matrix
		}
		groups := ceilDiv(m, 3)
		span := r.IntN(200) + 1
		src := make([]float32, span+2*step+k)
		for i := range src {
			src[i] = float32(r.NormFloat64())
		}
		rows := make([]int, m)
		for g := range groups {
			start := r.IntN(span)
			for q := 0; q < 3 && 3*g+q < m; q++ {
				rows[3*g+q] = start + q*step
			}
		}
		am := make([]float32, m*k) // the explicit A
		for i, row := range rows {
			copy(am[i*k:][:k], src[row:][:k])
		}
		ldb := k + r.IntN(3)
		b := make([]float32, max((n-1)*ldb+k, 0))
		for i := range b {
			b[i] = float32(r.NormFloat64())
		}
		ldc := n + r.IntN(3)
		c0 := make([]float32, (m-1)*ldc+n+2)
		for i := range c0 {
			c0[i] = float32(r.NormFloat64())
		}
		p := NewRowsGemmNT(m, n, rows)
		if p == nil {
			t.Fatalf("m=%d n=%d step=%d: NewRowsGemmNT returned nil for rows in groups of three", m, n, step)
		}
		for _, add := range []bool{false, true} {
			got := append([]float32(nil), c0...)
			want := append([]float32(nil), c0...)
			p.Run(k, src, b, ldb, add, got, ldc)
			beta := float32(0)
			if add {
				beta = 1
			}
			GemmWith(SIMD, blas.NoTrans, blas.Trans, m, n, k, 1, am, max(k, 1), b, max(ldb, 1), beta, want, ldc)
			for i := range want {
				d := got[i] - want[i]
				if k > 256 && d*d <= 1e-8*(1+want[i]*want[i]) {
					continue
				}
				if got[i] != want[i] {
					t.Fatalf("m=%d n=%d k=%d step=%d ldc=%d add=%v: c[%d] = %v, Gemm %v", m, n, k, step, ldc, add, i, got[i], want[i])
				}
			}
		}
	}
	for _, rows := range [][]int{{0, 2, 3}, {0, 1, 2, 5, 7, 9}} {
		if NewRowsGemmNT(len(rows), 2, rows) != nil {
			t.Errorf("NewRowsGemmNT accepted rows %v, not groups of three with one spacing", rows)
		}
	}
	for _, tc := range []struct {
		name string
		call func()
		want string
	}{
		{"short a", func() {
			NewRowsGemmNT(3, 1, []int{0, 4, 8}).Run(5, make([]float32, 12), make([]float32, 5), 5, false, make([]float32, 3), 1)
		}, "len(a) >= 13"},
		{"short b", func() {
			NewRowsGemmNT(3, 2, []int{0, 1, 2}).Run(5, make([]float32, 12), make([]float32, 9), 5, false, make([]float32, 6), 2)
		}, "len(b) >= 10"},
		{"negative row", func() { NewRowsGemmNT(2, 1, []int{0, -1}) }, "rows[1] = -1 is negative"},
	} {
		func() {
			defer func() {
				if p, _ := recover().(string); !strings.Contains(p, tc.want) {
					t.Errorf("%s: panic %q, want one containing %q", tc.name, p, tc.want)
				}
			}()
			tc.call()
		}()
	}
}
