//go:build !dlbd_noasm

package vec

import (
	"fmt"
	"math"
	"testing"
)

// TestExpAVX2 runs the tests of the vector exponentials against their Go
// reference (bit for bit) on the AVX2 loops, which CPUs with AVX-512DQ
// do not take otherwise.
func TestExpAVX2(t *testing.T) {
	if !haveAVX2 {
		t.Skip("no AVX2 with FMA")
	}
	was := haveExp
	haveExp = false
	defer func() { haveExp = was }()
	t.Run("SumMatchesGeneric", TestExpSumMatchesGeneric)
	t.Run("ScaleMatchesGeneric", TestExpScaleMatchesGeneric)
}

// TestExpScaleSpecials checks the lanes that leave exp64's polynomial:
// ±Inf, NaN, beyond the overflow threshold and below the underflow one,
// on every loop this CPU has, bit for bit against expScaleGeneric (the
// scales bring exp's extremes into float32's range).
func TestExpScaleSpecials(t *testing.T) {
	x := []float32{float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()), 1e30, -1e30,
		709.7, 709.78, 710, -706.9, -707.1, 0, 1, -1, 88.7, -103.9, 100}
	run := func(t *testing.T) {
		for _, scale := range []float64{1e-300, 1e300} {
			got, want := make([]float32, len(x)), make([]float32, len(x))
			ExpScale(got, x, 0, scale)
			expScaleGeneric(want, x, 0, scale)
			compare(t, fmt.Sprintf("ExpScale(scale=%g)", scale), got, want)
		}
	}
	t.Run("default", run)
	if haveAVX2 && haveExp {
		haveExp = false
		defer func() { haveExp = true }()
		t.Run("avx2", run)
	}
}
