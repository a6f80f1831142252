package gemmtest

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/dlbd/dlbd/dl/internal/kernels/gemm"
)

// API is a dtype package's public GEMM entry points, as the shared tests
// and benchmarks call them.
type API[T gemm.Float] struct {
	Op string // the panic prefix, e.g. "f32.Gemm"
	// GemmWith is the package's GemmWith with the kernel as its number and
	// blas.Transpose as a byte ('N', 'T').
	GemmWith   func(kern int, tA, tB byte, m, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int)
	Kernels    *gemm.Kernels[T]
	SetThreads func(n int) int
}

func tb(t bool) byte {
	if t {
		return 'T'
	}
	return 'N'
}

// with returns api.GemmWith bound to kernel k.
func (api API[T]) with(k int) GemmFunc[T] {
	return func(tA, tB bool, m, n, kk int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int) {
		api.GemmWith(k, tb(tA), tb(tB), m, n, kk, alpha, a, lda, b, ldb, beta, c, ldc)
	}
}

// micro returns the portable and every assembly micro-kernel (those of
// other tile shapes included).
func (api API[T]) micro() []*gemm.MicroKernel[T] {
	ks := append([]*gemm.MicroKernel[T]{api.Kernels.Go}, api.Kernels.SIMD...)
	return append(ks, api.Kernels.Tiles...)
}

var publicKernels = []int{gemm.KernelAuto, gemm.KernelNaive, gemm.KernelBlocked, gemm.KernelGonum, gemm.KernelSIMD}

// impls returns every code path: each available public kernel through
// GemmWith, and each micro-kernel this CPU runs (not only the one SIMD
// picks) through the driver at 1 and 2 goroutines.
func (api API[T]) impls() []Impl[T] {
	var out []Impl[T]
	for _, k := range publicKernels {
		if api.Kernels.Available(k) {
			f := api.with(k)
			out = append(out, Impl[T]{Name: gemm.KernelName(k), Run: func(p *gemm.Args[T]) {
				f(p.TransA, p.TransB, p.M, p.N, p.K, p.Alpha, p.A, p.LDA, p.B, p.LDB, p.Beta, p.C, p.LDC)
			}})
		}
	}
	for _, mk := range api.micro() {
		for _, nt := range []int{1, 2} {
			out = append(out, Impl[T]{Name: fmt.Sprintf("%s/threads=%d", mk.Name, nt), Run: func(p *gemm.Args[T]) {
				p.Check()
				gemm.Blocked(mk, nt, p)
			}})
		}
	}
	return out
}

// TestAPI runs Suite on every code path, and checks beta == 0 with NaN in
// C and the argument errors through the public API.
func TestAPI[T gemm.Float](t *testing.T, api API[T]) {
	if len(api.Kernels.SIMD) > 0 {
		t.Logf("SIMD micro-kernel: %s", api.Kernels.SIMD[0].Name)
	}
	Suite(t, api.impls())
	t.Run("beta=0/NaN", func(t *testing.T) {
		for _, k := range publicKernels[1:] {
			if !api.Kernels.Available(k) {
				continue
			}
			a := []T{1, 2, 3, 4}
			c := []T{T(math.NaN()), T(math.Inf(1)), T(math.NaN()), 7}
			api.GemmWith(k, 'N', 'N', 2, 2, 2, 1, a, 2, a, 2, 0, c, 2)
			if want := []T{7, 10, 15, 22}; fmt.Sprint(c) != fmt.Sprint(want) {
				t.Errorf("GemmWith(%s, beta=0) = %v; want %v", gemm.KernelName(k), c, want)
			}
		}
	})
	t.Run("errors", func(t *testing.T) {
		a := make([]T, 6)
		for _, tc := range []struct {
			name string
			call func()
			want string
		}{
			{"short A", func() { api.GemmWith(0, 'N', 'N', 3, 2, 2, 1, a[:5], 2, a, 2, 0, a, 2) },
				"len(A) = 5, want at least 6 for a 3x2 matrix with lda = 2"},
			{"bad ldb", func() { api.GemmWith(0, 'N', 'T', 2, 3, 2, 1, a, 2, a, 1, 0, a, 3) },
				"ldb = 1 is less than max(1, 2), the number of columns of B as stored"},
			{"negative", func() { api.GemmWith(0, 'N', 'N', -1, 2, 2, 1, a, 2, a, 2, 0, a, 2) },
				"negative dimension m=-1 n=2 k=2"},
			{"transpose", func() { api.GemmWith(0, 'x', 'N', 1, 1, 1, 1, a, 1, a, 1, 0, a, 1) },
				"tA = 'x' is not a blas.Transpose"},
			{"kernel", func() { api.GemmWith(9, 'N', 'N', 1, 1, 1, 1, a, 1, a, 1, 0, a, 1) },
				"unknown kernel Kernel(9)"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				want := api.Op + ": " + tc.want
				defer func() {
					r := recover()
					var ae *gemm.ArgError
					if err, ok := r.(error); !ok || !errors.As(err, &ae) || !strings.Contains(err.Error(), want) {
						t.Errorf("panic = %v; want *gemm.ArgError containing %q", r, want)
					}
				}()
				tc.call()
			})
		}
	})
}

// BenchmarkAPI is the body of a dtype package's BenchmarkGemm: square
// C = A·B for every kernel (GFLOP/s = 2n³/t); the naive loop runs only the
// small sizes on one thread.
func BenchmarkAPI[T gemm.Float](b *testing.B, api API[T]) {
	for _, k := range publicKernels[1:] {
		if !api.Kernels.Available(k) {
			continue
		}
		for _, n := range SquareSizes {
			for _, th := range []int{1, 2} {
				if k == gemm.KernelNaive && (n > 256 || th > 1) {
					continue
				}
				b.Run(fmt.Sprintf("impl=%s/n=%d/threads=%d", gemm.KernelName(k), n, th), func(b *testing.B) {
					Bench(b, api.with(k), api.SetThreads, false, false, n, n, n, th)
				})
			}
		}
	}
}

// BenchmarkShapes is the body of BenchmarkGemmShapes: the MLP training
// step's products and the square transposed variants, with SIMD.
func BenchmarkShapes[T gemm.Float](b *testing.B, api API[T]) {
	if !api.Kernels.Available(gemm.KernelSIMD) {
		b.Skip("SIMD not available")
	}
	for _, s := range MLPShapes {
		for _, th := range []int{1, 2} {
			b.Run(fmt.Sprintf("impl=simd/op=%s/m=%d/n=%d/k=%d/threads=%d", s.Op, s.M, s.N, s.K, th), func(b *testing.B) {
				Bench(b, api.with(gemm.KernelSIMD), api.SetThreads, s.Op[0] == 'T', s.Op[1] == 'T', s.M, s.N, s.K, th)
			})
		}
	}
}

// BenchmarkMicro is the body of BenchmarkMicroKernel: each micro-kernel
// alone on L1/L2-resident packed panels, the ceiling of the driver.
func BenchmarkMicro[T gemm.Float](b *testing.B, api API[T]) {
	for _, mk := range api.micro() {
		kc := mk.KC
		a, bp, c := make([]T, mk.MR*kc), make([]T, mk.NR*kc), make([]T, mk.MR*mk.NR)
		for i := range a {
			a[i] = 1e-3
		}
		for i := range bp {
			bp[i] = 1e-3
		}
		b.Run("kernel="+mk.Name, func(b *testing.B) {
			for b.Loop() {
				mk.Fn(kc, &a[0], &bp[0], &c[0], mk.NR, 1, 1)
			}
			b.ReportMetric(2*float64(mk.MR*mk.NR*kc)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
	}
}
