//go:build !dlbd_noasm

package vec

import (
	"fmt"
	"math"
	"testing"
)

// TestExpScaleSpecials checks the lanes that leave exp64's polynomial:
// ±Inf, NaN, beyond the overflow threshold and below the underflow one,
// bit for bit against expScaleGeneric (the scales bring exp's extremes
// into float32's range); TestAVX2Loops runs it on the AVX2 loop.
func TestExpScaleSpecials(t *testing.T) {
	x := []float32{float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()), 1e30, -1e30,
		709.7, 709.78, 710, -706.9, -707.1, 0, 1, -1, 88.7, -103.9, 100}
	for _, scale := range []float64{1e-300, 1e300} {
		got, want := make([]float32, len(x)), make([]float32, len(x))
		ExpScale(got, x, 0, scale)
		expScaleGeneric(want, x, 0, scale)
		compare(t, fmt.Sprintf("ExpScale(scale=%g)", scale), got, want)
	}
}
