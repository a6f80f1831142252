//go:build !dlbd_noasm

package vec

import "testing"

// TestElementwiseAVX2 runs the elementwise loops' and the row sums' tests
// against their generic versions on the AVX2 loops, which CPUs with AVX-512 do not take
// otherwise.
func TestElementwiseAVX2(t *testing.T) {
	if !haveAVX2 {
		t.Skip("no AVX2 with FMA")
	}
	was := haveAVX512
	haveAVX512 = false
	defer func() { haveAVX512 = was }()
	t.Run("Axpy", TestAxpyMatchesGeneric)
	t.Run("ReLU", TestReLUMatchesGeneric)
	t.Run("ReLUValues", TestReLUValues)
	t.Run("ReLUGrad", TestReLUGradMatchesGeneric)
	t.Run("Add", TestAddMatchesGeneric)
	t.Run("Affine", TestAffineMatchesGeneric)
	t.Run("LayerNormRow", TestLayerNormRowMatchesGo) // Sum64 and SqDev64 bit for bit
	t.Run("Dot64", TestDot64AndSoftmaxGradMatchGo)
	t.Run("Rows", TestRowsMatchPerRow)
	t.Run("Stride2Rows", TestStride2Rows)
	t.Run("CopyRows", TestCopyRows)
	t.Run("Adam", TestAdamMatchesGeneric)
	t.Run("AdamValues", TestAdamValues)
}
