package dl

import (
	"fmt"
	"slices"
)

// indices copies a tensor of class indices (Int64, Int32 or Uint8, or
// floats holding integers, as dl stored them before it had integer
// dtypes) to host ints, checking that each is an integer in [0, n) or
// equal to ignore (when allowIgnore).
//
// It panics with a *DTypeError when t's dtype cannot hold every index in
// [0, n) exactly (float16 stores 2049 as 2048): a rounded index would
// silently pick another class or row.
func indices(op string, t *Tensor, n int, ignore int, allowIgnore bool) []int {
	t.live(op)
	if t.dtype == Bool {
		panic(&DTypeError{Op: op, DTypes: []DType{t.dtype}, Reason: "indices cannot be Bool", Fix: "use Int64 indices (AsType(dl.Int64))"})
	}
	if t.dtype.isInt() { // exact: only the range to check
		vals := t.Int64s()
		idx := make([]int, len(vals))
		for i, v := range vals {
			if (v < 0 || v >= int64(n)) && !(allowIgnore && v == int64(ignore)) {
				panic(shapeErr(op, [][]int{t.shape}, fmt.Sprintf("indices must be in [0, %d)", n),
					"index %d at position %d is out of range", v, i))
			}
			idx[i] = int(v)
		}
		return idx
	}
	if limit := exactIntLimit(t.dtype); n-1 > limit {
		panic(&DTypeError{Op: op, DTypes: []DType{t.dtype},
			Reason: fmt.Sprintf("indices of dtype %v are exact only up to %d, but indices here go up to %d (e.g. %d would be stored as %d)",
				t.dtype, limit, n-1, limit+1, limit),
			Fix: "store indices as Int64, like PyTorch's class targets and token ids"})
	}
	vals := t.Float64s()
	idx := make([]int, len(vals))
	for i, v := range vals {
		k := int(v)
		if float64(k) != v || ((k < 0 || k >= n) && !(allowIgnore && k == ignore)) {
			panic(shapeErr(op, [][]int{t.shape}, fmt.Sprintf("indices must be integers in [0, %d)", n),
				"index %v at position %d is out of range", v, i))
		}
		idx[i] = k
	}
	return idx
}

// exactIntLimit returns the largest integer L such that a float dtype
// represents every integer in [0, L] exactly: 2^(mantissa bits + 1).
func exactIntLimit(dt DType) int {
	switch dt {
	case Float16:
		return 1 << 11
	case BFloat16:
		return 1 << 8
	case Float32:
		return 1 << 24
	}
	return 1 << 53
}

// IndexSelect returns the rows of t (along axis 0) named by idx, a tensor
// of integer indices of any shape: the result has shape idx.shape +
// t.shape[1:].  It is the embedding lookup (torch.nn.functional.embedding,
// torch.index_select on axis 0).  Backward adds each output row's
// gradient into the row it came from.  It panics with a *ShapeError if an
// index is out of range.
func (t *Tensor) IndexSelect(idx *Tensor) *Tensor {
	const op = "IndexSelect"
	t.live(op)
	if len(t.shape) == 0 {
		panic(shapeErr(op, [][]int{t.shape}, "index a tensor with at least one axis", "cannot index a scalar"))
	}
	rows := indices(op, idx, t.shape[0], 0, false)
	rowLen := numel(t.shape[1:])
	dims := slices.Concat(idx.shape, t.shape[1:])
	out := t.like(op, dims)
	if out.n > 0 {
		t.ik(op).indexSelect(out.v(op), t.v(op), rows, rowLen)
	}
	if needsGrad(t) {
		record(op, out, []*Tensor{t}, nil, func(g *Tensor) []*Tensor {
			return []*Tensor{indexAddInto(op, t.shape, g, rows, rowLen)}
		})
	}
	return out
}

// indexAddInto returns zeros of shape dims with row rows[i] += g row i.
func indexAddInto(op string, dims []int, g *Tensor, rows []int, rowLen int) *Tensor {
	g32 := compute32(g)
	z := newTensor(op, g.dev, g32.dtype, dims)
	k := g.k(op)
	if z.n > 0 {
		k.fill(z.v(op), 0)
		if g32.n > 0 {
			g.ik(op).indexAdd(z.v(op), g32.v(op), rows, rowLen)
		}
	}
	return finish(z, g.dtype, []*Tensor{g}, g32)
}

// OneHot returns a tensor of shape idx.shape + [classes] with 1 at each
// index and 0 elsewhere, in idx's dtype and device, like
// torch.nn.functional.one_hot.  It is not differentiable.
func OneHot(idx *Tensor, classes int) *Tensor {
	const op = "OneHot"
	cls := indices(op, idx, classes, 0, false)
	flat := make([]int, len(cls))
	for i, c := range cls {
		flat[i] = i*classes + c
	}
	dt := idx.dtype
	if dt.isInt() { // built in Float32 (indexAdd is a float kernel), returned in idx's dtype
		dt = Float32
	}
	ones := Options{Device: idx.dev, DType: dt}.Ones(len(cls))
	out := indexAddInto(op, slices.Concat(idx.shape, []int{classes}), ones, flat, 1)
	ones.Release()
	if r := castTo(out, idx.dtype); r != out {
		out.Release()
		out = r
	}
	return out
}

// Where returns cond ? a : b elementwise with broadcasting, like
// torch.where: cond is a Bool mask (as PyTorch requires), or a tensor of
// a's dtype that is nonzero where a is taken.  It is differentiable in a
// and b.
func Where(cond, a, b *Tensor) *Tensor {
	const op = "Where"
	for _, t := range []*Tensor{cond, a, b} {
		t.live(op)
	}
	sameDevice(op, cond, a)
	sameDevice(op, a, b)
	sameDType(op, a, b)
	if cond.dtype != Bool {
		sameDType(op, cond, a)
	}
	checkInt(op, a, true)
	shape := broadcastShapes(op, broadcastShapes(op, cond.shape, a.shape), b.shape)
	cc := castTo(cond, a.dtype) // the kernel reads cond in a's dtype
	c, x, y := expandRaw(cc, shape), expandRaw(a, shape), expandRaw(b, shape)
	if cc != cond {
		cc.Release()
	}
	c32, x32, y32 := compute32(c), compute32(x), compute32(y)
	out := newTensor(op, a.dev, x32.dtype, shape)
	if out.n > 0 {
		a.ik(op).where(out.v(op), c32.v(op), x32.v(op), y32.v(op))
	}
	out = finish(out, a.dtype, []*Tensor{c, x, y}, c32, x32, y32)
	x.Release()
	y.Release()
	if !needsGrad(a, b) {
		c.Release()
		return out
	}
	record(op, out, []*Tensor{a, b}, []*Tensor{c}, func(g *Tensor) []*Tensor {
		var ga, gb *Tensor
		zero := ZerosLike(g)
		if a.requiresGrad {
			ga = reduceTemp(Where(c, g, zero), a.shape)
		}
		if b.requiresGrad {
			gb = reduceTemp(Where(c, zero, g), b.shape)
		}
		zero.Release()
		return []*Tensor{ga, gb}
	})
	return out
}

// MaskedFill returns t with value where mask is true (a Bool mask, or
// nonzero in t's dtype; it broadcasts to t's shape), like
// torch.Tensor.masked_fill; -Inf before a softmax is
// the causal mask of attention.  It is differentiable in t.
func (t *Tensor) MaskedFill(mask *Tensor, value float64) *Tensor {
	t.live("MaskedFill")
	v := t.opts().Scalar(value)
	out := Where(mask, v, t)
	v.Release()
	return out
}

// Max returns the maximum over axis (removed), like torch.amax(t, axis);
// NaN propagates.  Backward sends the gradient to the first maximum.  It
// panics with a *ShapeError if the axis has size 0.
func (t *Tensor) Max(axis int) *Tensor { return t.max("Max", axis, false) }

// MaxKeepDim is Max keeping the axis with size 1.
func (t *Tensor) MaxKeepDim(axis int) *Tensor { return t.max("MaxKeepDim", axis, true) }

// ArgMax returns the Int64 index of the first maximum along axis
// (removed), like torch.argmax; a NaN counts as the maximum.  It panics
// with a *ShapeError if the axis has size 0, as Max does.
func (t *Tensor) ArgMax(axis int) *Tensor {
	t.live("ArgMax")
	return argMaxRaw("ArgMax", t, t.nonEmptyAxis("ArgMax", axis), false)
}

// nonEmptyAxis normalises axis, panicking with a *ShapeError if it has
// size 0: the maximum of no elements does not exist (PyTorch: "Expected
// reduction dim to have non-zero size"), and returning 0 would be silently
// wrong.
func (t *Tensor) nonEmptyAxis(op string, axis int) int {
	a := t.axis(op, axis)
	if t.shape[a] == 0 {
		panic(shapeErr(op, [][]int{t.shape}, "reduce over an axis with at least one element (Sum of an empty axis is 0, Max has no value)",
			"axis %d of shape %v has size 0", a, t.shape))
	}
	return a
}

func (t *Tensor) max(name string, axis int, keep bool) *Tensor {
	t.live(name)
	a := t.nonEmptyAxis(name, axis)
	if t.dtype.isInt() {
		intOnHost(name, t)
	}
	out := reduceRaw(name, opMaxR, t, []int{a}, keep)
	if needsGrad(t) {
		arg := argMaxRaw(name, t, a, false)
		in := slices.Clone(t.shape)
		record(name, out, []*Tensor{t}, []*Tensor{arg}, func(g *Tensor) []*Tensor {
			n, inner := in[a], numel(in[a+1:])
			am := indices(name, arg, n, 0, false)
			flat := make([]int, len(am))
			for i, j := range am { // output (o, p) came from input (o, j, p)
				o, p := i/inner, i%inner
				flat[i] = (o*n+j)*inner + p
			}
			gf := g.Reshape(len(am))
			r := indexAddInto(name, in, gf, flat, 1)
			gf.Release()
			return []*Tensor{r}
		})
	}
	return out
}
