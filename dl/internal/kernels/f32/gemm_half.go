package f32

import (
	"fmt"

	"gonum.org/v1/gonum/blas"

	"github.com/dlbd/dlbd/dl/internal/kernels/gemm"
)

// Half is the storage format of GemmHalf's A and B.
type Half = gemm.Half

// The 16-bit formats GemmHalf reads.
const (
	Float16  = gemm.Float16  // IEEE 754 binary16
	BFloat16 = gemm.BFloat16 // bfloat16
)

// GemmHalf is Gemm with A and B stored as 16-bit floats of format h (their
// bits, as []uint16) and C in float32: C = alpha*op(A)*op(B) + beta*C with
// float32 accumulation, as mixed precision's matrix multiplies do.  The
// kernels decode A and B while they pack them, so no float32 copy of
// either is made, and the result equals, bit for bit, Gemm with the same
// kernel on the decoded operands (every 16-bit value is exactly a
// float32).  Only gonum's BLAS, which reads float32 slices only, decodes
// whole copies first.  Exception: bfloat16 with SIMD or Auto on a CPU
// with AVX512_BF16 uses the dot-product kernel (twice as fast, within
// float32 rounding, subnormals as zero; see micro_bf16.go).  It panics with a *gemm.ArgError on inconsistent
// arguments or an h that is not Float16 or BFloat16.
func GemmHalf(h Half, tA, tB blas.Transpose, m, n, k int, alpha float32, a []uint16, lda int, b []uint16, ldb int, beta float32, c []float32, ldc int) {
	GemmHalfWith(Auto, h, tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// GemmHalfWith is GemmHalf with an explicit kernel.
func GemmHalfWith(kern Kernel, h Half, tA, tB blas.Transpose, m, n, k int, alpha float32, a []uint16, lda int, b []uint16, ldb int, beta float32, c []float32, ldc int) {
	p := halfArgs("f32.GemmHalf", h, tA, tB, m, n, k, alpha, a, lda, ldb, beta, c, ldc)
	p.BH = b
	kernels.Run(int(kern), &p)
}

// GemmHalfRoundB is GemmHalfWith with B in float32, rounded to format h
// (to nearest even) as the kernel reads it: the result equals, bit for
// bit, GemmHalfWith on B cast to h first, without the cast's full-size
// copy (the AVX512_BF16 and AMX kernels round each block of B while they
// pack it; the others get B cast first).  Autocast's float32 weights use
// it.  It panics like GemmHalfWith.
func GemmHalfRoundB(kern Kernel, h Half, tA, tB blas.Transpose, m, n, k int, alpha float32, a []uint16, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	p := halfArgs("f32.GemmHalfRoundB", h, tA, tB, m, n, k, alpha, a, lda, ldb, beta, c, ldc)
	p.B, p.RoundB = b, true
	kernels.Run(int(kern), &p)
}

// halfArgs returns the arguments of a product with a 16-bit A of format h
// (B is set by the caller), panicking with a *gemm.ArgError naming op if
// h is not a 16-bit format.
func halfArgs(op string, h Half, tA, tB blas.Transpose, m, n, k int, alpha float32, a []uint16, lda, ldb int, beta float32, c []float32, ldc int) gemm.Args[float32] {
	if h != Float16 && h != BFloat16 {
		panic(&gemm.ArgError{Op: op, Msg: fmt.Sprintf("format %v is not a 16-bit float; use f32.Float16 or f32.BFloat16 (or f32.Gemm for float32 inputs)", h)})
	}
	return gemm.Args[float32]{
		Op: op, TransA: gemm.Trans(op, "tA", byte(tA)), TransB: gemm.Trans(op, "tB", byte(tB)),
		M: m, N: n, K: k, Alpha: alpha, LDA: lda, LDB: ldb, Beta: beta, C: c, LDC: ldc,
		Half: h, AH: a,
	}
}
