package dl

import (
	"fmt"
	"math"
)

// CrossEntropyOptions configures CrossEntropyWith.  The zero value is
// PyTorch's default: ignore index -100, mean over the non-ignored targets.
type CrossEntropyOptions struct {
	// IgnoreIndex is the target value that contributes neither loss nor
	// gradient (torch: ignore_index); nil means -100.
	IgnoreIndex *int
}

// CrossEntropy returns the mean negative log-likelihood of the target
// classes under softmax(logits), like torch.nn.functional.cross_entropy:
// logits is [N, C] (or [..., C]), targets holds N class indices (shape
// [N] or [...]) as Int64, like PyTorch's, or Int32, Uint8, or floats
// holding integers (exact in the dtype: see indices); targets equal to
// -100 are ignored and the mean is over the others.  It is computed from a stable log-softmax, and its
// backward is (softmax − onehot)/count.
func CrossEntropy(logits, targets *Tensor) *Tensor {
	return CrossEntropyWith(logits, targets, CrossEntropyOptions{})
}

// CrossEntropyWith is CrossEntropy with options.
func CrossEntropyWith(logits, targets *Tensor, o CrossEntropyOptions) *Tensor {
	const op = "CrossEntropy"
	logits = autocastFloat32(logits)
	logits.live(op)
	targets.live(op)
	requireFloat(op, logits)
	r := len(logits.shape)
	if r == 0 || numel(targets.shape)*logits.shape[r-1] != logits.n || (r > 1 && len(targets.shape) != r-1) {
		panic(shapeErr(op, [][]int{logits.shape, targets.shape}, "logits are [N, C] and targets [N] (class indices)",
			"logits of shape %v do not fit targets of shape %v", logits.shape, targets.shape))
	}
	ignore := -100
	if o.IgnoreIndex != nil {
		ignore = *o.IgnoreIndex
	}
	c := logits.shape[r-1]
	rows := logits.n / max(c, 1)
	cls := indices(op, targets, c, ignore, true)
	if fusableCE(logits) { // fused_cross_entropy.go: one pass, no [N, C] intermediate
		return fusedCrossEntropy(op, logits, cls, ignore)
	}
	var flat, kept []int
	for i, k := range cls {
		if k != ignore {
			flat = append(flat, i*c+k)
			kept = append(kept, i)
		}
	}
	x := logits.Reshape(rows, c)
	logp := softmaxRaw(op, x, 1, true)
	x.Release()
	count := float64(len(flat))
	picked := logp.like(op, []int{len(flat)})
	if len(flat) > 0 {
		logp.ik(op).indexSelect(picked.v(op), logp.v(op), flat, 1)
	}
	s := reduceRaw(op, opSum, picked, []int{0}, false)
	picked.Release()
	loss := scalarRaw(op, opMulS, s, -1/count) // 0 targets: NaN, like PyTorch
	s.Release()
	if !needsGrad(logits) {
		logp.Release()
		return loss
	}
	record(op, loss, []*Tensor{logits}, []*Tensor{logp}, func(g *Tensor) []*Tensor {
		lp := compute32(logp)
		p := unaryRaw(op, opExp, lp) // softmax, in float32 or float64
		if lp != logp {
			lp.Release()
		}
		o := p.opts()
		if len(kept) < rows { // ignored rows get no gradient
			keep := make([]float64, rows)
			for _, i := range kept {
				keep[i] = 1
			}
			m := o.FromFloat64s(keep, rows, 1)
			p.inPlace(op, opMul, m)
			m.Release()
		}
		if len(flat) > 0 { // − onehot
			neg := o.Full(-1, len(flat))
			p.ik(op).indexAdd(p.v(op), neg.v(op), flat, 1)
			neg.Release()
		}
		p.scalarInPlace(op, opMulS, g.Item()/count)
		h := finish(p, logits.dtype, nil)
		out := h.Reshape(logits.shape...)
		h.Release()
		return []*Tensor{out}
	})
	return loss
}

// MSE returns the mean of (a − b)², like torch.nn.functional.mse_loss.
func MSE(a, b *Tensor) *Tensor {
	a.live("MSE")
	b.live("MSE")
	requireFloat("MSE", a, b)
	a, b = autocastFloat32(a), autocastFloat32(b)
	d := a.Sub(b)
	out := d.Pow(2).Mean()
	return out
}

// Dropout returns t with each element zeroed with probability p and the
// others scaled by 1/(1−p) (inverted dropout, like
// torch.nn.functional.dropout in training mode).  The mask comes from gen
// (nil: DefaultGenerator), so saving gen.State() before and restoring it
// replays the same mask (gradient checkpointing does this).  p = 0
// returns t itself.  It panics if p is not in [0, 1).
func Dropout(t *Tensor, p float64, gen *Generator) *Tensor {
	const op = "Dropout"
	t.live(op)
	requireFloat(op, t)
	if p < 0 || p >= 1 || math.IsNaN(p) {
		panic(shapeErr(op, [][]int{t.shape}, "use 0 <= p < 1", "%s", fmt.Sprintf("dropout probability %v out of range", p)))
	}
	if p == 0 {
		return t
	}
	u := make([]float64, t.n)
	Options{Generator: gen}.generator().uniform(u)
	scale := 1 / (1 - p)
	for i, v := range u {
		if v < p {
			u[i] = 0
		} else {
			u[i] = scale
		}
	}
	mask := t.opts().FromFloat64s(u, t.shape...)
	out := binaryRaw(op, opMul, t, mask)
	if !needsGrad(t) {
		mask.Release()
		return out
	}
	record(op, out, []*Tensor{t}, []*Tensor{mask}, func(g *Tensor) []*Tensor {
		return []*Tensor{binaryRaw(op, opMul, g, mask)}
	})
	return out
}
