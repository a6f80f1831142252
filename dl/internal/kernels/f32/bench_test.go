package f32

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"

	"gonum.org/v1/gonum/blas"

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

// BenchmarkRowsGemmNT times the weight gradient of the small ResNet's 3×3
// layers (dl/nn's BenchmarkCNNStep, one backward segment) on one thread,
// dWᵀ = col·gTᵀ with A's rows read in the padded planes, one product per
// sample (impl=rows), against dW = gT·colᵀ through Gemm on the explicit
// columns (impl=gemm, the product before RowsGemmNT; the columns are not
// built in the timing): c→cout channels at h×h, per samples a segment.
func BenchmarkRowsGemmNT(b *testing.B) {
	if NewRowsGemmNT(3, 1, []int{0, 1, 2}) == nil {
		b.Skip("no RowsGemmNT kernel in this build (AVX-512 or AVX2 with FMA)")
	}
	defer SetThreads(SetThreads(1))
	for _, s := range []struct{ c, cout, h, per int }{{1, 16, 28, 2}, {16, 16, 28, 2}, {32, 32, 14, 4}, {64, 64, 7, 7}} {
		wp := s.h + 2
		plane, lw, ck := wp*wp, (s.h-1)*wp+s.h, s.c*9
		k := lw * s.per
		rows := make([]int, ck)
		for c := range s.c {
			for r := range 9 {
				rows[c*9+r] = c*plane + (r/3)*wp + r%3
			}
		}
		planes := make([]float32, s.c*plane)
		for i := range planes {
			planes[i] = float32(i%7) * 0.1
		}
		col, gT, out := make([]float32, ck*k), make([]float32, s.cout*k), make([]float32, ck*s.cout)
		for i := range gT {
			gT[i] = float32(i%5) * 0.1
		}
		flops := 2 * float64(ck*s.cout*k)
		name := fmt.Sprintf("c=%d/cout=%d/h=%d/samples=%d", s.c, s.cout, s.h, s.per)
		b.Run("impl=gemm/"+name, func(b *testing.B) {
			for b.Loop() {
				GemmWith(SIMD, blas.NoTrans, blas.Trans, s.cout, ck, k, 1, gT, k, col, k, 0, out, ck)
			}
			b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
		p := NewRowsGemmNT(ck, s.cout, rows)
		b.Run("impl=rows/"+name, func(b *testing.B) {
			for b.Loop() {
				for q := range s.per {
					p.Run(lw, planes, gT[q*lw:], k, q > 0, out, s.cout)
				}
			}
			b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
	}
}
