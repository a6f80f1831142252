//go:build !dlbd_noasm

package vec

import "testing"

// TestGELUWithoutAssembly checks that an amd64 CPU with neither AVX-512
// nor AVX2 runs the float64 formulas on the whole slice (as other
// architectures do), not the slower float32 emulation that is the
// assembly's reference.
func TestGELUWithoutAssembly(t *testing.T) {
	was512, was2 := haveAVX512, haveAVX2
	haveAVX512, haveAVX2 = false, false
	defer func() { haveAVX512, haveAVX2 = was512, was2 }()
	x := make([]float32, 1000)
	g := make([]float32, len(x))
	for i := range x {
		x[i], g[i] = float32(i-500)/50, 1+float32(i%7)/8
	}
	got, want := make([]float32, len(x)), make([]float32, len(x))
	GELU(got, x)
	geluFloat64(want, x)
	gotG, wantG := make([]float32, len(x)), make([]float32, len(x))
	GELUGrad(gotG, g, x)
	geluGradFloat64(wantG, g, x)
	for i := range x {
		if !same(got[i], want[i]) || !same(gotG[i], wantG[i]) {
			t.Fatalf("x = %v: GELU %v, GELUGrad %v; the float64 formulas give %v and %v", x[i], got[i], gotG[i], want[i], wantG[i])
		}
	}
}
