package f64

import (
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"

	"github.com/dlbd/dlbd/dl/internal/kernels/gemm"
)

// gonumGemm runs checked arguments through gonum's BLAS (Go with SSE
// assembly inner loops): the "use a library" data point next to our own
// kernels.
func gonumGemm(p *gemm.Args[float64]) {
	gonum.Implementation{}.Dgemm(transpose(p.TransA), transpose(p.TransB), p.M, p.N, p.K,
		p.Alpha, p.A, p.LDA, p.B, p.LDB, p.Beta, p.C, p.LDC)
}

func transpose(t bool) blas.Transpose {
	if t {
		return blas.Trans
	}
	return blas.NoTrans
}
