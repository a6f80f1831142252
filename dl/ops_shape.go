package dl

import (
	"fmt"
	"slices"
)

// Reshape returns a tensor with t's elements in the same row-major order
// and shape dims, sharing t's memory (no copy), like torch.reshape.  One
// dimension may be -1: it is inferred.  It panics with a *ShapeError if
// the element counts differ.  Reshape is differentiable.
func (t *Tensor) Reshape(dims ...int) *Tensor {
	const op = "Reshape"
	t.live(op)
	shape := inferShape(op, t.shape, dims)
	out := wrap(t.st, t.off, shape)
	if needsGrad(t) {
		in := t.shape
		record(op, out, []*Tensor{t}, nil, func(g *Tensor) []*Tensor { return []*Tensor{g.Reshape(in...)} })
	}
	return out
}

// View is Reshape: dl tensors are always contiguous, so every reshape is a
// view sharing memory, like torch.Tensor.view.
func (t *Tensor) View(dims ...int) *Tensor { return t.Reshape(dims...) }

// Flatten returns t as a 1-D view, like torch.flatten.
func (t *Tensor) Flatten() *Tensor { return t.Reshape(-1) }

// inferShape resolves one -1 in dims and checks the element count (the
// product of the other sizes may not overflow, see MaxElements).
func inferShape(op string, from, dims []int) []int {
	shape := slices.Clone(dims)
	infer := -1
	for i, d := range shape {
		switch {
		case d == -1 && infer < 0:
			infer = i
		case d < 0:
			panic(shapeErr(op, [][]int{from, dims}, "use at most one -1 and no other negative size", "invalid shape %v", dims))
		}
	}
	n := numel(from)
	known := checkedNumel(op, slices.Delete(slices.Clone(shape), max(infer, 0), max(infer+1, 0)))
	if infer >= 0 && known > 0 && n%known == 0 {
		shape[infer] = n / known
	}
	if (infer >= 0 && (known == 0 || n%known != 0)) || (infer < 0 && known != n) {
		panic(shapeErr(op, [][]int{from, dims}, "the new shape must hold the same number of elements",
			"cannot reshape %v (%d elements) to %v", from, n, dims))
	}
	return shape
}

// Unsqueeze returns a view with a dimension of size 1 inserted at axis
// (-1 appends), like torch.unsqueeze.
func (t *Tensor) Unsqueeze(axis int) *Tensor {
	t.live("Unsqueeze")
	r := len(t.shape)
	if axis < 0 {
		axis += r + 1
	}
	if axis < 0 || axis > r {
		panic(shapeErr("Unsqueeze", [][]int{t.shape}, "axes go from -(rank+1) to rank",
			"axis out of range for a tensor of shape %v", t.shape))
	}
	dims := slices.Insert(slices.Clone(t.shape), axis, 1)
	return t.Reshape(dims...)
}

// Squeeze returns a view without the given axes of size 1, or without all
// axes of size 1 if none are given, like torch.squeeze.  It panics with a
// *ShapeError if a given axis does not have size 1.
func (t *Tensor) Squeeze(axes ...int) *Tensor {
	t.live("Squeeze")
	drop := make([]bool, len(t.shape))
	for _, a := range axes {
		a = t.axis("Squeeze", a)
		if t.shape[a] != 1 {
			panic(shapeErr("Squeeze", [][]int{t.shape}, "squeeze only axes of size 1",
				"axis %d has size %d in shape %v", a, t.shape[a], t.shape))
		}
		drop[a] = true
	}
	var dims []int
	for i, d := range t.shape {
		if !(drop[i] || (len(axes) == 0 && d == 1)) {
			dims = append(dims, d)
		}
	}
	return t.Reshape(dims...)
}

// Permute returns a copy of t whose axis i is t's axis perm[i], like
// torch.permute.  (PyTorch returns a strided view; dl tensors are always
// contiguous, so this costs one pass over the data.)  It is
// differentiable.
func (t *Tensor) Permute(perm ...int) *Tensor {
	const op = "Permute"
	t.live(op)
	r := len(t.shape)
	p := make([]int, len(perm))
	seen := make([]bool, r)
	for i, a := range perm {
		if a < 0 {
			a += r
		}
		if len(perm) != r || a < 0 || a >= r || seen[a] {
			panic(shapeErr(op, [][]int{t.shape}, fmt.Sprintf("pass each of the %d axes exactly once", r),
				"%v is not a permutation of the axes of shape %v", perm, t.shape))
		}
		seen[a], p[i] = true, a
	}
	dims := make([]int, r)
	for i, a := range p {
		dims[i] = t.shape[a]
	}
	out := t.like(op, dims)
	if t.n > 0 {
		t.k(op).permute(out.v(op), t.v(op), t.shape, p)
	}
	if needsGrad(t) {
		inv := make([]int, r)
		for i, a := range p {
			inv[a] = i
		}
		record(op, out, []*Tensor{t}, nil, func(g *Tensor) []*Tensor { return []*Tensor{g.Permute(inv...)} })
	}
	return out
}

// Transpose returns a copy of t with axes a0 and a1 swapped, like
// torch.transpose (a copy: see Permute).  MatMul's autograd never
// transposes: it passes transpose flags to the GEMM kernel instead.
func (t *Tensor) Transpose(a0, a1 int) *Tensor {
	a0, a1 = t.axis("Transpose", a0), t.axis("Transpose", a1)
	perm := make([]int, len(t.shape))
	for i := range perm {
		perm[i] = i
	}
	perm[a0], perm[a1] = perm[a1], perm[a0]
	return t.Permute(perm...)
}

// T returns the transpose of a 2-D tensor, like torch.Tensor.T.
func (t *Tensor) T() *Tensor {
	t.live("T")
	if len(t.shape) != 2 {
		panic(shapeErr("T", [][]int{t.shape}, "use Transpose or Permute for other ranks", "T needs a 2-D tensor, got shape %v", t.shape))
	}
	return t.Transpose(0, 1)
}
