//go:build !dlbd_noasm

package f32

import (
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/blas"
)

// TestRowsGemm checks the implicit GEMM against Gemm on the explicit
// matrix of B's rows: bit for bit (both sum each element in order of p
// with the same fused multiply-adds when K fits one block; within float32
// rounding otherwise), writing and adding, for row counts around the
// 8-row and 6-row tiles, columns around the 48- and 16-column panels,
// overlapping rows (a convolution's shifted runs), k = 0, and C with a
// wider stride whose other elements must not change.  It runs the tiles
// of every kernel this CPU has: AVX-512's, then AVX2's.
func TestRowsGemm(t *testing.T) {
	if !haveAVX512 && !haveAVX2 {
		if NewRowsGemm(1, 1, []float32{1}, 1, []int{0}) != nil {
			t.Fatal("NewRowsGemm without AVX-512 or AVX2 is not nil")
		}
		t.Skip("neither AVX-512 nor AVX2")
	}
	forEachTileSet(t, testRowsGemm)
}

// forEachTileSet runs test on the tiles of every kernel this CPU has:
// AVX-512's, then AVX2's (constructors called with haveAVX512 false take
// the AVX2 tiles).
func forEachTileSet(t *testing.T, test func(*testing.T)) {
	if haveAVX512 {
		t.Run("avx512", test)
	}
	if haveAVX2 {
		was := haveAVX512
		haveAVX512 = false
		defer func() { haveAVX512 = was }()
		t.Run("avx2", test)
	}
}

func testRowsGemm(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for it := range 300 {
		m, k, n := 1+r.IntN(20), r.IntN(300), 1+r.IntN(150)
		if it%50 == 0 {
			k = 0
		}
		src := make([]float32, 4*n+3*k+50)
		for i := range src {
			src[i] = float32(r.NormFloat64())
		}
		rows := make([]int, k)
		for p := range rows {
			rows[p] = r.IntN(len(src) - n + 1) // shifted, overlapping runs
		}
		lda := k + r.IntN(3)
		a := make([]float32, max((m-1)*lda+k, 0))
		for i := range a {
			a[i] = float32(r.NormFloat64())
		}
		bm := make([]float32, k*n) // the explicit B
		for p, row := range rows {
			copy(bm[p*n:][:n], src[row:][:n])
		}
		ldc := n + r.IntN(3)
		c0 := make([]float32, (m-1)*ldc+n+2)
		for i := range c0 {
			c0[i] = float32(r.NormFloat64())
		}
		g := NewRowsGemm(m, k, a, max(lda, 1), rows)
		for _, add := range []bool{false, true} {
			got := append([]float32(nil), c0...)
			want := append([]float32(nil), c0...)
			g.Run(n, src, add, got, ldc)
			beta := float32(0)
			if add {
				beta = 1
			}
			GemmWith(SIMD, blas.NoTrans, blas.NoTrans, m, n, k, 1, a, max(lda, 1), bm, max(n, 1), beta, want, ldc)
			for i := range want {
				d := got[i] - want[i]
				if k > 256 && d*d <= 1e-8*(1+want[i]*want[i]) {
					continue
				}
				if got[i] != want[i] {
					t.Fatalf("m=%d k=%d n=%d ldc=%d add=%v: c[%d] = %v, Gemm %v", m, k, n, ldc, add, i, got[i], want[i])
				}
			}
		}
		g.Release() // the next product may pack into this one's panels
	}
	for _, tc := range []struct {
		name string
		call func()
		want string
	}{
		{"short b", func() {
			NewRowsGemm(2, 2, make([]float32, 4), 2, []int{0, 10}).Run(5, make([]float32, 14), false, make([]float32, 10), 5)
		}, "want ldc >= n, len(b) >= 15"},
		{"short a", func() { NewRowsGemm(2, 3, make([]float32, 4), 3, []int{0, 1, 2}) }, "want lda >= k, len(a) >= (m-1)*lda+k"},
		{"negative row", func() { NewRowsGemm(1, 2, make([]float32, 2), 2, []int{0, -1}) }, "rows[1] = -1 is negative"},
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
