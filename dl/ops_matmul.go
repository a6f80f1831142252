package dl

import (
	"fmt"
	"slices"
)

// MatMul returns the matrix product of a and b with the fastest kernel,
// like torch.matmul: 2-D × 2-D is a matrix product; with more dimensions
// the leading ones are batch dimensions and broadcast (an [B, m, k] ×
// [k, n] product is one large GEMM); a 1-D operand is a vector (a row for
// a, a column for b) whose axis is removed from the result.  Float16 and
// BFloat16 are multiplied in float32 (float32 accumulation) and rounded
// once.  It panics with a *ShapeError if the inner dimensions differ.
// MatMul is differentiable; its backward calls the GEMM kernel with
// transpose flags, never materialising a transpose.
func (a *Tensor) MatMul(b *Tensor) *Tensor { return MatMulWith(MatMulAuto, a, b) }

// MatMulWith is MatMul with an explicit kernel (also for its backward), to
// compare the naive loop, blocked Go, BLAS and SIMD.  It panics with a
// *DeviceError if the kernel is not available on this machine.
func MatMulWith(kern MatMulKernel, a, b *Tensor) *Tensor {
	const op = "MatMul"
	a.live(op)
	b.live(op)
	requireFloat(op, a, b)
	if autocastMode.Active() {
		if ab := autocast(a, b); ab[0] != a || ab[1] != b {
			return autocastRelease(MatMulWith(kern, ab[0], ab[1]), []*Tensor{a, b}, ab)
		}
	}
	sameDevice(op, a, b)
	sameDType(op, a, b)
	if !kern.Available() {
		panic(&DeviceError{Op: op, Devices: []Device{a.dev}, Reason: fmt.Sprintf("matmul kernel %v is not available on this machine", kern),
			Fix: "pick one of dl.MatMulKernels()"})
	}
	if len(a.shape) == 0 || len(b.shape) == 0 {
		panic(shapeErr(op, [][]int{a.shape, b.shape}, "use Mul for products with a scalar",
			"MatMul needs tensors with at least 1 dimension, got %v and %v", a.shape, b.shape))
	}
	if len(a.shape) == 1 || len(b.shape) == 1 {
		return matmulVector(kern, a, b)
	}
	return matmulND(kern, a, b)
}

// matmulVector handles 1-D operands by viewing them as matrices.
func matmulVector(kern MatMulKernel, a, b *Tensor) *Tensor {
	a2, b2 := a, b
	if len(a.shape) == 1 {
		a2 = a.Reshape(1, a.shape[0])
	}
	if len(b.shape) == 1 {
		b2 = b.Reshape(b.shape[0], 1)
	}
	p := matmulND(kern, a2, b2)
	r := len(p.shape)
	dims := slices.Clone(p.shape[:r-2])
	if len(a.shape) != 1 {
		dims = append(dims, p.shape[r-2])
	}
	if len(b.shape) != 1 {
		dims = append(dims, p.shape[r-1])
	}
	out := p.Reshape(dims...)
	for _, t := range []*Tensor{a2, b2, p} {
		if t != a && t != b && !t.requiresGrad {
			t.Release()
		}
	}
	return out
}

// matmulND multiplies tensors with at least 2 dimensions.
func matmulND(kern MatMulKernel, a, b *Tensor) *Tensor {
	const op = "MatMul"
	ra, rb := len(a.shape), len(b.shape)
	m, k, k2, n := a.shape[ra-2], a.shape[ra-1], b.shape[rb-2], b.shape[rb-1]
	if k != k2 {
		panic(shapeErr(op, [][]int{a.shape, b.shape},
			"the last axis of a must match the second-to-last of b (transpose or reshape an operand)",
			"cannot multiply %v by %v: inner dimensions %d and %d differ", a.shape, b.shape, k, k2))
	}
	if rb == 2 { // [..., m, k] x [k, n]: one GEMM with all rows of a
		rows := numel(a.shape) / max(k, 1)
		if k == 0 {
			rows = numel(a.shape[:ra-1])
		}
		dims := append(slices.Clone(a.shape[:ra-1]), n)
		out := bmm(op, kern, false, false, a, b, rows, n, k, 1, 0, 0, dims)
		if needsGrad(a, b) {
			record(op, out, []*Tensor{a, b}, nil, func(g *Tensor) []*Tensor {
				var ga, gb *Tensor
				if a.requiresGrad { // dA = G·Bᵀ
					ga = bmm(op, kern, false, true, g, b, rows, k, n, 1, 0, 0, a.shape)
				}
				if b.requiresGrad { // dB = Aᵀ·G
					gb = bmm(op, kern, true, false, a, g, k, n, rows, 1, 0, 0, b.shape)
				}
				return []*Tensor{ga, gb}
			})
		}
		return out
	}
	batch := broadcastShapes(op, a.shape[:ra-2], b.shape[:rb-2])
	nb := numel(batch)
	ax, sA := batchOperand(a, batch, m*k)
	bx, sB := batchOperand(b, batch, k*n)
	dims := slices.Concat(batch, []int{m, n})
	out := bmm(op, kern, false, false, ax, bx, m, n, k, nb, sA, sB, dims)
	var saved []*Tensor
	for i, x := range []*Tensor{ax, bx} {
		if x != []*Tensor{a, b}[i] {
			saved = append(saved, x)
		}
	}
	if needsGrad(a, b) {
		record(op, out, []*Tensor{a, b}, saved, func(g *Tensor) []*Tensor {
			var ga, gb *Tensor
			if a.requiresGrad { // dA = G·Bᵀ per batch, summed over broadcast batches
				full := bmm(op, kern, false, true, g, bx, m, k, n, nb, m*n, sB, slices.Concat(batch, []int{m, k}))
				ga = reduceTemp(full, a.shape)
			}
			if b.requiresGrad { // dB = Aᵀ·G
				full := bmm(op, kern, true, false, ax, g, k, n, m, nb, sA, m*n, slices.Concat(batch, []int{k, n}))
				gb = reduceTemp(full, b.shape)
			}
			return []*Tensor{ga, gb}
		})
	} else {
		for _, s := range saved {
			s.Release()
		}
	}
	return out
}

// batchOperand returns x laid out for the batch dims (x itself with
// stride size when its batch dims already match, or with stride 0 when it
// has none) or an expanded copy.
func batchOperand(x *Tensor, batch []int, size int) (*Tensor, int) {
	r := len(x.shape)
	nb := numel(x.shape[:r-2])
	switch {
	case nb == numel(batch):
		return x, size
	case nb == 1:
		return x, 0
	}
	return expandRaw(x, slices.Concat(batch, x.shape[r-2:])), size
}
