package f32

import (
	"gonum.org/v1/gonum/blas"

	"github.com/dlbd/dlbd/dl/internal/kernels/gemm"
)

// GemmBatched computes batch products C_i = alpha*op(A_i)*op(B_i) + beta*C_i
// of the same shape, where X_i starts at x[i*strideX] (like torch.bmm and
// cublasSgemmStridedBatched); a stride of 0 uses the same operand for
// every item.  The other arguments are as in Gemm.  Small items (an
// attention head) are spread over the goroutines whole; large ones run in
// turn, each on all of them.  It panics with a *gemm.ArgError if an item
// is inconsistent or the items of C overlap.
func GemmBatched(tA, tB blas.Transpose, m, n, k int, alpha float32, a []float32, lda, strideA int, b []float32, ldb, strideB int, beta float32, c []float32, ldc, strideC int, batch int) {
	GemmBatchedWith(Auto, tA, tB, m, n, k, alpha, a, lda, strideA, b, ldb, strideB, beta, c, ldc, strideC, batch)
}

// GemmBatchedWith is GemmBatched with an explicit kernel.
func GemmBatchedWith(kern Kernel, tA, tB blas.Transpose, m, n, k int, alpha float32, a []float32, lda, strideA int, b []float32, ldb, strideB int, beta float32, c []float32, ldc, strideC int, batch int) {
	const op = "f32.GemmBatched"
	p := gemm.Args[float32]{
		Op: op, TransA: gemm.Trans(op, "tA", byte(tA)), TransB: gemm.Trans(op, "tB", byte(tB)),
		M: m, N: n, K: k, Alpha: alpha, A: a, LDA: lda, B: b, LDB: ldb, Beta: beta, C: c, LDC: ldc,
	}
	kernels.RunBatched(int(kern), &p, gemm.Batched{Count: batch, StrideA: strideA, StrideB: strideB, StrideC: strideC})
}
