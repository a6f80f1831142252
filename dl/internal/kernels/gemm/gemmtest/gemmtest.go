// Package gemmtest is the test suite every GEMM kernel of dlbd passes,
// written once for float32 and float64: random problems with padded leading
// dimensions, all transposes, several alpha/beta, NaN in C when beta == 0,
// shapes crossing the blocking and threading boundaries, compared against
// a float64 truth with a rounding-error bound.
package gemmtest

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/dlbd/dlbd/dl/internal/kernels/gemm"
)

// Impl is one code path under test.  Run must compute p in place (C).
type Impl[T gemm.Float] struct {
	Name string
	Run  func(p *gemm.Args[T])
}

// eps returns the unit roundoff of T.
func eps[T gemm.Float]() float64 {
	var z T
	if unsafe.Sizeof(z) == 4 {
		return float64(math.Nextafter32(1, 2) - 1)
	}
	return math.Nextafter(1, 2) - 1
}

// Rand builds a problem with random normal data and, to catch stride bugs,
// leading dimensions up to 2 larger than the logical widths.  C starts as
// NaN when beta == 0, to check that C is then never read.
func Rand[T gemm.Float](r *rand.Rand, m, n, k int, tA, tB bool, alpha, beta T) *gemm.Args[T] {
	pad := func() int { return r.IntN(3) }
	ar, ac, br, bc := m, k, k, n
	if tA {
		ar, ac = k, m
	}
	if tB {
		br, bc = n, k
	}
	p := &gemm.Args[T]{Op: "test", TransA: tA, TransB: tB, M: m, N: n, K: k, Alpha: alpha, Beta: beta,
		LDA: max(ac, 1) + pad(), LDB: max(bc, 1) + pad(), LDC: max(n, 1) + pad()}
	fill := func(rows, ld int, nan bool) []T {
		s := make([]T, max(rows*ld, 1))
		for i := range s {
			s[i] = T(r.NormFloat64())
			if nan {
				s[i] = T(math.NaN())
			}
		}
		return s
	}
	p.A, p.B = fill(ar, p.LDA, false), fill(br, p.LDB, false)
	p.C = fill(m, p.LDC, beta == 0)
	return p
}

// truth returns alpha*op(A)*op(B) + beta*C0 in float64 and, per element,
// the error scale Σ_p |alpha*a_ip*b_pj| + |beta*c_ij|.
func truth[T gemm.Float](p *gemm.Args[T], c0 []T) (want, scale []float64) {
	want = make([]float64, p.M*p.N)
	scale = make([]float64, p.M*p.N)
	for i := 0; i < p.M; i++ {
		for j := 0; j < p.N; j++ {
			var s, abs float64
			for q := 0; q < p.K; q++ {
				ai, bi := i*p.LDA+q, q*p.LDB+j
				if p.TransA {
					ai = q*p.LDA + i
				}
				if p.TransB {
					bi = j*p.LDB + q
				}
				t := float64(p.Alpha) * float64(p.A[ai]) * float64(p.B[bi])
				s += t
				abs += math.Abs(t)
			}
			if p.Beta != 0 {
				cv := float64(p.Beta) * float64(c0[i*p.LDC+j])
				s += cv
				abs += math.Abs(cv)
			}
			want[i*p.N+j], scale[i*p.N+j] = s, abs
		}
	}
	return want, scale
}

// check verifies |got - want| <= 2(k+2)·eps·scale for every element of C,
// and that the padding columns of C (between n and ldc) are untouched.
// The classical bound on a k-term sum is ~k·eps·Σ|terms|; any wrong or
// missing term is O(|a||b|), far above it for the sizes used.
func check[T gemm.Float](t *testing.T, name string, p *gemm.Args[T], c0 []T, want, scale []float64) {
	t.Helper()
	e := eps[T]()
	bad := 0
	for i := 0; i < p.M; i++ {
		for j := 0; j < p.LDC; j++ {
			got := float64(p.C[i*p.LDC+j])
			if j >= p.N {
				if g, w := p.C[i*p.LDC+j], c0[i*p.LDC+j]; g != w && !(g != g && w != w) {
					t.Errorf("%s: padding C[%d,%d] changed from %v to %v", name, i, j, w, g)
				}
				continue
			}
			w, s := want[i*p.N+j], scale[i*p.N+j]
			if tol := 2*float64(p.K+2)*e*s + 1e-300; !(math.Abs(got-w) <= tol) {
				if bad++; bad <= 3 {
					t.Errorf("%s: C[%d,%d] = %g, want %g (tol %g)", name, i, j, got, w, tol)
				}
			}
		}
	}
}

// CheckResult checks got, the C some code path computed for p from the
// initial C c0 (p's own C is not read), against the float64 truth within
// the rounding bound of check: for kernels outside an Impl list, such as
// products of decoded half operands.
func CheckResult[T gemm.Float](t *testing.T, name string, p *gemm.Args[T], c0, got []T) {
	t.Helper()
	want, scale := truth(p, c0)
	q := *p
	q.C = got
	check(t, name, &q, c0, want, scale)
}

// Case runs every impl on one random problem of the given shape (each
// impl on its own copy of C).
func Case[T gemm.Float](t *testing.T, impls []Impl[T], r *rand.Rand, m, n, k int, tA, tB bool, alpha, beta T) {
	t.Helper()
	p0 := Rand(r, m, n, k, tA, tB, alpha, beta)
	want, scale := truth(p0, p0.C)
	for _, im := range impls {
		p := *p0
		p.C = append([]T(nil), p0.C...)
		im.Run(&p)
		check(t, fmt.Sprintf("%s m=%d n=%d k=%d tA=%v tB=%v alpha=%v beta=%v", im.Name, m, n, k, tA, tB, alpha, beta),
			&p, p0.C, want, scale)
	}
}

// Suite runs the whole suite on impls.  Large shapes are skipped with
// -short.
func Suite[T gemm.Float](t *testing.T, impls []Impl[T]) {
	t.Run("small", func(t *testing.T) {
		r := rand.New(rand.NewPCG(1, 2))
		for m := 1; m <= 17; m += 4 {
			for n := 1; n <= 35; n += 6 {
				for _, k := range []int{1, 2, 3, 5, 8} {
					Case(t, impls, r, m, n, k, m%2 == 0, n%3 == 0, 1, 0)
				}
			}
		}
	})
	t.Run("transposes", func(t *testing.T) {
		r := rand.New(rand.NewPCG(9, 10))
		for _, tA := range []bool{false, true} {
			for _, tB := range []bool{false, true} {
				Case(t, impls, r, 37, 45, 29, tA, tB, -0.5, 0.25)
				Case(t, impls, r, 64, 64, 64, tA, tB, 1, 1)
			}
		}
	})
	t.Run("narrow", func(t *testing.T) {
		// Few columns and many rows take the transposed path (Cᵀ = BᵀAᵀ);
		// few rows split the columns between goroutines.
		r := rand.New(rand.NewPCG(11, 12))
		for _, s := range [][3]int{{256, 10, 70}, {100, 1, 33}, {29, 16, 300}, {10, 300, 40}, {3, 1000, 20}} {
			for _, tA := range []bool{false, true} {
				for _, tB := range []bool{false, true} {
					Case(t, impls, r, s[0], s[1], s[2], tA, tB, 1.5, 0)
					Case(t, impls, r, s[0], s[1], s[2], tA, tB, 1, 0.5)
				}
			}
		}
	})
	t.Run("conv", func(t *testing.T) {
		// The products of convolutions: output channels (rows) multiples
		// of 8, long wide rows, deep or shallow K (dx = Wᵀ·dY with 16
		// channels), several K blocks.
		r := rand.New(rand.NewPCG(13, 14))
		for _, s := range [][3]int{{16, 838, 144}, {32, 200, 288}, {64, 130, 600}, {144, 100, 16}, {8, 97, 40}} {
			for _, tB := range []bool{false, true} {
				Case(t, impls, r, s[0], s[1], s[2], false, tB, 1, 0)
				Case(t, impls, r, s[0], s[1], s[2], true, tB, 1, 1)
			}
		}
	})
	t.Run("random", func(t *testing.T) {
		r := rand.New(rand.NewPCG(3, 4))
		iters := 30
		if testing.Short() {
			iters = 8
		}
		for range iters {
			m, n, k := 1+r.IntN(200), 1+r.IntN(200), 1+r.IntN(300)
			alpha := []T{1, -0.5, 2}[r.IntN(3)]
			beta := []T{0, 1, 0.25}[r.IntN(3)]
			Case(t, impls, r, m, n, k, r.IntN(2) == 0, r.IntN(2) == 0, alpha, beta)
		}
	})
	t.Run("degenerate", func(t *testing.T) {
		r := rand.New(rand.NewPCG(5, 6))
		for _, s := range [][3]int{{0, 5, 5}, {5, 0, 5}, {5, 5, 0}, {1, 1, 1}} {
			Case(t, impls, r, s[0], s[1], s[2], false, false, 1, 0)
			Case(t, impls, r, s[0], s[1], s[2], true, false, 2, 0.5)
		}
		Case(t, impls, r, 20, 20, 20, false, true, 0, 0.5) // alpha == 0: C = beta*C
	})
	t.Run("large", func(t *testing.T) {
		if testing.Short() {
			t.Skip("large shapes skipped with -short")
		}
		r := rand.New(rand.NewPCG(7, 8))
		// Cross KC (256), MC and the thread split; a tall-skinny and a
		// short-wide case take the N split.
		for _, s := range [][3]int{{513, 257, 600}, {450, 300, 257}, {700, 37, 515}, {29, 900, 300}} {
			Case(t, impls, r, s[0], s[1], s[2], false, false, 1, 0)
			Case(t, impls, r, s[0], s[1], s[2], true, true, 1.5, 1)
		}
	})
}
