package f32

import (
	"fmt"
	"testing"

	"github.com/dlbd/dlbd/dl/internal/kernels/gemm"
)

func BenchmarkZZConvShapes(b *testing.B) {
	// m, n, k, tA, tB
	for _, s := range [][5]int{
		{16, 838, 144, 0, 0}, {16, 144, 1676, 0, 1}, {144, 1676, 16, 1, 0},
		{32, 222, 288, 0, 0}, {32, 288, 2220, 0, 1}, {288, 2220, 32, 1, 0},
		{64, 61, 576, 0, 0}, {64, 576, 2013, 0, 1}, {576, 2013, 64, 1, 0},
		{32, 196, 144, 0, 0}, {32, 144, 2156, 0, 1}, {144, 2156, 32, 1, 0},
	} {
		m, n, k := s[0], s[1], s[2]
		a := make([]float32, m*k)
		bb := make([]float32, k*n)
		c := make([]float32, m*n)
		for i := range a {
			a[i] = float32(i%7) * 0.1
		}
		for i := range bb {
			bb[i] = float32(i%5) * 0.1
		}
		p := &gemm.Args[float32]{M: m, N: n, K: k, Alpha: 1, A: a, LDA: k, B: bb, LDB: n, C: c, LDC: n, TransA: s[3] == 1, TransB: s[4] == 1}
		if p.TransA {
			p.LDA = m
		}
		if p.TransB {
			p.LDB = k
		}
		for _, mk := range []*gemm.MicroKernel[float32]{avx512Kernel, avx512Kernel8x48} {
			b.Run(fmt.Sprintf("m=%d/n=%d/k=%d/tA=%d/tB=%d/%s", m, n, k, s[3], s[4], mk.Name), func(b *testing.B) {
				for b.Loop() {
					gemm.Blocked(mk, 1, p)
				}
				b.ReportMetric(2*float64(m*n*k)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
			})
		}

	}
}
