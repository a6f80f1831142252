package f32

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/dlbd/dlbd/dl/internal/kernels/gemm"
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

// BenchmarkGemmHalf times GemmHalf (16-bit A and B decoded while packed,
// float32 C) on the MLP step's products next to Gemm on float32 operands:
// format=float32 is the float32 product, format=bfloat16/float16 the half
// one, same kernel (SIMD) and shapes.
func BenchmarkGemmHalf(b *testing.B) {
	for _, s := range gemmtest.MLPShapes[:8] {
		for _, h := range []Half{gemm.NoHalf, BFloat16, Float16} {
			for _, th := range []int{1, 2} {
				format := h.String()
				if h == gemm.NoHalf {
					format = "float32"
				}
				b.Run(fmt.Sprintf("format=%s/op=%s/m=%d/n=%d/k=%d/threads=%d", format, s.Op, s.M, s.N, s.K, th), func(b *testing.B) {
					benchHalf(b, h, s.Op[0] == 'T', s.Op[1] == 'T', s.M, s.N, s.K, th)
				})
			}
		}
	}
}

func benchHalf(b *testing.B, h Half, tA, tB bool, m, n, k, th int) {
	r := rand.New(rand.NewPCG(1, 2))
	ah, af := halfData(r, max(h, Float16), m*k, false)
	bh, bf := halfData(r, max(h, Float16), k*n, false)
	c := make([]float32, m*n)
	lda, ldb := k, n
	if tA {
		lda = m
	}
	if tB {
		ldb = k
	}
	run := func() {
		if h == gemm.NoHalf {
			Gemm(transpose(tA), transpose(tB), m, n, k, 1, af, lda, bf, ldb, 0, c, n)
			return
		}
		GemmHalf(h, transpose(tA), transpose(tB), m, n, k, 1, ah, lda, bh, ldb, 0, c, n)
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(th))
	defer SetThreads(0)
	SetThreads(th)
	run()
	b.ResetTimer()
	for b.Loop() {
		run()
	}
	b.ReportMetric(2*float64(m*n*k)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
}
