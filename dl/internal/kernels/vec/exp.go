package vec

import "math"

// Exponentials for softmax and cross-entropy: float32 inputs, computed in
// float64 with a polynomial that the AVX-512 loops (exp_amd64.s) evaluate
// 8 lanes at a time with the same operations, so the vector and the
// scalar versions agree bit for bit.
//
// exp(d) = 2^k · e^r with k = round(d·log₂e) (ties to even) and
// r = d − k·ln2 (|r| ≤ ln2/2, ln2 split in a high and a low part as in
// math.Exp, both subtracted with fused multiply-adds); e^r by its Taylor
// polynomial to r¹³ (truncation error |r|¹⁴/14! < 5·10⁻¹⁸, far below
// float64's 1.1·10⁻¹⁶) in Horner form with fused multiply-adds; 2^k by
// adding k to the exponent bits.  Measured against math.Exp on 2·10⁶
// points of [−707, 709.78] (TestExp64): at most 2 ulp (float64), so the
// float32 results these loops produce are correctly rounded except in
// rare ties.  Below d = −707 the result is 0 (the true value, < 10⁻³⁰⁷,
// is 0 in float32); above 709.78, +Inf; NaN gives NaN.

// The constants, as float64 bits (exp_amd64.s holds the same bits).
const (
	expLog2E = 0x3ff71547652b82fe // log₂e
	expLn2Hi = 0x3fe62e42fee00000 // ln2, high part (math.Exp's Ln2Hi)
	expLn2Lo = 0x3dea39ef35793c76 // ln2 − Ln2Hi (math.Exp's Ln2Lo)
	expUnder = -707.0             // below: 0
	expOver  = 709.782712893384   // above: +Inf (math.Exp's Overflow)
)

// expCoef[i] is 1/i!, rounded to float64.
var expCoef = [14]uint64{
	0x3ff0000000000000, 0x3ff0000000000000, 0x3fe0000000000000, 0x3fc5555555555555,
	0x3fa5555555555555, 0x3f81111111111111, 0x3f56c16c16c16c17, 0x3f2a01a01a01a01a,
	0x3efa01a01a01a01a, 0x3ec71de3a556c734, 0x3e927e4fb7789f5c, 0x3e5ae64567f544e4,
	0x3e21eed8eff8d898, 0x3de6124613a86d09,
}

// exp64 is the scalar exponential every loop of this file computes.
func exp64(d float64) float64 {
	switch {
	case d < expUnder:
		return 0
	case d > expOver:
		return math.Inf(1)
	}
	k := math.RoundToEven(d * math.Float64frombits(expLog2E))
	r := math.FMA(-k, math.Float64frombits(expLn2Hi), d)
	r = math.FMA(-k, math.Float64frombits(expLn2Lo), r)
	// The tail r³·(c3 + … + c13·r¹⁰) in Estrin's scheme (pairs, then pairs
	// of pairs, in r², r⁴, r⁸: 4 dependent steps instead of 10), then the
	// leading terms in Horner's form, which rounds 1 + r·(…) last.
	c := func(i int) float64 { return math.Float64frombits(expCoef[i]) }
	r2 := r * r
	q0, q1, q2 := math.FMA(c(4), r, c(3)), math.FMA(c(6), r, c(5)), math.FMA(c(8), r, c(7))
	q3, q4 := math.FMA(c(10), r, c(9)), math.FMA(c(12), r, c(11))
	s0, s1, s2 := math.FMA(q1, r2, q0), math.FMA(q3, r2, q2), math.FMA(c(13), r2, q4)
	r4 := r2 * r2
	h := math.FMA(s2, r4*r4, math.FMA(s1, r4, s0))
	p := math.FMA(math.FMA(math.FMA(h, r, c(2)), r, c(1)), r, c(0))
	// p·2^k; for NaN, int64(k) is 0x8000000000000000 (as VCVTPD2QQ gives)
	// and the shift leaves p's bits alone.
	return math.Float64frombits(math.Float64bits(p) + uint64(int64(k))<<52)
}

// Exp returns e^d as exp64 computes it (at most 2 ulp from math.Exp; 0
// below −707).
func Exp(d float64) float64 { return exp64(d) }

// ExpSum returns Σ exp(float64(x[i]) − shift), accumulated in float64:
// softmax's and cross-entropy's normaliser, with shift the row maximum.
// The sum runs in 32 lanes (4 vectors of 8) over the first len(x)&^31
// elements, combined in a fixed tree, then adds the rest in order; the Go
// and the vector versions agree bit for bit.
func ExpSum(x []float32, shift float64) float64 {
	n := len(x) &^ 31
	s := expSumVec(x[:n], shift)
	for _, v := range x[n:] {
		s += exp64(float64(v) - shift)
	}
	return s
}

// expSumGeneric is ExpSum's vector part in Go: 32 lane sums, then
// (l[j] + l[8+j]) + (l[16+j] + l[24+j]) for each of 8 lanes j, then
// ((w0+w4) + (w2+w6)) + ((w1+w5) + (w3+w7)), the order of the assembly's
// reduction.  len(x) is a multiple of 32.
func expSumGeneric(x []float32, shift float64) float64 {
	var l [32]float64
	for i := 0; i < len(x); i += 32 {
		for j := range l {
			l[j] += exp64(float64(x[i+j]) - shift)
		}
	}
	var w [8]float64
	for j := range w {
		w[j] = (l[j] + l[8+j]) + (l[16+j] + l[24+j])
	}
	return ((w[0] + w[4]) + (w[2] + w[6])) + ((w[1] + w[5]) + (w[3] + w[7]))
}

// ExpScale sets dst[i] = float32(scale · exp(float64(x[i]) − shift)):
// cross-entropy's gradient coef·softmax.  It panics if len(dst) != len(x).
func ExpScale(dst, x []float32, shift, scale float64) {
	check("ExpScale", len(dst), len(x))
	n := expScaleVec(dst, x, shift, scale)
	expScaleGeneric(dst[n:], x[n:], shift, scale)
}

// expScaleGeneric is: dst[i] = float32(scale * exp64(float64(x[i]) - shift)).
func expScaleGeneric(dst, x []float32, shift, scale float64) {
	x = x[:len(dst)]
	for i, v := range x {
		dst[i] = float32(scale * exp64(float64(v)-shift))
	}
}
