package f64

import "github.com/dlbd/dlbd/dl/internal/kernels/gemm"

// GemmSerial is Gemm on the calling goroutine alone, with transposes as
// booleans, for work that ForEach already spreads over the threads (one
// attention head per goroutine).  It returns the context's error
// (dl.SetCancel) instead of panicking, so that it may run on a helper
// goroutine; inconsistent arguments still panic with a *gemm.ArgError.
func GemmSerial(tA, tB bool, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) error {
	p := gemm.Args[float64]{
		Op: "f64.GemmSerial", TransA: tA, TransB: tB,
		M: m, N: n, K: k, Alpha: alpha, A: a, LDA: lda, B: b, LDB: ldb, Beta: beta, C: c, LDC: ldc,
	}
	return kernels.RunSerial(&p)
}
