package f32

import "github.com/dlbd/dlbd/dl/internal/kernels/gemm"

// Kernel selects the algorithm behind GemmWith.
type Kernel int

// The kernels, slowest first.  All compute the same product (up to float32
// rounding order) and pass the same tests.
const (
	Auto    Kernel = gemm.KernelAuto    // the fastest available: SIMD if the CPU has it, else Blocked
	Naive   Kernel = gemm.KernelNaive   // the course's triple loop (i, j, p), one goroutine
	Blocked Kernel = gemm.KernelBlocked // BLIS-style packing and cache blocking in portable Go, parallel
	Gonum   Kernel = gemm.KernelGonum   // gonum.org/v1/gonum/blas/gonum's Sgemm (Go + SSE assembly; its own threads)
	SIMD    Kernel = gemm.KernelSIMD    // the Blocked driver around an AVX-512 or AVX2 assembly micro-kernel
)

// String returns the kernel's name: "auto", "naive", "blocked", "gonum" or
// "simd".
func (k Kernel) String() string { return gemm.KernelName(int(k)) }

// Available reports whether k runs on this machine: SIMD needs amd64 with
// AVX-512 or AVX2+FMA and a build without the dlbd_noasm tag; the others always
// run.
func (k Kernel) Available() bool { return kernels.Available(int(k)) }

// kernels holds this package's code paths and thread setting.
var kernels = &gemm.Kernels[float32]{
	Go:    gemm.GoMicroKernel[float32](),
	SIMD:  simdKernels,
	BF16:  bf16Kernels,
	Tiles: tileKernels,
	Gonum: gonumGemm,
}

// SIMDName returns the name of the micro-kernel SIMD uses on this machine
// (e.g. "avx512-14x32"), or "" when SIMD is not available.
func SIMDName() string {
	if len(simdKernels) == 0 {
		return ""
	}
	return simdKernels[0].Name
}

// HalfKernelName returns the name of the micro-kernel that SIMD (and
// Auto) use for products of depth k with operands of format h on this
// machine (e.g. "amx-bf16-32x32"), or "" when SIMD is not available.
func HalfKernelName(h Half, k int) string { return kernels.SIMDKernel(h, k) }

// RoundsB reports whether products with 16-bit operands of format h
// round a float32 B while packing it (GemmHalfRoundB without a full-size
// cast): where this machine has a SIMD kernel for h that does.
func RoundsB(h Half) bool {
	return len(simdKernels) > 0 && h == BFloat16 && kernels.BF16 != nil && kernels.BF16.RoundB
}
