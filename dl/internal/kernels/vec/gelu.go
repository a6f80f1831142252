package vec

import "math"

// GELU and its gradient in float32 lanes, for the MLP of a Transformer
// block (Linear → GELU → Linear), whose [B·T, 4d] activation made
// math.Erf in a scalar loop about half of a training step.
//
// GELU(x) = x·Φ(x) with Φ the standard normal CDF, written with the
// complementary error function so that both tails keep their relative
// accuracy:
//
//	Φ(x) = 1 − erfc(z)/2 for x ≥ 0,  erfc(z)/2 for x < 0,  z = |x|/√2
//	erfc(z) ≈ t·exp(−z² + P(t)),  t = 1/(1 + z/2)
//
// P is the degree-9 polynomial of Numerical Recipes' erfcc (Press et al.,
// Numerical Recipes, 2nd ed., §6.2: a Chebyshev fit with fractional error
// below 1.2·10⁻⁷ for every z ≥ 0; 1.05·10⁻⁷ measured against math.Erfc).
// z² = x²/2 is carried as an exact pair hi + lo (a fused multiply-add
// gives the rounding error of x·x), because e^(−z²) turns an absolute
// error in z² into a relative one: with z² rounded to float32 the result
// at x = −5 would be ~20 ulp off.  The exponential is e^(c − hi − lo) =
// 2^k·e^r with k = round((c − hi)·log₂e), r reduced with ln 2 in a high
// and a low part (Cody and Waite), e^r by its Taylor polynomial to r⁷
// (truncation below 6·10⁻⁹ for |r| ≤ ln2/2), and 2^k applied by scaling
// the exponent (AVX-512's VSCALEFPS; math.Ldexp here), which rounds once
// into the subnormal range.  |x| is clamped to 15 first: erfc(15/√2) and
// φ(15) are below 10⁻⁴⁹, so beyond 15 Φ is exactly 0 or 1 and φ is 0 in
// float32 either way, and ±Inf and NaN need no special case: x·Φ gives
// +Inf, and NaN for −Inf (−Inf·0) and NaN, as x/2·(1 + erf(x/√2)) does in
// float64; the derivative is NaN at ±Inf (Inf·0), as Φ(x) + x·φ(x) is.
//
// The derivative is GELU′(x) = Φ(x) + x·φ(x), φ(x) = e^(−z²)/√(2π), a
// second exponential of the same pair.
//
// Measured against the float64 formulas with math.Erfc (TestGELUAccuracy):
// at most 6.7 float32 ulp (relative 4·10⁻⁷; the derivative: 6.1 ulp of
// its larger term).  Most of it is P evaluated in float32: its
// coefficients alternate in sign and add up to 7.6 in magnitude, so the
// Horner steps round terms larger than the result.  That is below what
// training notices, and the tails keep it, where an approximation of erf
// itself (Abramowitz and Stegun 7.1.26, 1.5·10⁻⁷ absolute) would lose
// all relative accuracy of Φ for x < −4.
// The AVX-512 loops (gelu_amd64.s) run the same float32 operations 16
// lanes at a time, and the AVX2 loops 8 (with 2^k as two exact powers of
// two, rounded once as VSCALEFPS rounds), so they agree with the Go loops
// geluGeneric and geluGradGeneric, which are their reference and do the
// tails of n%16 (n%8) elements; the Go loops emulate a float32 fused multiply-add with
// float64's math.FMA, which rounds twice and so can differ by 1 ulp in
// the rare case that the exact result lies within 2⁻²⁹ ulp of a float32
// rounding boundary (the test allows that ulp).  Without the assembly
// (other architectures, amd64 with neither AVX-512 nor AVX2, -tags
// dlbd_noasm) the whole
// slice goes through geluFloat64 and geluGradFloat64 instead: the float64
// formulas with math.Erfc, correctly rounded to float32 in practice, and
// 3x faster than the float32 emulation, whose conversions around every
// math.FMA cost more than the arithmetic.

// The constants, as float32 bits (gelu_amd64.s holds the same bits).
const (
	geluInvSqrt2   = 0x3f3504f3 // 1/√2
	geluInvSqrt2Pi = 0x3ecc422a // 1/√(2π)
	geluClamp      = 0x41700000 // 15
	geluLog2E      = 0x3fb8aa3b // log₂e
	geluLn2Hi      = 0x3f318000 // ln 2, high part (9 significant bits: k·Ln2Hi is exact)
	geluLn2Lo      = 0xb95e8083 // ln 2 − Ln2Hi
)

// geluP[i] is the coefficient of tⁱ in P (Numerical Recipes' erfcc).
var geluP = [10]float32{-1.26551223, 1.00002368, 0.37409196, 0.09678418, -0.18628806,
	0.27886807, -1.13520398, 1.48851587, -0.82215223, 0.17087277}

// geluE[i] is 1/i!, the Taylor coefficients of e^r.
var geluE = [8]float32{1, 1, 1.0 / 2, 1.0 / 6, 1.0 / 24, 1.0 / 120, 1.0 / 720, 1.0 / 5040}

func f32bits(b uint32) float32 { return math.Float32frombits(b) }

// fma32 is a float32 fused multiply-add, a·b + c rounded once (up to the
// double rounding described above).
func fma32(a, b, c float32) float32 { return float32(math.FMA(float64(a), float64(b), float64(c))) }

// lanes is how many elements the Go loops carry through each step
// together: the steps of one element form a long chain of dependent
// operations, and independent chains side by side let the processor
// overlap them (one element at a time ran 5x slower).
const lanes = 8

// block holds one value per lane.
type block = [lanes]float32

// expPairs sets e[j] = e^(c[j] − hi[j] − lo[j]) for j < n, as described
// above.  The explicit float32 conversions keep the compiler from fusing
// products and sums that the assembly rounds separately.
func expPairs(n int, c, hi, lo, e *block) {
	var k, r block
	for j := range n {
		k[j] = float32(math.RoundToEven(float64(float32(c[j]-hi[j]) * f32bits(geluLog2E))))
		r[j] = fma32(-k[j], f32bits(geluLn2Hi), -hi[j])
		r[j] = float32(r[j] + float32(c[j]-lo[j]))
		r[j] = fma32(-k[j], f32bits(geluLn2Lo), r[j])
		e[j] = geluE[7]
	}
	for i := 6; i >= 0; i-- {
		for j := range n {
			e[j] = fma32(e[j], r[j], geluE[i])
		}
	}
	for j := range n {
		e[j] = float32(math.Ldexp(float64(e[j]), int(k[j])))
	}
}

// geluParts sets phi[j] = Φ(x[j]) and hi[j] + lo[j] = min(|x[j]|, 15)²/2
// for the (at most lanes) elements of x.
func geluParts(x []float32, phi, hi, lo *block) {
	var t, p, e block
	for j, v := range x {
		ax := float32(math.Abs(float64(v)))
		if !(ax < f32bits(geluClamp)) { // VMINPS(ax, 15): 15 for NaN too
			ax = f32bits(geluClamp)
		}
		z := float32(ax * f32bits(geluInvSqrt2))
		t[j] = float32(1 / fma32(z, 0.5, 1))
		s := float32(ax * ax)
		hi[j], lo[j] = float32(0.5*s), float32(0.5*fma32(ax, ax, -s))
		p[j] = geluP[9]
	}
	for i := 8; i >= 0; i-- {
		for j := range x {
			p[j] = fma32(p[j], t[j], geluP[i])
		}
	}
	expPairs(len(x), &p, hi, lo, &e)
	for j, v := range x {
		h := float32(0.5 * float32(t[j]*e[j])) // erfc(z)/2
		phi[j] = float32(1 - h)
		if v < 0 {
			phi[j] = h
		}
	}
}

// GELU sets dst[i] = src[i]·Φ(src[i]), the exact (erf) GELU, like
// torch.nn.functional.gelu, within a few ulp (see above).  dst and src
// may be the same slice.  It panics if len(dst) != len(src).
func GELU(dst, src []float32) {
	check("GELU", len(dst), len(src))
	n := geluVec(dst, src)
	geluGeneric(dst[n:], src[n:])
}

// GELUGrad sets dst[i] = g[i]·GELU′(x[i]) = g[i]·(Φ(x) + x·φ(x)): the
// gradient of GELU from its input.  dst may be g or x.  It panics unless
// the lengths are equal.
func GELUGrad(dst, g, x []float32) {
	check("GELUGrad", len(dst), len(g))
	check("GELUGrad", len(dst), len(x))
	n := geluGradVec(dst, g, x)
	geluGradGeneric(dst[n:], g[n:], x[n:])
}

// geluGeneric is: for i, v := range src { dst[i] = v·Φ(v) } with Φ of
// geluParts, lanes elements at a time.
func geluGeneric(dst, src []float32) {
	src = src[:len(dst)]
	var phi, hi, lo block
	for i := 0; i < len(dst); i += lanes {
		x := src[i:min(i+lanes, len(dst))]
		geluParts(x, &phi, &hi, &lo)
		for j, v := range x {
			dst[i+j] = float32(v * phi[j])
		}
	}
}

// geluGradGeneric is: dst[i] = g[i]·(Φ(x) + x·φ(x)) for x = x[i], with
// Φ of geluParts and φ(x) = expPair(0, hi, lo)/√(2π), lanes elements at
// a time.
func geluGradGeneric(dst, g, x []float32) {
	g, x = g[:len(dst)], x[:len(dst)]
	var phi, hi, lo, zero, e block
	for i := 0; i < len(dst); i += lanes {
		xs := x[i:min(i+lanes, len(dst))]
		geluParts(xs, &phi, &hi, &lo)
		expPairs(len(xs), &zero, &hi, &lo, &e)
		for j, v := range xs {
			d := float32(e[j] * f32bits(geluInvSqrt2Pi)) // φ(x)
			dst[i+j] = float32(g[i+j] * fma32(v, d, phi[j]))
		}
	}
}

// geluFloat64 is dst[i] = x·Φ(x) in float64 for x = src[i], with
// Φ(x) = erfc(−x/√2)/2 (math.Erfc, accurate in both tails, where
// 1 + erf(x/√2) would cancel for x < −4): the loop without assembly (see
// above).
func geluFloat64(dst, src []float32) {
	src = src[:len(dst)]
	for i, v := range src {
		x := float64(v)
		dst[i] = float32(x * 0.5 * math.Erfc(-x/math.Sqrt2))
	}
}

// geluGradFloat64 is dst[i] = g·(Φ(x) + x·e^(−x²/2)/√(2π)) in float64.
func geluGradFloat64(dst, g, x []float32) {
	g, x = g[:len(dst)], x[:len(dst)]
	for i := range dst {
		v := float64(x[i])
		d := 0.5*math.Erfc(-v/math.Sqrt2) + v*math.Exp(-0.5*v*v)/math.Sqrt(2*math.Pi)
		dst[i] = float32(float64(g[i]) * d)
	}
}
