package parallel

import (
	"fmt"

	"github.com/dlbd/dlbd/dl"
	"github.com/dlbd/dlbd/dl/dist"
	"github.com/dlbd/dlbd/dl/nn"
)

// ColumnParallelLinear is y = x·Wᵀ + b with W split by output features
// (the columns of Megatron's Y = X·A, the rows of PyTorch's [out, in]
// weight): rank i of t holds Weight = W[i·out/t : (i+1)·out/t, :] and the
// matching bias, and computes its own slice of y from the whole input,
// which enters through f (CopyToTP). No communication in forward; the
// input's gradient is all-reduced in backward. With GatherOutput the
// slices are all-gathered into the full y; without it (the usual case,
// Megatron's gather_output=False) the next layer must be row-parallel.
//
// Course: "Tensor Parallelism (TP)".
// Paper: Shoeybi et al. 2019, Megatron-LM (arXiv:1909.08053), Section 3, Figure 3a.
type ColumnParallelLinear struct {
	Weight       *dl.Tensor // [Out/t, In]
	Bias         *dl.Tensor // [Out/t], nil without bias
	In, Out      int        // the full layer's features
	GatherOutput bool
	rank         *dist.Rank
}

// RowParallelLinear is y = x·Wᵀ + b with W split by input features (the
// rows of Megatron's A): rank i holds Weight = W[:, i·in/t : (i+1)·in/t]
// and receives its slice of the input (the output of a column-parallel
// layer), computes a partial product, and g (ReduceFromTP) all-reduces the
// partial products; the bias, replicated, is added once after the sum.
//
// Course: "Tensor Parallelism (TP)".
// Paper: Shoeybi et al. 2019, Megatron-LM (arXiv:1909.08053), Section 3, Figure 3a.
type RowParallelLinear struct {
	Weight  *dl.Tensor // [Out, In/t]
	Bias    *dl.Tensor // [Out], the same on every rank; nil without bias
	In, Out int
	rank    *dist.Rank
}

var (
	_ nn.Module = (*ColumnParallelLinear)(nil)
	_ nn.Module = (*RowParallelLinear)(nil)
)

// NewColumnParallelLinear returns rank r's part of the dense layer l
// (copied onto r's device). It panics with a *dl.ShapeError unless the
// group size divides l.Out.
func NewColumnParallelLinear(l *nn.Linear, r *dist.Rank, gatherOutput bool) *ColumnParallelLinear {
	t := r.Size()
	checkDivides("NewColumnParallelLinear", l.Out, t, "output features", l.Weight.Shape())
	k := l.Out / t
	c := &ColumnParallelLinear{In: l.In, Out: l.Out, GatherOutput: gatherOutput, rank: r}
	c.Weight = shardRows(l.Weight, []int{r.Rank() * k}, k, r.Device())
	if l.Bias != nil {
		c.Bias = shardRows(l.Bias, []int{r.Rank() * k}, k, r.Device())
	}
	return c
}

// NewRowParallelLinear returns rank r's part of the dense layer l. It
// panics with a *dl.ShapeError unless the group size divides l.In.
func NewRowParallelLinear(l *nn.Linear, r *dist.Rank) *RowParallelLinear {
	t := r.Size()
	checkDivides("NewRowParallelLinear", l.In, t, "input features", l.Weight.Shape())
	k := l.In / t
	rp := &RowParallelLinear{In: l.In, Out: l.Out, rank: r}
	dl.NoGrad(func() {
		w := l.Weight.Narrow(1, r.Rank()*k, k) // along axis 1: a copy
		rp.Weight = w.To(r.Device()).SetRequiresGrad(true)
		if rp.Weight != w {
			w.Release()
		}
	})
	if l.Bias != nil {
		rp.Bias = shardRows(l.Bias, []int{0}, l.Out, r.Device()) // the whole bias
	}
	return rp
}

// Forward returns this rank's slice of x·Wᵀ + b, or the whole output with
// GatherOutput.
func (c *ColumnParallelLinear) Forward(x *dl.Tensor) *dl.Tensor {
	y := dl.Linear(CopyToTP(c.rank, x), c.Weight, c.Bias)
	if c.GatherOutput {
		return GatherFromTP(c.rank, y)
	}
	return y
}

// Forward returns the full output from this rank's slice of the input.
func (rp *RowParallelLinear) Forward(x *dl.Tensor) *dl.Tensor {
	y := ReduceFromTP(rp.rank, dl.Linear(x, rp.Weight, nil))
	if rp.Bias != nil {
		y = y.Add(rp.Bias)
	}
	return y
}

// NamedParameters returns "weight" and "bias" (this rank's shards).
func (c *ColumnParallelLinear) NamedParameters() []nn.NamedParameter {
	return weightBias(c.Weight, c.Bias)
}

// NamedParameters returns "weight" (this rank's shard) and "bias".
func (rp *RowParallelLinear) NamedParameters() []nn.NamedParameter {
	return weightBias(rp.Weight, rp.Bias)
}

// SetTraining does nothing: the layer behaves the same in both modes.
func (c *ColumnParallelLinear) SetTraining(bool) {}

// SetTraining does nothing: the layer behaves the same in both modes.
func (rp *RowParallelLinear) SetTraining(bool) {}

func weightBias(w, b *dl.Tensor) []nn.NamedParameter {
	ps := []nn.NamedParameter{{Name: "weight", Tensor: w}}
	if b != nil {
		ps = append(ps, nn.NamedParameter{Name: "bias", Tensor: b})
	}
	return ps
}

// shardRows returns a new leaf on dev holding, one after the other, the
// blocks of k rows of t starting at each of starts.
func shardRows(t *dl.Tensor, starts []int, k int, dev dl.Device) *dl.Tensor {
	var out *dl.Tensor
	dl.NoGrad(func() {
		parts := make([]*dl.Tensor, len(starts))
		for i, s := range starts {
			parts[i] = t.Narrow(0, s, k)
		}
		cat := dl.Cat(parts, 0)
		releaseAll(parts...)
		out = cat.To(dev)
		if out != cat {
			cat.Release()
		}
	})
	return out.SetRequiresGrad(true)
}

// checkDivides panics with a *dl.ShapeError unless t divides n.
func checkDivides(op string, n, t int, what string, shape []int) {
	if t <= 0 || n%t != 0 {
		panic(&dl.ShapeError{Op: "parallel." + op, Shapes: [][]int{shape},
			Reason: fmt.Sprintf("%d %s do not split into %d equal tensor-parallel parts", n, what, t),
			Fix:    "choose a tensor-parallel degree that divides the layer's size"})
	}
}
