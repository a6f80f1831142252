package amp

import (
	"math"

	"github.com/dlbd/dlbd/dl"
)

// unscale multiplies g by inv in place and reports whether every element
// of the result is finite (torch _amp_foreach_non_finite_check_and_unscale_:
// one pass that unscales and checks).  Host gradients are updated through
// their memory; others with ScaleInPlace and a copy for the check.
func unscale(g *dl.Tensor, inv float64) bool {
	if g.Device().IsHost() {
		switch g.DType() {
		case dl.Float32:
			return unscaleSlice(g.Float32Data(), float32(inv))
		case dl.Float64:
			return unscaleSlice(g.Float64Data(), inv)
		}
	}
	g.ScaleInPlace(inv)
	return allFinite(g.Float64s())
}

func unscaleSlice[F float32 | float64](g []F, inv F) bool {
	finite := true
	for i, v := range g {
		v *= inv
		g[i] = v
		// v−v is 0 for finite v and NaN for ±Inf and NaN: no branch per
		// element on the common path.
		if v-v != 0 {
			finite = false
		}
	}
	return finite
}

func allFinite(xs []float64) bool {
	for _, v := range xs {
		if math.IsInf(v, 0) || math.IsNaN(v) {
			return false
		}
	}
	return true
}

// FlushedToZero returns how many elements of t are nonzero but become
// zero when rounded to dtype dt: the gradients that training in dt loses
// outright.  For float16 these are the values up to half its smallest
// subnormal, |x| ≤ 2⁻²⁵ ≈ 3·10⁻⁸ (round to nearest even); bfloat16 keeps
// float32's exponent range and flushes only below 2⁻¹³⁴ ≈ 4.6·10⁻⁴¹.
//
// Course: "Prácticas de eficiencia computacional" ("evita underflow en FP16").
func FlushedToZero(t *dl.Tensor, dt dl.DType) int {
	xs := t.Float64s()
	rounded := dl.FromSlice(xs).AsType(dt)
	defer rounded.Release()
	n := 0
	for i, v := range rounded.Float64s() {
		if v == 0 && xs[i] != 0 {
			n++
		}
	}
	return n
}
