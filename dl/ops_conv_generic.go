package dl

import "math"

// Convolution and pooling on devices without host memory (CUDA): the
// backends have no convolution kernel, so these ops are composed of ops
// they have.  unfold2d gathers every window into a tensor
// [N, C, kH·kW, Ho·Wo] with the index kernels (one indexSelect of single
// elements from a copy of the input with one extra element holding the
// padding value; backward is the matching indexAdd), and Conv2d is then a
// batched MatMul with the weight, MaxPool2d a Max over the window axis
// and AvgPool2d a Sum.  It costs the index list in host memory (an int
// per gathered element, sent to the device on every call) and the
// gathered tensor, kH·kW times the input, on the device; the host
// kernels of ops_conv_kernel.go and ops_pool.go need neither.

// unfold2d returns the windows of x as [N, C, kH·kW, Ho·Wo] (pad where a
// window reaches into the padding); it is differentiable.
func unfold2d(op string, x *Tensor, g *convGeom, pad float64) *Tensor {
	n := x.n
	src := newTensor(op, x.dev, x.dtype, []int{n + 1})
	if n > 0 {
		copyView(src.v(op).sub(0, n), x.v(op))
	}
	x.k(op).fill(src.v(op).sub(n, 1), pad)
	idx := unfoldIndex(g, n)
	out := newTensor(op, x.dev, x.dtype, []int{g.n, g.c, g.kk(), g.l()})
	if out.n > 0 {
		x.ik(op).indexSelect(out.v(op), src.v(op), idx, 1)
	}
	src.Release()
	if needsGrad(x) {
		record(op, out, []*Tensor{x}, nil, func(gy *Tensor) []*Tensor {
			z := indexAddInto(op, []int{n + 1}, gy, idx, 1)
			gx := newTensor(op, x.dev, z.dtype, x.shape)
			if n > 0 {
				copyView(gx.v(op), z.v(op).sub(0, n))
			}
			z.Release()
			return []*Tensor{gx}
		})
	}
	return out
}

// unfoldIndex returns, for each element of unfold2d's result, the
// element of x it copies, or pad for the padding.
func unfoldIndex(g *convGeom, pad int) []int {
	kk, L, hw := g.kk(), g.l(), g.hw()
	idx := make([]int, g.n*g.c*kk*L)
	p := 0
	for plane := range g.n * g.c {
		for r := range kk {
			i, j := r/g.kw, r%g.kw
			for oy := range g.ho {
				iy := oy*g.sh - g.ph + i*g.dh
				for ox := range g.wo {
					ix := ox*g.sw - g.pw + j*g.dw
					if iy >= 0 && iy < g.h && ix >= 0 && ix < g.w {
						idx[p] = plane*hw + iy*g.w + ix
					} else {
						idx[p] = pad
					}
					p++
				}
			}
		}
	}
	return idx
}

// releaseWith disposes of the temporaries ts of a composed op that no
// graph will release: those with a node are the graph's; the others
// (results computed from inputs that do not require grad) are saved by
// the node of consumer, the op whose backward may read them, so the
// graph releases them after it, or released now if consumer has no node.
func releaseWith(consumer *Tensor, ts ...*Tensor) {
	for _, t := range ts {
		if t == nil || t == consumer || t.node != nil || t.requiresGrad {
			continue
		}
		if consumer.node != nil {
			consumer.node.saved = append(consumer.node.saved, t)
		} else {
			t.Release()
		}
	}
}

// conv2dGeneric is Conv2d composed of unfold2d, MatMul and Add: per
// sample and group, W_grp [og, kg] times the group's windows [kg, L].
func conv2dGeneric(op string, x, w, b *Tensor, g *convGeom) *Tensor {
	cols := unfold2d(op, x, g, 0)
	c4 := cols.Reshape(g.n, g.groups, g.kg(), g.l())
	w3 := w.Reshape(g.groups, g.og(), g.kg())
	p := w3.MatMul(c4) // [N, G, og, L]
	y := p.Reshape(g.n, g.cout, g.ho, g.wo)
	var b3, yb *Tensor
	if b != nil {
		b3 = b.Reshape(g.cout, 1, 1)
		yb = y.Add(b3)
	}
	out := y
	if yb != nil {
		out = yb
	}
	releaseWith(p, cols, c4, w3)
	releaseWith(out, p, y, b3)
	return out
}

// pool2dGeneric is MaxPool2d (max) or AvgPool2d composed of unfold2d and
// Max or Sum over the window axis.
func pool2dGeneric(op string, x *Tensor, g *convGeom, max bool) *Tensor {
	pad := 0.0
	if max {
		pad = math.Inf(-1)
	}
	cols := unfold2d(op, x, g, pad)
	var r, s *Tensor
	if max {
		r = cols.Max(2)
	} else {
		s = cols.Sum(2) // Float32 for a half x under autocast
		r = s.DivScalar(float64(g.kk()))
	}
	var c *Tensor
	if r.dtype != x.dtype {
		c = r.AsType(x.dtype)
	}
	y := r
	if c != nil {
		y = c
	}
	out := y.Reshape(g.n, g.c, g.ho, g.wo)
	releaseWith(out, cols, s, r, c)
	return out
}
