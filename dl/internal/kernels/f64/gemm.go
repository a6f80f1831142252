package f64

import (
	"gonum.org/v1/gonum/blas"

	"github.com/dlbd/dlbd/dl/internal/kernels/gemm"
)

// Gemm computes C = alpha*op(A)*op(B) + beta*C on row-major data with the
// fastest available kernel, with exactly the signature and semantics of
// gonum's blas.Float64Level3.Dgemm: op(X) is X for blas.NoTrans and Xᵀ for
// blas.Trans (or blas.ConjTrans); op(A) is m x k, op(B) k x n, C m x n;
// lda, ldb, ldc are row strides.  When beta == 0, C is not read (NaN in C
// is overwritten).  It panics with a *gemm.ArgError if the arguments are
// inconsistent.
func Gemm(tA, tB blas.Transpose, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	GemmWith(Auto, tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// GemmWith is Gemm with an explicit kernel.  It panics with a
// *gemm.ArgError if kern is not Available.
func GemmWith(kern Kernel, tA, tB blas.Transpose, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	const op = "f64.Gemm"
	p := gemm.Args[float64]{
		Op: op, TransA: gemm.Trans(op, "tA", byte(tA)), TransB: gemm.Trans(op, "tB", byte(tB)),
		M: m, N: n, K: k, Alpha: alpha, A: a, LDA: lda, B: b, LDB: ldb, Beta: beta, C: c, LDC: ldc,
	}
	kernels.Run(int(kern), &p)
}

// GemmArgs computes the product p describes (a gemm.Args, as dl builds
// it) with kernel kern.  It panics like GemmWith.
func GemmArgs(kern Kernel, p *gemm.Args[float64]) { kernels.Run(int(kern), p) }

// SetThreads sets the number of goroutines Blocked and SIMD (and so Gemm)
// use per call; n <= 0 restores the default, runtime.GOMAXPROCS(0).  Like
// torch.set_num_threads.  Gonum's BLAS picks its own parallelism.  It
// returns the previous setting (0: the default), for a caller to restore.
func SetThreads(n int) int { return kernels.SetThreads(n) }

// Threads returns the number of goroutines a Gemm call uses.
func Threads() int { return kernels.Threads() }
