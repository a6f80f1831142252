package dl

import (
	"fmt"
	"slices"
)

// Narrow returns length elements of t along axis starting at start, like
// torch.narrow.  Along axis 0 it is a view sharing t's memory (no copy);
// along other axes it copies.  It is differentiable.  It panics with a
// *ShapeError if the range is outside the axis.
func (t *Tensor) Narrow(axis, start, length int) *Tensor {
	const op = "Narrow"
	t.live(op)
	a := t.axis(op, axis)
	if start < 0 || length < 0 || start > t.shape[a] || length > t.shape[a]-start { // no start+length: it can overflow
		panic(shapeErr(op, [][]int{t.shape}, fmt.Sprintf("use 0 <= start <= start+length <= %d", t.shape[a]),
			"start %d and length %d are outside axis %d of shape %v", start, length, a, t.shape))
	}
	dims := slices.Clone(t.shape)
	dims[a] = length
	outer, n, inner := numel(t.shape[:a]), t.shape[a], numel(t.shape[a+1:])
	var out *Tensor
	if a == 0 {
		out = wrap(t.st, t.off+start*inner, dims)
	} else {
		out = t.like(op, dims)
		copyBlocks(out.v(op), t.v(op), outer, length*inner, n*inner, start*inner, true)
	}
	if needsGrad(t) {
		record(op, out, []*Tensor{t}, nil, func(g *Tensor) []*Tensor {
			z := ZerosLike(t)
			copyBlocks(g.v(op), z.v(op), outer, length*inner, n*inner, start*inner, false)
			return []*Tensor{z}
		})
	}
	return out
}

// Slice returns rows [start, end) of t along axis 0, a view sharing t's
// memory, like t[start:end] in PyTorch.
func (t *Tensor) Slice(start, end int) *Tensor {
	t.live("Slice")
	if len(t.shape) == 0 {
		panic(shapeErr("Slice", [][]int{t.shape}, "slice a tensor with at least one axis", "cannot slice a scalar"))
	}
	return t.Narrow(0, start, end-start)
}

// Index returns row i of t along axis 0 without that axis, a view, like
// t[i] in PyTorch.
func (t *Tensor) Index(i int) *Tensor {
	t.live("Index")
	s := t.Slice(i, i+1)
	out := s.Reshape(t.shape[1:]...)
	if !s.requiresGrad {
		s.Release()
	}
	return out
}

// copyBlocks copies, for each of outer blocks, chunk elements between a
// compact view (block stride chunk) and a wide one (block stride wide,
// starting at off): wide → compact when toCompact, else compact → wide.
func copyBlocks(compact, wide view, outer, chunk, wstride, off int, toCompact bool) {
	for o := 0; o < outer; o++ {
		c := compact.sub(o*chunk, chunk)
		w := wide.sub(o*wstride+off, chunk)
		if chunk == 0 {
			continue
		}
		if toCompact {
			copyView(c, w)
		} else {
			copyView(w, c)
		}
	}
}

// Cat concatenates tensors along axis, like torch.cat: all must have the
// same shape except along axis, and the same dtype and device.  It is
// differentiable.
func Cat(ts []*Tensor, axis int) *Tensor {
	const op = "Cat"
	if len(ts) == 0 {
		panic(shapeErr(op, nil, "pass at least one tensor", "no tensors to concatenate"))
	}
	first := ts[0]
	a := first.axis(op, axis)
	dims := slices.Clone(first.shape)
	dims[a] = 0
	shapes := make([][]int, len(ts))
	for i, t := range ts {
		t.live(op)
		sameDevice(op, first, t)
		sameDType(op, first, t)
		shapes[i] = t.shape
		ok := len(t.shape) == len(first.shape)
		for j := range t.shape {
			ok = ok && (j == a || t.shape[j] == first.shape[j])
		}
		if !ok {
			panic(shapeErr(op, shapes, "all tensors must have the same shape except along the axis",
				"tensor %d has shape %v, tensor 0 has %v (axis %d)", i, t.shape, first.shape, a))
		}
		dims[a] += t.shape[a]
	}
	out := first.like(op, dims)
	outer, inner := numel(dims[:a]), numel(dims[a+1:])
	off := 0
	for _, t := range ts {
		copyBlocks(t.v(op), out.v(op), outer, t.shape[a]*inner, dims[a]*inner, off*inner, false)
		off += t.shape[a]
	}
	if needsGrad(ts...) {
		record(op, out, slices.Clone(ts), nil, func(g *Tensor) []*Tensor {
			grads := make([]*Tensor, len(ts))
			off := 0
			for i, t := range ts {
				if t.requiresGrad {
					grads[i] = t.like(op, t.shape)
					copyBlocks(grads[i].v(op), g.v(op), outer, t.shape[a]*inner, dims[a]*inner, off*inner, true)
				}
				off += t.shape[a]
			}
			return grads
		})
	}
	return out
}

// Stack joins tensors of one shape along a new axis, like torch.stack.
func Stack(ts []*Tensor, axis int) *Tensor {
	if len(ts) == 0 {
		panic(shapeErr("Stack", nil, "pass at least one tensor", "no tensors to stack"))
	}
	us := make([]*Tensor, len(ts))
	for i, t := range ts {
		us[i] = t.Unsqueeze(axis)
	}
	out := Cat(us, axis)
	for _, u := range us {
		if !u.requiresGrad {
			u.Release()
		}
	}
	return out
}
