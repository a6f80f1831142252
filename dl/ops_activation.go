package dl

// unaryGradOut records a unary op whose gradient is kernel(g, y) of the
// output y (ReLU, sigmoid, tanh), or of the input x when useInput is set
// (GELU).
func unaryGrad(name string, out, x *Tensor, grad binaryOp, useInput bool) *Tensor {
	if needsGrad(x) {
		record(name, out, []*Tensor{x}, nil, func(g *Tensor) []*Tensor {
			y := out
			if useInput {
				y = x
			}
			return []*Tensor{binaryRaw(name+" backward", grad, g, y)}
		})
	}
	return out
}

// ReLU returns max(t, 0) elementwise, like torch.relu.
func (t *Tensor) ReLU() *Tensor {
	return unaryGrad("ReLU", unaryRaw("ReLU", opReLU, t), t, opReLUGrad, false)
}

// Sigmoid returns 1/(1+e^-t) elementwise, like torch.sigmoid.
func (t *Tensor) Sigmoid() *Tensor {
	return unaryGrad("Sigmoid", unaryRaw("Sigmoid", opSigmoid, t), t, opSigmoidGrad, false)
}

// Tanh returns tanh(t) elementwise, like torch.tanh.
func (t *Tensor) Tanh() *Tensor {
	return unaryGrad("Tanh", unaryRaw("Tanh", opTanh, t), t, opTanhGrad, false)
}

// GELU returns x·Φ(x) elementwise with Φ the standard normal CDF (the
// exact erf form), like torch.nn.functional.gelu.
// Paper: Hendrycks and Gimpel 2016, Gaussian Error Linear Units (arXiv:1606.08415).
func (t *Tensor) GELU() *Tensor {
	return unaryGrad("GELU", unaryRaw("GELU", opGELU, t), t, opGELUGrad, true)
}

// GELUTanh returns the tanh approximation of GELU,
// x/2·(1 + tanh(√(2/π)(x + 0.044715x³))), like
// torch.nn.functional.gelu(approximate="tanh") (GPT-2's choice).
func (t *Tensor) GELUTanh() *Tensor {
	return unaryGrad("GELUTanh", unaryRaw("GELUTanh", opGELUTanh, t), t, opGELUTanhGrad, true)
}

// Exp returns e^t elementwise, like torch.exp.
func (t *Tensor) Exp() *Tensor {
	t = autocastFloat32(t)
	out := unaryRaw("Exp", opExp, t)
	if needsGrad(t) {
		record("Exp", out, []*Tensor{t}, nil, func(g *Tensor) []*Tensor { return []*Tensor{g.Mul(out)} })
	}
	return out
}

// Log returns the natural logarithm elementwise, like torch.log.
func (t *Tensor) Log() *Tensor {
	t = autocastFloat32(t)
	out := unaryRaw("Log", opLog, t)
	if needsGrad(t) {
		record("Log", out, []*Tensor{t}, nil, func(g *Tensor) []*Tensor { return []*Tensor{g.Div(t)} })
	}
	return out
}

// Sqrt returns √t elementwise, like torch.sqrt.
func (t *Tensor) Sqrt() *Tensor {
	out := unaryRaw("Sqrt", opSqrt, t)
	if needsGrad(t) {
		record("Sqrt", out, []*Tensor{t}, nil, func(g *Tensor) []*Tensor {
			h := g.Div(out)
			h.scalarInPlace("Sqrt backward", opMulS, 0.5)
			return []*Tensor{h}
		})
	}
	return out
}

// Pow returns t^p elementwise, like torch.pow(t, p).
func (t *Tensor) Pow(p float64) *Tensor {
	t = autocastFloat32(t)
	out := scalarRaw("Pow", opPowS, t, p)
	if needsGrad(t) {
		record("Pow", out, []*Tensor{t}, nil, func(g *Tensor) []*Tensor {
			d := scalarRaw("Pow backward", opPowS, t, p-1)
			d.scalarInPlace("Pow backward", opMulS, p)
			r := g.Mul(d)
			d.Release()
			return []*Tensor{r}
		})
	}
	return out
}
