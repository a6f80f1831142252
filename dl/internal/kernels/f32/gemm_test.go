package f32

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/blas"

	"github.com/dlbd/dlbd/dl/internal/kernels/gemm"
	"github.com/dlbd/dlbd/dl/internal/kernels/gemm/gemmtest"
)

func tr(t bool) blas.Transpose { return transpose(t) }

// viaAPI runs p through the public GemmWith with kernel k.
func viaAPI(k Kernel) func(p *gemm.Args[float32]) {
	return func(p *gemm.Args[float32]) {
		GemmWith(k, tr(p.TransA), tr(p.TransB), p.M, p.N, p.K, p.Alpha, p.A, p.LDA, p.B, p.LDB, p.Beta, p.C, p.LDC)
	}
}

// impls returns every code path: each public kernel, and each assembly
// micro-kernel this CPU runs (not only the one SIMD picks) at 1 and 2
// goroutines.
func impls() []gemmtest.Impl[float32] {
	var out []gemmtest.Impl[float32]
	for _, k := range []Kernel{Auto, Naive, Blocked, Gonum, SIMD} {
		if k.Available() {
			out = append(out, gemmtest.Impl[float32]{Name: k.String(), Run: viaAPI(k)})
		}
	}
	for _, mk := range append([]*gemm.MicroKernel[float32]{kernels.Go}, simdKernels...) {
		for _, nt := range []int{1, 2} {
			out = append(out, gemmtest.Impl[float32]{Name: fmt.Sprintf("%s/threads=%d", mk.Name, nt), Run: func(p *gemm.Args[float32]) {
				p.Check()
				gemm.Blocked(mk, nt, p)
			}})
		}
	}
	return out
}

func TestGemm(t *testing.T) {
	t.Logf("SIMD micro-kernel: %q", SIMDName())
	gemmtest.Suite(t, impls())
}

func TestGemmBetaZeroIgnoresNaN(t *testing.T) {
	for _, k := range []Kernel{Naive, Blocked, Gonum, SIMD} {
		if !k.Available() {
			continue
		}
		a := []float32{1, 2, 3, 4}
		c := []float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.NaN()), 7}
		GemmWith(k, blas.NoTrans, blas.NoTrans, 2, 2, 2, 1, a, 2, a, 2, 0, c, 2)
		if want := []float32{7, 10, 15, 22}; fmt.Sprint(c) != fmt.Sprint(want) {
			t.Errorf("GemmWith(%v, beta=0) = %v; want %v", k, c, want)
		}
	}
}

func TestGemmErrors(t *testing.T) {
	a := make([]float32, 6)
	for _, tc := range []struct {
		name string
		call func()
		want string
	}{
		{"short A", func() { Gemm(blas.NoTrans, blas.NoTrans, 3, 2, 2, 1, a[:5], 2, a, 2, 0, a, 2) },
			"f32.Gemm: len(A) = 5, want at least 6 for a 3x2 matrix with lda = 2"},
		{"bad ldb", func() { Gemm(blas.NoTrans, blas.Trans, 2, 3, 2, 1, a, 2, a, 1, 0, a, 3) },
			"f32.Gemm: ldb = 1 is less than max(1, 2), the number of columns of B as stored"},
		{"negative", func() { Gemm(blas.NoTrans, blas.NoTrans, -1, 2, 2, 1, a, 2, a, 2, 0, a, 2) },
			"f32.Gemm: negative dimension m=-1 n=2 k=2"},
		{"transpose", func() { Gemm('x', blas.NoTrans, 1, 1, 1, 1, a, 1, a, 1, 0, a, 1) },
			"f32.Gemm: tA = 'x' is not a blas.Transpose"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				r := recover()
				var ae *gemm.ArgError
				if err, ok := r.(error); !ok || !errors.As(err, &ae) || !strings.Contains(err.Error(), tc.want) {
					t.Errorf("panic = %v; want *gemm.ArgError containing %q", r, tc.want)
				}
			}()
			tc.call()
		})
	}
}

func TestKernelString(t *testing.T) {
	for k, want := range map[Kernel]string{Auto: "auto", Naive: "naive", Blocked: "blocked", Gonum: "gonum", SIMD: "simd", 9: "Kernel(9)"} {
		if got := k.String(); got != want {
			t.Errorf("Kernel(%d).String() = %q; want %q", int(k), got, want)
		}
	}
	if Kernel(9).Available() {
		t.Errorf("Kernel(9).Available() = true; want false")
	}
}

func TestSetThreads(t *testing.T) {
	defer SetThreads(0)
	SetThreads(3)
	if got := Threads(); got != 3 {
		t.Errorf("Threads() after SetThreads(3) = %d; want 3", got)
	}
	SetThreads(-1)
	if got := Threads(); got < 1 {
		t.Errorf("Threads() after reset = %d; want GOMAXPROCS", got)
	}
}
