//go:build !amd64 || dlbd_noasm

package f32

// RowsGemm is the implicit GEMM of the amd64 build (rows_amd64.go);
// without assembly NewRowsGemm returns nil and callers build columns.
type RowsGemm struct{}

// NewRowsGemm returns nil: this build has no kernel for it.
func NewRowsGemm(m, k int, a []float32, lda int, rows []int) *RowsGemm { return nil }

// Run is never called on a nil product.
func (g *RowsGemm) Run(n int, b []float32, add bool, c []float32, ldc int) {
	panic("f32.RowsGemm.Run: no implicit GEMM in this build (NewRowsGemm returned nil)")
}

// Release does nothing: there is no product in this build.
func (g *RowsGemm) Release() {}

// RowsGemmNT is the weight-gradient product of the AVX-512 build
// (arows_amd64.go); without assembly NewRowsGemmNT returns nil.
type RowsGemmNT struct{}

// NewRowsGemmNT returns nil: this build has no kernel for it.
func NewRowsGemmNT(m, n int, rows []int) *RowsGemmNT { return nil }

// Run is never called on a nil product.
func (p *RowsGemmNT) Run(k int, a, b []float32, ldb int, add bool, c []float32, ldc int) {
	panic("f32.RowsGemmNT.Run: no kernel in this build (NewRowsGemmNT returned nil)")
}
