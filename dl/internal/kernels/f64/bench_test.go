package f64

import (
	"fmt"
	"testing"

	"github.com/dlbd/dlbd/dl/internal/kernels/gemm"
	"github.com/dlbd/dlbd/dl/internal/kernels/gemm/gemmtest"
)

// with returns GemmWith bound to kernel k, in gemmtest's form.
func with(k Kernel) gemmtest.GemmFunc[float64] {
	return func(tA, tB bool, m, n, kk int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
		GemmWith(k, transpose(tA), transpose(tB), m, n, kk, alpha, a, lda, b, ldb, beta, c, ldc)
	}
}

// BenchmarkGemm times square C = A·B for every kernel (GFLOP/s = 2n³/t).
// The naive loop only runs the small sizes on one thread.
func BenchmarkGemm(b *testing.B) {
	for _, impl := range []Kernel{Naive, Blocked, Gonum, SIMD} {
		if !impl.Available() {
			continue
		}
		for _, n := range gemmtest.SquareSizes {
			for _, th := range []int{1, 2} {
				if impl == Naive && (n > 256 || th > 1) {
					continue
				}
				b.Run(fmt.Sprintf("impl=%s/n=%d/threads=%d", impl, n, th), func(b *testing.B) {
					gemmtest.Bench(b, with(impl), SetThreads, false, false, n, n, n, th)
				})
			}
		}
	}
}

// BenchmarkGemmShapes times the MLP training step's products and the
// square transposed variants with SIMD.
func BenchmarkGemmShapes(b *testing.B) {
	if !SIMD.Available() {
		b.Skip("SIMD not available")
	}
	for _, s := range gemmtest.MLPShapes {
		for _, th := range []int{1, 2} {
			b.Run(fmt.Sprintf("impl=simd/op=%s/m=%d/n=%d/k=%d/threads=%d", s.Op, s.M, s.N, s.K, th), func(b *testing.B) {
				gemmtest.Bench(b, with(SIMD), SetThreads, s.Op[0] == 'T', s.Op[1] == 'T', s.M, s.N, s.K, th)
			})
		}
	}
}

// BenchmarkMicroKernel times each micro-kernel alone on L1/L2-resident
// packed panels: the ceiling the blocked driver can reach.
func BenchmarkMicroKernel(b *testing.B) {
	for _, mk := range append([]*gemm.MicroKernel[float64]{kernels.Go}, simdKernels...) {
		kc := mk.KC
		a, bp, c := make([]float64, mk.MR*kc), make([]float64, mk.NR*kc), make([]float64, mk.MR*mk.NR)
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
