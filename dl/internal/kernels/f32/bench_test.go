package f32

import (
	"fmt"
	"testing"

	"github.com/dlbd/dlbd/dl/internal/kernels/gemm/gemmtest"
)

// BenchmarkGemm times square C = A·B for every kernel:
// impl=<kernel>/n=<n>/threads=<t>, GFLOP/s = 2n³/t.
func BenchmarkGemm(b *testing.B) { gemmtest.BenchmarkAPI(b, api) }

// BenchmarkGemmShapes times the MLP 784-1024-1024-10 training step's
// products (batch 256) and the square transposed variants with SIMD.
func BenchmarkGemmShapes(b *testing.B) { gemmtest.BenchmarkShapes(b, api) }

// BenchmarkMicroKernel times each micro-kernel alone on cache-resident
// packed panels: the ceiling the blocked driver can reach.
func BenchmarkMicroKernel(b *testing.B) { gemmtest.BenchmarkMicro(b, api) }

// BenchmarkGemmBatched times GemmBatched with SIMD on the shapes of
// gemmtest.BatchedShapes: impl=simd/op=../count=../m=../n=../k=../threads=..
func BenchmarkGemmBatched(b *testing.B) {
	batched := func(tA, tB bool, m, n, k int, a []float32, lda, sa int, bm []float32, ldb, sb int, c []float32, ldc, sc, count int) {
		GemmBatchedWith(SIMD, transpose(tA), transpose(tB), m, n, k, 1, a, lda, sa, bm, ldb, sb, 0, c, ldc, sc, count)
	}
	if !SIMD.Available() {
		b.Skip("SIMD not available")
	}
	for _, s := range gemmtest.BatchedShapes {
		for _, th := range []int{1, 2} {
			b.Run(fmt.Sprintf("impl=simd/op=%s/count=%d/m=%d/n=%d/k=%d/threads=%d", s.Op, s.Count, s.M, s.N, s.K, th), func(b *testing.B) {
				gemmtest.BenchBatched(b, batched, SetThreads, s.Op[0] == 'T', s.Op[1] == 'T', s.Count, s.M, s.N, s.K, th)
			})
		}
	}
}
