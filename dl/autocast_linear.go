package dl

import (
	"github.com/dlbd/dlbd/dl/internal/kernels/f32"
	"github.com/dlbd/dlbd/dl/internal/kernels/half"
)

// Linear inside an autocast scope, for a float32 (master) weight on a host
// device.  It computes what the generic path computes (autocast casts x,
// w and b to the autocast dtype with differentiable AsTypes, then Linear
// multiplies the casts), with the same results bit for bit, but one
// tensor fewer in backward: the generic path rounds the weight's
// gradient gᵀ·x to the autocast dtype (a 2-byte tensor), then AsType's
// backward widens it into a new float32 one, so a 2-byte and a 4-byte
// copy of dW exist at once, on top of the float32 product they came
// from.  Here the float32 product is rounded to the autocast dtype in
// place and is the gradient: for the 784-1024-1024-10 MLP that lowers the
// bfloat16 step's peak by the 2-byte copy of the largest dW and its
// float32 accumulator (amp's BenchmarkAMPStep).  Where the machine has
// a bfloat16 kernel (AMX, AVX512_BF16) the weight is never cast as a
// whole: the products round it to bfloat16 block by block while they
// pack it (f32.GemmHalfRoundB), the same bits as multiplying its cast,
// so no 2-byte copy of a weight exists, in forward or in backward
// (torch's autocast keeps one per weight from forward to backward); that
// lowers the MLP step's bfloat16 peak from 8.39 to 6.39 MiB, below
// float32's 8.00.  Elsewhere the weight is cast for each of its products
// and the cast released after it.  The bias's small cast is kept.

// linearAutocast is Linear(x, w, b) under autocast, or nil when the
// generic path applies: another device, a weight or bias that is not
// Float32, or an input that is neither Float32 nor the autocast dtype.
func linearAutocast(op string, x, w, b *Tensor) *Tensor {
	dt, on := AutocastDType()
	if !on || !x.dev.IsHost() || w.dtype != Float32 || (b != nil && b.dtype != Float32) ||
		(x.dtype != Float32 && x.dtype != dt) {
		return nil
	}
	linearCheck(op, x, w, b, false)
	xc := autocast(x)[0]
	bc := b
	var saved []*Tensor
	if b != nil {
		bc = castRaw(op, b, dt)
		saved = append(saved, bc)
	}
	// Where the kernels round a float32 B while packing it, w stays
	// float32 (cpuBackend.gemm): the same bits as multiplying its cast.
	// Elsewhere it is cast for each product (and released after it), so
	// the copy shows in MemoryStats.
	weight := func() (*Tensor, func()) {
		if f32.RoundsB(gemmHalf[dt]) {
			return w, func() {}
		}
		wc := castRaw(op, w, dt)
		return wc, wc.Release
	}
	rows, in, out, dims := linearDims(xc, w)
	wf, done := weight()
	y := linearForward(op, xc, wf, bc, rows, in, out, dims)
	done()
	if needsGrad(xc, w, b) {
		record(op, y, []*Tensor{xc, w, b}, saved, func(g *Tensor) []*Tensor {
			wb, done := weight()
			defer done()
			return linearBackward(op, xc, wb, bc, w, b, rows, in, out)(g)
		})
	} else {
		for _, s := range saved {
			s.Release()
		}
	}
	return autocastRelease(y, []*Tensor{x}, []*Tensor{xc})
}

// castRaw returns t converted to dt, with no autograd node.
func castRaw(op string, t *Tensor, dt DType) *Tensor {
	out := newTensor(op, t.dev, dt, t.shape)
	if t.n > 0 {
		t.k(op).cast(out.v(op), t.v(op))
	}
	return out
}

// gradAs turns acc, a product accumulated for operands of dtype dt, into
// a gradient of dtype target: acc rounded to dt once (finish) when target
// is dt; when dt is a half dtype and target Float32 (a float32 tensor
// that was cast to dt), acc rounded to dt's values in place, which is
// what casting the dt gradient back to float32 gives.
func gradAs(acc *Tensor, dt, target DType) *Tensor {
	if target == dt || !dt.IsHalf() || target != Float32 || !acc.dev.IsHost() {
		g := finish(acc, dt, nil)
		if g.dtype == target {
			return g
		}
		t := castRaw("AsType", g, target)
		g.Release()
		return t
	}
	if acc.n > 0 {
		if dt == BFloat16 {
			half.RoundBFloat16(acc.v("AsType").f32())
		} else {
			half.RoundFloat16(acc.v("AsType").f32())
		}
	}
	return acc
}
