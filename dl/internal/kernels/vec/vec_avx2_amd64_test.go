//go:build !dlbd_noasm

package vec

import "testing"

// onAVX2 makes the package take its AVX2 loops until t ends (the AVX-512
// ones off, which CPUs with AVX-512 would take instead), or skips t on a
// CPU without AVX2.
func onAVX2(t *testing.T) {
	t.Helper()
	if !haveAVX2 {
		t.Skip("no AVX2 with FMA")
	}
	was512, wasExp := haveAVX512, haveExp
	haveAVX512, haveExp = false, false
	t.Cleanup(func() { haveAVX512, haveExp = was512, wasExp })
}

// TestAVX2Loops runs the tests of the vector loops against their Go
// references (bit for bit where those say so) on the AVX2 loops.
func TestAVX2Loops(t *testing.T) {
	onAVX2(t)
	for _, c := range []struct {
		name string
		test func(*testing.T)
	}{
		{"Axpy", TestAxpyMatchesGeneric},
		{"ReLU", TestReLUMatchesGeneric},
		{"ReLUValues", TestReLUValues},
		{"ReLUGrad", TestReLUGradMatchesGeneric},
		{"Add", TestAddMatchesGeneric},
		{"Max", TestMax},
		{"Affine", TestAffineMatchesGeneric},
		{"LayerNormRow", TestLayerNormRowMatchesGo}, // Sum64 and SqDev64 bit for bit
		{"LayerNormGradSums", TestLayerNormGradSumsLanes},
		{"Dot64", TestDot64AndSoftmaxGradMatchGo},
		{"Rows", TestRowsMatchPerRow},
		{"Stride2Rows", TestStride2Rows},
		{"MaxPool2Row", TestMaxPool2Row},
		{"CopyRows", TestCopyRows},
		{"Adam", TestAdamMatchesGeneric},
		{"AdamValues", TestAdamValues},
		{"TapRows", TestTapRows},
		{"TapDots", TestTapDots},
		{"GELUMatchesGeneric", TestGELUMatchesGeneric},
		{"GELUGradMatchesGeneric", TestGELUGradMatchesGeneric},
		{"GELUAccuracy", TestGELUAccuracy},
		{"GELUSpecials", TestGELUSpecials},
		{"ExpSumMatchesGeneric", TestExpSumMatchesGeneric},
		{"ExpScaleMatchesGeneric", TestExpScaleMatchesGeneric},
		{"ExpScaleSpecials", TestExpScaleSpecials},
	} {
		t.Run(c.name, c.test)
	}
}
