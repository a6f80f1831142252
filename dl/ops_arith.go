package dl

// Add returns a + b elementwise with broadcasting (NumPy rules), like
// torch.add.  It panics with *ShapeError, *DeviceError or *DTypeError if
// the shapes do not broadcast or the devices or dtypes differ.
func (a *Tensor) Add(b *Tensor) *Tensor {
	a, b = autocastPromote(a, b)
	out := binaryRaw("Add", opAdd, a, b)
	if needsGrad(a, b) {
		record("Add", out, []*Tensor{a, b}, nil, func(g *Tensor) []*Tensor {
			var ga, gb *Tensor
			if a.requiresGrad {
				ga = sumTo(g, a.shape)
			}
			if b.requiresGrad {
				gb = sumTo(g, b.shape)
			}
			return []*Tensor{ga, gb}
		})
	}
	return out
}

// Sub returns a - b elementwise with broadcasting, like torch.sub.
func (a *Tensor) Sub(b *Tensor) *Tensor {
	a, b = autocastPromote(a, b)
	out := binaryRaw("Sub", opSub, a, b)
	if needsGrad(a, b) {
		record("Sub", out, []*Tensor{a, b}, nil, func(g *Tensor) []*Tensor {
			var ga, gb *Tensor
			if a.requiresGrad {
				ga = sumTo(g, a.shape)
			}
			if b.requiresGrad {
				gb = reduceTemp(g.Neg(), b.shape)
			}
			return []*Tensor{ga, gb}
		})
	}
	return out
}

// Mul returns a · b elementwise with broadcasting, like torch.mul.
func (a *Tensor) Mul(b *Tensor) *Tensor {
	a, b = autocastPromote(a, b)
	out := binaryRaw("Mul", opMul, a, b)
	if needsGrad(a, b) {
		record("Mul", out, []*Tensor{a, b}, nil, func(g *Tensor) []*Tensor {
			var ga, gb *Tensor
			if a.requiresGrad {
				ga = reduceTemp(g.Mul(b), a.shape)
			}
			if b.requiresGrad {
				gb = reduceTemp(g.Mul(a), b.shape)
			}
			return []*Tensor{ga, gb}
		})
	}
	return out
}

// Div returns a / b elementwise with broadcasting, like torch.div.
func (a *Tensor) Div(b *Tensor) *Tensor {
	a, b = autocastPromote(a, b)
	out := binaryRaw("Div", opDiv, a, b)
	if needsGrad(a, b) {
		record("Div", out, []*Tensor{a, b}, nil, func(g *Tensor) []*Tensor {
			var ga, gb *Tensor
			if a.requiresGrad {
				ga = reduceTemp(g.Div(b), a.shape)
			}
			if b.requiresGrad { // d(a/b)/db = -(a/b)/b
				t := g.Mul(out)
				u := t.Div(b)
				t.Release()
				gb = reduceTemp(u.Neg(), b.shape)
				u.Release()
			}
			return []*Tensor{ga, gb}
		})
	}
	return out
}

// Neg returns -t, like torch.neg.
func (t *Tensor) Neg() *Tensor { return t.MulScalar(-1) }

// AddScalar returns t + s, like torch.add(t, s).
func (t *Tensor) AddScalar(s float64) *Tensor {
	out := scalarRaw("AddScalar", opAddS, t, s)
	if needsGrad(t) {
		record("AddScalar", out, []*Tensor{t}, nil, func(g *Tensor) []*Tensor { return []*Tensor{g.alias()} })
	}
	return out
}

// SubScalar returns t - s.
func (t *Tensor) SubScalar(s float64) *Tensor { return t.AddScalar(-s) }

// MulScalar returns t · s, like torch.mul(t, s).
func (t *Tensor) MulScalar(s float64) *Tensor {
	out := scalarRaw("MulScalar", opMulS, t, s)
	if needsGrad(t) {
		record("MulScalar", out, []*Tensor{t}, nil, func(g *Tensor) []*Tensor { return []*Tensor{g.MulScalar(s)} })
	}
	return out
}

// DivScalar returns t / s, like torch.div(t, s).
func (t *Tensor) DivScalar(s float64) *Tensor {
	out := scalarRaw("DivScalar", opDivS, t, s)
	if needsGrad(t) {
		record("DivScalar", out, []*Tensor{t}, nil, func(g *Tensor) []*Tensor { return []*Tensor{g.DivScalar(s)} })
	}
	return out
}
