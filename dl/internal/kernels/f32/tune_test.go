package f32

import (
	"fmt"
	"testing"

	"github.com/dlbd/dlbd/dl/internal/kernels/gemm"
)

// BenchmarkBlocking sweeps KC and MC of the best micro-kernel through the
// full driver on one goroutine: how the cache blocking was chosen.  Run
// with -count and compare medians (benchstat): the machine is noisy.
func BenchmarkBlocking(b *testing.B) {
	if len(simdKernels) == 0 {
		b.Skip("SIMD not available")
	}
	base := *simdKernels[0]
	for _, n := range []int{512, 1024} {
		m := make([]float32, n*n)
		for i := range m {
			m[i] = float32(i%7) - 3
		}
		c := make([]float32, n*n)
		for _, kc := range []int{96, 128, 192, 256} {
			for _, mcTiles := range []int{8, 16, 24, 32} {
				mk := base
				mk.KC, mk.MC = kc, mcTiles*mk.MR
				b.Run(fmt.Sprintf("n=%d/kc=%d/mc=%d", n, kc, mk.MC), func(b *testing.B) {
					p := gemm.Args[float32]{M: n, N: n, K: n, Alpha: 1, A: m, LDA: n, B: m, LDB: n, C: c, LDC: n}
					for b.Loop() {
						gemm.Blocked(&mk, 1, &p)
					}
					b.ReportMetric(2*float64(n*n*n)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
				})
			}
		}
	}
}
