//go:build !amd64 || dlbd_noasm

package f32

// RowsGemm is the implicit GEMM of the AVX-512 build (rows_amd64.go);
// without assembly NewRowsGemm returns nil and callers build columns.
type RowsGemm struct{}

// NewRowsGemm returns nil: this build has no kernel for it.
func NewRowsGemm(m, k int, a []float32, lda int, rows []int) *RowsGemm { return nil }

// Run is never called on a nil product.
func (g *RowsGemm) Run(n int, b []float32, add bool, c []float32, ldc int) {
	panic("f32.RowsGemm.Run: no implicit GEMM in this build (NewRowsGemm returned nil)")
}
