package dl

// Softmax returns exp(t) / Σ exp(t) along axis, like torch.softmax.  It is
// numerically stable: the maximum along the axis is subtracted first, so
// large logits do not overflow.
func (t *Tensor) Softmax(axis int) *Tensor {
	const op = "Softmax"
	t = autocastFloat32(t)
	a := t.axis(op, axis)
	y := softmaxRaw(op, t, a, false)
	if needsGrad(t) { // dx = y·(g − Σ g·y)
		record(op, y, []*Tensor{t}, nil, func(g *Tensor) []*Tensor {
			gy := binaryRaw(op, opMul, g, y)
			s := reduceRaw(op, opSum, gy, []int{a}, true)
			gy.Release()
			d := binaryRaw(op, opSub, g, s)
			s.Release()
			d.inPlace(op, opMul, y)
			return []*Tensor{d}
		})
	}
	return y
}

// LogSoftmax returns t − log Σ exp(t) along axis, like torch.log_softmax,
// computed stably (max subtracted first) and without forming the softmax.
func (t *Tensor) LogSoftmax(axis int) *Tensor {
	const op = "LogSoftmax"
	t = autocastFloat32(t)
	a := t.axis(op, axis)
	y := softmaxRaw(op, t, a, true)
	if needsGrad(t) { // dx = g − softmax·Σ g
		record(op, y, []*Tensor{t}, nil, func(g *Tensor) []*Tensor {
			s := reduceRaw(op, opSum, g, []int{a}, true)
			p := unaryRaw(op, opExp, y)
			p.inPlace(op, opMul, s)
			s.Release()
			d := binaryRaw(op, opSub, g, p)
			p.Release()
			return []*Tensor{d}
		})
	}
	return y
}

// softmaxRaw computes softmax (or log-softmax) along axis a without
// autograd: m = max, s = x − m, then exp(s)/Σexp(s) or s − log Σexp(s).
func softmaxRaw(op string, t *Tensor, a int, log bool) *Tensor {
	requireFloat(op, t)
	m := reduceRaw(op, opMaxR, t, []int{a}, true)
	s := binaryRaw(op, opSub, t, m)
	m.Release()
	e := unaryRaw(op, opExp, s)
	z := reduceRaw(op, opSum, e, []int{a}, true)
	if log {
		e.Release()
		lz := unaryRaw(op, opLog, z)
		z.Release()
		s.inPlace(op, opSub, lz)
		lz.Release()
		return s
	}
	s.Release()
	e.inPlace(op, opDiv, z)
	z.Release()
	return e
}
