package f64

import (
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
