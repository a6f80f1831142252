package dl

import (
	"slices"
)

// Sum returns the sum over the given axes (all axes if none: a scalar),
// removing them, like torch.sum(t, dim).  Negative axes count from the
// end.  Float32 sums of whole rows accumulate in float64; sums of integer
// and Bool tensors are Int64 (a Bool sum counts the true values).
func (t *Tensor) Sum(axes ...int) *Tensor { return t.sum("Sum", axes, false) }

// SumKeepDim is Sum keeping the reduced axes with size 1 (torch:
// keepdim=True), so the result broadcasts against t.
func (t *Tensor) SumKeepDim(axes ...int) *Tensor { return t.sum("SumKeepDim", axes, true) }

// Mean returns the mean over the given axes (all axes if none), like
// torch.mean.  It panics with a *DTypeError on integer tensors, as
// PyTorch does: convert with AsType(dl.Float32) first.
func (t *Tensor) Mean(axes ...int) *Tensor { return t.mean("Mean", axes, false) }

// MeanKeepDim is Mean keeping the reduced axes with size 1.
func (t *Tensor) MeanKeepDim(axes ...int) *Tensor { return t.mean("MeanKeepDim", axes, true) }

func (t *Tensor) sum(name string, axes []int, keep bool) *Tensor {
	t = autocastFloat32(t)
	ax := t.normAxes(name, axes)
	if t.dtype.isInt() {
		return sumInt(name, t, ax, keep)
	}
	out := reduceRaw(name, opSum, t, ax, keep)
	if needsGrad(t) {
		in := t.shape
		record(name, out, []*Tensor{t}, nil, func(g *Tensor) []*Tensor {
			return []*Tensor{expandTo(g, ax, in)}
		})
	}
	return out
}

func (t *Tensor) mean(name string, axes []int, keep bool) *Tensor {
	t = autocastFloat32(t)
	ax := t.normAxes(name, axes)
	requireFloat(name, t)
	count := 1
	for _, a := range ax {
		count *= t.shape[a]
	}
	s := reduceRaw(name, opSum, t, ax, keep)
	out := scalarRaw(name, opMulS, s, 1/float64(count))
	s.Release()
	if needsGrad(t) {
		in := t.shape
		record(name, out, []*Tensor{t}, nil, func(g *Tensor) []*Tensor {
			e := expandTo(g, ax, in)
			e.scalarInPlace(name, opMulS, 1/float64(count))
			return []*Tensor{e}
		})
	}
	return out
}

// normAxes returns the sorted, normalised axes (all if none), panicking
// with a *ShapeError if one appears twice (-1 and rank-1 are the same), as
// PyTorch refuses "dim 0 appears multiple times in the list of dims".
func (t *Tensor) normAxes(op string, axes []int) []int {
	t.live(op)
	if len(axes) == 0 {
		all := make([]int, len(t.shape))
		for i := range all {
			all[i] = i
		}
		return all
	}
	ax := make([]int, len(axes))
	for i, a := range axes {
		ax[i] = t.axis(op, a)
	}
	slices.Sort(ax)
	for i := 1; i < len(ax); i++ {
		if ax[i] == ax[i-1] {
			panic(shapeErr(op, [][]int{t.shape}, "name each axis once",
				"axis %d appears more than once in %v", ax[i], axes))
		}
	}
	return ax
}

// reducedShape returns shape without (or with size 1 on) the axes.
func reducedShape(shape, axes []int, keep bool) []int {
	out := make([]int, 0, len(shape))
	for i, d := range shape {
		if slices.Contains(axes, i) {
			if keep {
				out = append(out, 1)
			}
			continue
		}
		out = append(out, d)
	}
	return out
}

// reduceRaw reduces t over the sorted axes ax without autograd.  Runs of
// adjacent axes are reduced in one kernel call, as [outer, n, inner].
func reduceRaw(name string, op reduceOp, t *Tensor, ax []int, keep bool) *Tensor {
	t.live(name)
	if halfStreams(t) && op == opSum && len(ax) == 1 && t.n > 0 { // a sum of rows, decoded a row at a time
		outer, n, inner := numel(t.shape[:ax[0]]), t.shape[ax[0]], numel(t.shape[ax[0]+1:])
		if inner > 1 {
			res := newTensor(name, t.dev, Float32, reducedShape(t.shape, ax, keep))
			sumRowsHalf(name, res.v(name).f32(), t, outer, n, inner)
			return finish(res, t.dtype, nil)
		}
	}
	cur := compute32(t)
	shape := slices.Clone(t.shape)
	for i := len(ax) - 1; i >= 0; {
		j := i // ax[j..i] is a run of adjacent axes
		for j > 0 && ax[j-1] == ax[j]-1 {
			j--
		}
		lo, hi := ax[j], ax[i]+1
		outer, n, inner := numel(shape[:lo]), numel(shape[lo:hi]), numel(shape[hi:])
		next := slices.Concat(shape[:lo], []int{1}, shape[hi:])
		res := newTensor(name, t.dev, cur.dtype, next)
		if res.n > 0 {
			if n == 0 {
				t.k(name).fill(res.v(name), 0)
			} else {
				reduceChunked(name, op, res.v(name), cur.v(name), outer, n, inner)
			}
		}
		if cur != t {
			cur.Release()
		}
		cur, shape = res, next
		i = j - 1
	}
	// cur has size 1 on every reduced axis (runs collapsed to one axis);
	// give it the final shape.
	final := reducedShape(t.shape, ax, keep)
	res := wrap(cur.st, cur.off, final)
	if cur != t {
		cur.Release()
	}
	dt := t.dtype
	if op == opArgMax && dt.IsHalf() {
		dt = Float32 // a 2-byte float cannot hold indices above 2048 exactly
	}
	return finish(res, dt, nil)
}

// reduceChunked runs the reduce kernel on bands of outer rows of about
// cancelChunk elements, checking the context of SetCancel before each
// (see chunked); a single row (a full reduction) is one call.
func reduceChunked(name string, op reduceOp, dst, src view, outer, n, inner int) {
	k := kernelsOf(name, dst.st.dev)
	row := n * inner
	if !dst.st.dev.IsHost() || outer < 2 || outer*row <= cancelChunk {
		CheckCancel(name)
		k.reduce(op, dst, src, outer, n, inner)
		return
	}
	band := max(1, cancelChunk/row)
	for o := 0; o < outer; o += band {
		CheckCancel(name)
		b := min(band, outer-o)
		k.reduce(op, dst.sub(o*inner, b*inner), src.sub(o*row, b*row), b, n, inner)
	}
}

// sumTo sums g over its broadcast axes so that it has shape (the
// gradient of a broadcast operand); it returns a new handle on g when the
// shapes already agree.
func sumTo(g *Tensor, shape []int) *Tensor {
	if slices.Equal(g.shape, shape) {
		return g.alias()
	}
	lead := len(g.shape) - len(shape)
	var ax []int
	for i := range g.shape {
		if i < lead || (shape[i-lead] == 1 && g.shape[i] != 1) {
			ax = append(ax, i)
		}
	}
	r := reduceRaw("sumTo", opSum, g, ax, false)
	out := r.Reshape(shape...)
	r.Release()
	return out
}

// reduceTemp is sumTo that also releases g (a temporary).
func reduceTemp(g *Tensor, shape []int) *Tensor {
	out := sumTo(g, shape)
	g.Release()
	return out
}

// expandTo broadcasts g (a reduction of a tensor of shape in over axes
// ax, with or without keepdim) back to shape in.
func expandTo(g *Tensor, ax []int, in []int) *Tensor {
	kept := reducedShape(in, ax, true)
	gk := g.Reshape(kept...)
	out := expandRaw(gk, in)
	gk.Release()
	return out
}

// expandRaw copies t broadcast to shape (like torch.expand followed by
// contiguous).
func expandRaw(t *Tensor, shape []int) *Tensor {
	const name = "Expand"
	broadcastShapes(name, t.shape, shape)
	t32 := compute32(t)
	out := newTensor(name, t.dev, t32.dtype, shape)
	if out.n > 0 {
		zero := newTensor(name, t.dev, t32.dtype, nil)
		t.k(name).fill(zero.v(name), 0)
		t.k(name).binary(opLeft, out.v(name), t32.v(name), zero.v(name), newBroadcast(shape, t.shape, nil))
		zero.Release()
	}
	return finish(out, t.dtype, []*Tensor{t}, t32)
}
