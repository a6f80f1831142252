//go:build !dlbd_noasm

package f64

import (
	"golang.org/x/sys/cpu"

	"github.com/dlbd/dlbd/dl/internal/kernels/gemm"
)

// dgemmAVX512 is the 14x16 AVX-512 micro-kernel (dgemm_avx512_amd64.s).
// It implements the contract of gemm.MicroKernel.Fn: for the 14x16 tile at
// c, c = alpha*Σ_p a[p*14+i]*b[p*16+j] + beta*c, c not read if beta == 0.
//
//go:noescape
func dgemmAVX512(k int, a, b, c *float64, ldc int, alpha, beta float64)

// dgemmAVX2 is the 6x8 AVX2+FMA micro-kernel (dgemm_avx2_amd64.s), same
// contract with MR=6, NR=8.
//
//go:noescape
func dgemmAVX2(k int, a, b, c *float64, ldc int, alpha, beta float64)

var (
	haveAVX512 = cpu.X86.HasAVX512F
	haveAVX2   = cpu.X86.HasAVX2 && cpu.X86.HasFMA
)

// avx512Kernel: 28 zmm accumulators (14 rows x 2 vectors of 8 doubles),
// 2 for the B row, 2 for broadcasts.  Blocking as for float32: KC=256
// measured a few percent above KC=128, MC made no measurable difference.
var avx512Kernel = &gemm.MicroKernel[float64]{
	Name: "avx512-14x16", MR: 14, NR: 16,
	KC: 256, MC: 14 * 32, NC: 4096,
	Fn:    dgemmAVX512,
	PackA: packA512,
	PackB: packB512,
}

// avx2Kernel: the 6x8 tile for 16 ymm registers.
var avx2Kernel = &gemm.MicroKernel[float64]{
	Name: "avx2-6x8", MR: 6, NR: 8,
	KC: 128, MC: 6 * 40, NC: 4096,
	Fn: dgemmAVX2,
}

// simdKernels lists the assembly micro-kernels this CPU runs, best first.
var simdKernels = func() []*gemm.MicroKernel[float64] {
	var ks []*gemm.MicroKernel[float64]
	if haveAVX512 {
		ks = append(ks, avx512Kernel)
	}
	if haveAVX2 {
		ks = append(ks, avx2Kernel)
	}
	return ks
}()
