//go:build !dlbd_noasm

package vec

import "testing"

// TestTapRowsAVX2 runs TestTapRows's cases on the AVX2 loop (16-float
// segments, vector masks), which CPUs with AVX-512 do not take otherwise.
func TestTapRowsAVX2(t *testing.T) {
	if !haveAVX2 {
		t.Skip("no AVX2 with FMA")
	}
	was := haveAVX512
	haveAVX512 = false
	defer func() { haveAVX512 = was }()
	TestTapRows(t)
}

// TestTapDotsAVX2 runs TestTapDots's cases on the AVX2 loop.
func TestTapDotsAVX2(t *testing.T) {
	if !haveAVX2 {
		t.Skip("no AVX2 with FMA")
	}
	was := haveAVX512
	haveAVX512 = false
	defer func() { haveAVX512 = was }()
	TestTapDots(t)
}
