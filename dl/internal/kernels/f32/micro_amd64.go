//go:build !dlbd_noasm

package f32

import (
	"golang.org/x/sys/cpu"

	"github.com/dlbd/dlbd/dl/internal/kernels/gemm"
)

// sgemmAVX512 is the 14x32 AVX-512 micro-kernel (sgemm_avx512_amd64.s).
// It implements the contract of gemm.MicroKernel.Fn: for the 14x32 tile at
// c, c = alpha*Σ_p a[p*14+i]*b[p*32+j] + beta*c, c not read if beta == 0.
//
//go:noescape
func sgemmAVX512(k int, a, b, c *float32, ldc int, alpha, beta float32)

// sgemm8x48AVX512 is the 8x48 AVX-512 micro-kernel
// (sgemm8x48_avx512_amd64.s), same contract with MR=8, NR=48.
//
//go:noescape
func sgemm8x48AVX512(k int, a, b, c *float32, ldc int, alpha, beta float32)

// sgemmAVX2 is the 6x16 AVX2+FMA micro-kernel (sgemm_avx2_amd64.s), same
// contract with MR=6, NR=16.
//
//go:noescape
func sgemmAVX2(k int, a, b, c *float32, ldc int, alpha, beta float32)

var (
	haveAVX512 = cpu.X86.HasAVX512F
	haveAVX2   = cpu.X86.HasAVX2 && cpu.X86.HasFMA
)

// avx512Kernel: 14x32 uses 28 of the 32 zmm registers as accumulators
// (14 rows x 2 vectors of 16 floats), 2 for the B row and 2 for broadcast
// A values.  Per k step that is 28 FMAs against 2 vector + 14 broadcast
// loads: the FMA units are the bottleneck (Zen 4 issues one 512-bit FMA
// per cycle, Zen 5 two), not the loads.  Alone, on L1-resident panels, it
// runs at ~107 GFLOP/s on this project's Zen 4 machine: the FMA peak.
// Blocking (BenchmarkBlocking; the machine is Zen 4, 32 KiB L1d, 1 MiB L2):
// KC=256 beat 96..192 although the B micro-panel KC*NR*4 = 32 KiB then
// fills L1 (the A micro-panels stream from L2 fast enough); the A block
// MC*KC*4 = 448 KiB sits in half of L2.  NC = 1024 keeps the B block
// (KC*NC*4 = 1 MiB), which streams past every A micro-panel, in L2: on an
// Intel Xeon core with AMX (48 KiB L1d, 2 MiB L2) it beat NC = 4096 by
// ~10% on products with N = 2048 (BenchmarkBlockingNC).
var avx512Kernel = &gemm.MicroKernel[float32]{
	Name: "avx512-14x32", MR: 14, NR: 32,
	KC: 256, MC: 14 * 32, NC: 1024,
	Fn:    sgemmAVX512,
	PackA: packA512,
	PackB: packB512,
	Store: storeTile,
}

// avx512Kernel8x48 covers products whose rows are a multiple of 8 but
// not of 14 (the output channels of convolutions: 16, 32, 64) with less
// padding: 24 accumulators (8 rows x 3 vectors), 3 for the B row, 2 for
// broadcasts; per k step 24 FMAs against 3 vector + 8 broadcast loads.
// Blocking: the A block MC*KC*4 = 448 KiB as avx512Kernel's; the B
// micro-panel KC*NR*4 = 48 KiB fits an L1d of 48 KiB.
var avx512Kernel8x48 = &gemm.MicroKernel[float32]{
	Name: "avx512-8x48", MR: 8, NR: 48,
	KC: 256, MC: 8 * 56, NC: 1056,
	Fn:    sgemm8x48AVX512,
	PackA: packA512,
	PackB: packB512,
	Store: storeTile,
}

// avx2Kernel: the classic 6x16 for 16 ymm registers: 12 accumulators,
// 2 B vectors, 2 broadcasts.
var avx2Kernel = &gemm.MicroKernel[float32]{
	Name: "avx2-6x16", MR: 6, NR: 16,
	KC: 256, MC: 6 * 40, NC: 4096,
	Fn:    sgemmAVX2,
	PackA: packA6,
	PackB: packB16,
	Store: storeTileAVX2,
}

// tileKernels lists the alternatives to simdKernels[0] with other tiles
// (gemm.Kernels.Tiles).
var tileKernels = func() []*gemm.MicroKernel[float32] {
	if haveAVX512 {
		return []*gemm.MicroKernel[float32]{avx512Kernel8x48}
	}
	return nil
}()

// simdKernels lists the assembly micro-kernels this CPU runs, best first.
var simdKernels = func() []*gemm.MicroKernel[float32] {
	var ks []*gemm.MicroKernel[float32]
	if haveAVX512 {
		ks = append(ks, avx512Kernel)
	}
	if haveAVX2 {
		ks = append(ks, avx2Kernel)
	}
	return ks
}()
