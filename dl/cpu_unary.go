package dl

import (
	"math"

	"github.com/dlbd/dlbd/dl/internal/kernels/vec"
)

// Host elementwise kernels: one tight loop per operation over contiguous
// slices, selected by a switch outside the loop.  float32 math goes
// through float64 (math.Exp etc.) and rounds once, except where the vec
// package has a float32 loop: Exp (float64 lanes), ReLU and GELU (float32
// lanes, within 7 ulp of the float64 formula: see vec's gelu.go).  Large
// float tensors are split into pieces over dl's threads (inPieces):
// each element's result is the same on any number of threads.

func (cpuBackend) unary(op unaryOp, dst, src view) {
	if dst.st.dtype.isInt() {
		intKernel(dst, func(o []int64) { unaryI(op, o, elems[int64](src)) },
			func(o []int32) { unaryI(op, o, elems[int32](src)) }, func(o []uint8) { unaryI(op, o, elems[uint8](src)) })
		return
	}
	if dst.st.dtype == Float64 {
		inPieces(dst.f64(), src.f64(), func(o, x []float64) { unaryF(op, o, x) })
	} else {
		inPieces(dst.f32(), src.f32(), func(o, x []float32) { unaryF(op, o, x) })
	}
}

func unaryF[F float](op unaryOp, o, x []F) {
	x = x[:len(o)]
	switch op {
	case opNeg:
		for i, v := range x {
			o[i] = -v
		}
	case opExp:
		if o, ok := any(o).([]float32); ok { // 8 float64 lanes at a time, within 2 ulp of math.Exp
			vec.ExpScale(o, any(x).([]float32), 0, 1)
			return
		}
		for i, v := range x {
			o[i] = F(math.Exp(float64(v)))
		}
	case opLog:
		for i, v := range x {
			o[i] = F(math.Log(float64(v)))
		}
	case opSqrt:
		for i, v := range x {
			o[i] = F(math.Sqrt(float64(v)))
		}
	case opRsqrt:
		for i, v := range x {
			o[i] = F(1 / math.Sqrt(float64(v)))
		}
	case opTanh:
		for i, v := range x {
			o[i] = F(math.Tanh(float64(v)))
		}
	case opSigmoid:
		for i, v := range x {
			o[i] = F(sigmoid(float64(v)))
		}
	case opReLU:
		if o, ok := any(o).([]float32); ok { // AVX-512 where available
			vec.ReLU(o, any(x).([]float32))
			return
		}
		for i, v := range x {
			o[i] = max(v, 0) // NaN stays NaN, as in PyTorch
		}
	case opAbs:
		for i, v := range x {
			o[i] = F(math.Abs(float64(v)))
		}
	case opGELU:
		if o, ok := any(o).([]float32); ok { // 16 float32 lanes where available (within 7 ulp)
			vec.GELU(o, any(x).([]float32))
			return
		}
		for i, v := range x {
			o[i] = F(gelu(float64(v)))
		}
	case opGELUTanh:
		for i, v := range x {
			o[i] = F(geluTanh(float64(v)))
		}
	default:
		panic("dl: internal error: unknown unary op")
	}
}

// sigmoid is 1/(1+e^-x), written to avoid overflow for large |x|.
func sigmoid(x float64) float64 {
	if x >= 0 {
		return 1 / (1 + math.Exp(-x))
	}
	e := math.Exp(x)
	return e / (1 + e)
}

// gelu is x·Φ(x) = x/2·(1 + erf(x/√2)) (Hendrycks and Gimpel 2016).
func gelu(x float64) float64 { return 0.5 * x * (1 + math.Erf(x/math.Sqrt2)) }

// geluGrad is Φ(x) + x·φ(x).
func geluGrad(x float64) float64 {
	return 0.5*(1+math.Erf(x/math.Sqrt2)) + x*math.Exp(-0.5*x*x)/math.Sqrt(2*math.Pi)
}

// geluTanhC is √(2/π), the constant of the tanh approximation.
const geluTanhC = 0.7978845608028654

// geluTanh is x/2·(1 + tanh(√(2/π)(x + 0.044715x³))), PyTorch's
// approximate="tanh".
func geluTanh(x float64) float64 {
	return 0.5 * x * (1 + math.Tanh(geluTanhC*(x+0.044715*x*x*x)))
}

// geluTanhGrad is the derivative of geluTanh.
func geluTanhGrad(x float64) float64 {
	u := geluTanhC * (x + 0.044715*x*x*x)
	t := math.Tanh(u)
	du := geluTanhC * (1 + 3*0.044715*x*x)
	return 0.5*(1+t) + 0.5*x*(1-t*t)*du
}
