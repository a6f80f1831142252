package optim

import (
	"math"
	"testing"
)

func TestClipKernels(t *testing.T) {
	// Two "tensors" [3, 4] and [12]: total norm sqrt(9+16+144) = 13.
	s := sumSquares([]float32{3, 4}) + sumSquares([]float64{12})
	total := math.Sqrt(s)
	if total != 13 {
		t.Errorf("total norm = %v; want 13", total)
	}
	if c := clipCoef(total, 1); math.Abs(c-1/(13+1e-6)) > 1e-15 {
		t.Errorf("clipCoef(13, 1) = %v; want 1/(13+1e-6)", c)
	}
	if c := clipCoef(total, 100); c != 1 {
		t.Errorf("clipCoef(13, 100) = %v; want 1 (no clipping)", c)
	}
	if c := clipCoef(0, 1); c != 1 {
		t.Errorf("clipCoef(0, 1) = %v; want 1", c)
	}
}
