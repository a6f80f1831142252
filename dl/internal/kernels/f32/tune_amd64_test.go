//go:build !dlbd_noasm

package f32

import (
	"fmt"
	"testing"

	"github.com/dlbd/dlbd/dl/internal/kernels/gemm"
)

// BenchmarkBlockingNC sweeps the width NC (and, for AMX, the depth KC) of
// the B block on the products of the d=512 Transformer step of dl/nn
// (batch 8, T=128: forward y = x·Wᵀ, backward dX = dY·W and dW = dYᵀ·X), one
// goroutine.  The macro-kernel streams the whole B block past every A
// micro-panel, so the block must stay in L2: here (2 MiB L2) a 1 MiB block
// (float32 KC=256 x NC=1024) beat NC=4096 by ~10% on the products with
// N=2048.  (For AMX, KC=512 x NC=1024 beat KC=1024 x NC=2048 by 20% here
// but lost in whole training steps; see amxKernel.)
func BenchmarkBlockingNC(b *testing.B) {
	shapes := []struct {
		op      string
		m, n, k int
	}{
		{"NT", 1024, 1536, 512}, {"NT", 1024, 2048, 512}, {"NT", 1024, 512, 2048},
		{"NN", 1024, 2048, 512}, {"NN", 1024, 512, 2048},
		{"TN", 2048, 512, 1024}, {"TN", 512, 2048, 1024},
	}
	type config struct {
		mk     *gemm.MicroKernel[float32]
		kc, nc []int
	}
	var configs []config
	if len(simdKernels) > 0 {
		configs = append(configs, config{simdKernels[0], []int{256}, []int{512, 1024, 2048, 4096}})
	}
	if haveAMX {
		configs = append(configs, config{amxKernel, []int{512, 1024}, []int{512, 1024, 2048}})
	}
	if len(configs) == 0 {
		b.Skip("SIMD not available")
	}
	a, bm, c := make([]float32, 2048*2048), make([]float32, 2048*2048), make([]float32, 2048*2048)
	ah, bh := make([]uint16, len(a)), make([]uint16, len(bm))
	for i := range a {
		a[i], bm[i] = float32(i%7)-3, float32(i%5)-2
		ah[i], bh[i] = 0x3f80+uint16(i%7), 0x3f80+uint16(i%5) // bfloat16 1..1.05
	}
	for _, cf := range configs {
		for _, s := range shapes {
			for _, kc := range cf.kc {
				for _, nc := range cf.nc {
					mk := *cf.mk
					mk.KC, mk.NC = kc, nc
					b.Run(fmt.Sprintf("kernel=%s/op=%s/m=%d/n=%d/k=%d/kc=%d/nc=%d", mk.Name, s.op, s.m, s.n, s.k, kc, nc), func(b *testing.B) {
						p := gemm.Args[float32]{M: s.m, N: s.n, K: s.k, Alpha: 1, A: a, LDA: s.k, B: bm, LDB: s.n, C: c, LDC: s.n,
							TransA: s.op[0] == 'T', TransB: s.op[1] == 'T'}
						if p.TransA {
							p.LDA = s.m
						}
						if p.TransB {
							p.LDB = s.k
						}
						if mk.Name == amxKernel.Name {
							p.Half, p.AH, p.BH = BFloat16, ah, bh
						}
						for b.Loop() {
							gemm.Blocked(&mk, 1, &p)
						}
						b.ReportMetric(2*float64(s.m*s.n*s.k)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
					})
				}
			}
		}
	}
}
