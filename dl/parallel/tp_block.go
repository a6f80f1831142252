package parallel

import (
	"fmt"

	"github.com/dlbd/dlbd/dl"
	"github.com/dlbd/dlbd/dl/dist"
	"github.com/dlbd/dlbd/dl/nn"
)

// ParallelMLP is the Transformer MLP split over a tensor-parallel group as
// in Megatron-LM: Y = GeLU(X·A) with A column-parallel (each rank computes
// its own columns of Y, so the nonlinearity needs no communication), then
// Z = Y·B with B row-parallel. Communication: f before A, g after B — one
// all-reduce forward and one backward.
//
// Course: "Tensor Parallelism (TP)".
// Paper: Shoeybi et al. 2019, Megatron-LM (arXiv:1909.08053), Section 3, Figure 3a.
type ParallelMLP struct {
	FC1 *ColumnParallelLinear
	Act nn.Module
	FC2 *RowParallelLinear
}

// ParallelAttention is causal multi-head self-attention split by heads:
// rank i of t computes the queries, keys and values of heads
// [i·h/t, (i+1)·h/t) (a column-parallel fused QKV projection), attends
// within them, and the output projection is row-parallel. Communication:
// f before QKV, g after the projection.
//
// Course: "Tensor Parallelism (TP)".
// Paper: Shoeybi et al. 2019, Megatron-LM (arXiv:1909.08053), Section 3, Figure 3b.
type ParallelAttention struct {
	QKV     *ColumnParallelLinear // [3·d/t, d]: this rank's rows of Q, then of K, then of V
	Proj    *RowParallelLinear
	Heads   int // heads on this rank (h/t)
	HeadDim int
}

// TPBlock is nn.Block (pre-LayerNorm GPT block) with tensor parallelism:
// the LayerNorms are replicated, attention and MLP are split. Per block:
// 2 all-reduces in forward (the two g) and 2 in backward (the two f).
//
// Course: "Tensor Parallelism (TP)".
// Paper: Shoeybi et al. 2019, Megatron-LM (arXiv:1909.08053), Section 3.
type TPBlock struct {
	LN1, LN2 *nn.LayerNorm
	Attn     *ParallelAttention
	MLP      *ParallelMLP
}

var (
	_ nn.Module = (*ParallelMLP)(nil)
	_ nn.Module = (*ParallelAttention)(nil)
	_ nn.Module = (*TPBlock)(nil)
)

// NewParallelMLP splits an MLP nn.Sequential(Linear, activation, Linear)
// over r's group. It panics with a *ModelError if mlp does not have that
// form, and with a *dl.ShapeError if the group size does not divide the
// hidden width.
func NewParallelMLP(mlp *nn.Sequential, r *dist.Rank) *ParallelMLP {
	var fc1, fc2 *nn.Linear
	if len(mlp.Modules) == 3 {
		fc1, _ = mlp.Modules[0].(*nn.Linear)
		fc2, _ = mlp.Modules[2].(*nn.Linear)
	}
	if fc1 == nil || fc2 == nil {
		panic(&ModelError{Op: "NewParallelMLP", Reason: fmt.Sprintf("want nn.Sequential(Linear, activation, Linear), got %d modules", len(mlp.Modules)),
			Fix: "pass an MLP of that form, as nn.Block's is"})
	}
	return &ParallelMLP{FC1: NewColumnParallelLinear(fc1, r, false), Act: mlp.Modules[1], FC2: NewRowParallelLinear(fc2, r)}
}

// NewParallelAttention splits attention with the fused projection qkv
// ([3d, d]: Q, K, V rows) and the output projection proj over r's group.
// It panics unless the group size divides heads.
func NewParallelAttention(qkv, proj *nn.Linear, heads int, r *dist.Rank) *ParallelAttention {
	t, d := r.Size(), proj.In
	checkDivides("NewParallelAttention", heads, t, "attention heads", qkv.Weight.Shape())
	k := d / t // this rank's slice of each of Q, K and V
	starts := []int{r.Rank() * k, d + r.Rank()*k, 2*d + r.Rank()*k}
	c := &ColumnParallelLinear{In: d, Out: 3 * d, rank: r, Weight: shardRows(qkv.Weight, starts, k, r.Device())}
	if qkv.Bias != nil {
		c.Bias = shardRows(qkv.Bias, starts, k, r.Device())
	}
	return &ParallelAttention{QKV: c, Proj: NewRowParallelLinear(proj, r), Heads: heads / t, HeadDim: d / heads}
}

// NewTPBlock returns rank r's part of block b (copied onto r's device). It
// panics with a *ModelError if b uses dropout (the masks would have to be
// coordinated between the ranks, as Megatron does with its forked random
// states), and with a *dl.ShapeError if the group size does not divide the
// heads and the MLP width.
func NewTPBlock(b *nn.Block, r *dist.Rank) *TPBlock {
	if b.Drop1.P > 0 || b.Drop2.P > 0 {
		panic(&ModelError{Op: "NewTPBlock", Reason: "the block uses dropout", Fix: "build it with Dropout 0 for tensor parallelism"})
	}
	return &TPBlock{
		LN1:  copyLayerNorm(b.LN1, r.Device()),
		LN2:  copyLayerNorm(b.LN2, r.Device()),
		Attn: NewParallelAttention(b.QKV, b.Proj, b.Heads, r),
		MLP:  NewParallelMLP(b.MLP, r),
	}
}

// Forward returns the MLP's full output.
func (m *ParallelMLP) Forward(x *dl.Tensor) *dl.Tensor {
	return m.FC2.Forward(m.Act.Forward(m.FC1.Forward(x)))
}

// Forward applies causal self-attention with this rank's heads to x
// [B, T, d] and returns the full (all-reduced) output.  The heads run in
// dl.CausalSelfAttention, as nn.Block's do: fused on host devices, op by
// op under dl.WithoutFusion.
func (a *ParallelAttention) Forward(x *dl.Tensor) *dl.Tensor {
	if s := x.Shape(); len(s) != 3 {
		panic(&dl.ShapeError{Op: "parallel.ParallelAttention.Forward", Shapes: [][]int{s}, Reason: "want input [batch, time, dim]", Fix: "reshape to 3-D"})
	}
	qkv := a.QKV.Forward(x) // [B, T, 3·h·dh]: only this rank's heads
	return a.Proj.Forward(dl.CausalSelfAttention(qkv, a.Heads))
}

// Forward applies the block to x [B, T, d] (replicated on every rank).
func (b *TPBlock) Forward(x *dl.Tensor) *dl.Tensor {
	x = x.Add(b.Attn.Forward(b.LN1.Forward(x)))
	return x.Add(b.MLP.Forward(b.LN2.Forward(x)))
}

// NamedParameters returns this rank's shards with nn.Linear's names.
func (m *ParallelMLP) NamedParameters() []nn.NamedParameter {
	return append(prefixed("0", m.FC1.NamedParameters()), prefixed("2", m.FC2.NamedParameters())...)
}

// NamedParameters returns this rank's shards of the projections.
func (a *ParallelAttention) NamedParameters() []nn.NamedParameter {
	return append(prefixed("qkv", a.QKV.NamedParameters()), prefixed("proj", a.Proj.NamedParameters())...)
}

// NamedParameters returns the parameters with nn.Block's names.
func (b *TPBlock) NamedParameters() []nn.NamedParameter {
	ps := prefixed("ln1", b.LN1.NamedParameters())
	ps = append(ps, prefixed("attn", b.Attn.NamedParameters())...)
	ps = append(ps, prefixed("ln2", b.LN2.NamedParameters())...)
	return append(ps, prefixed("mlp", b.MLP.NamedParameters())...)
}

// SetTraining sets the activation's mode.
func (m *ParallelMLP) SetTraining(training bool) { m.Act.SetTraining(training) }

// SetTraining does nothing: attention here has no dropout.
func (a *ParallelAttention) SetTraining(bool) {}

// SetTraining sets the MLP's mode.
func (b *TPBlock) SetTraining(training bool) { b.MLP.SetTraining(training) }

// copyLayerNorm returns a copy of l on dev (a replicated layer).
func copyLayerNorm(l *nn.LayerNorm, dev dl.Device) *nn.LayerNorm {
	return &nn.LayerNorm{Weight: shardRows(l.Weight, []int{0}, l.Weight.Size(0), dev),
		Bias: shardRows(l.Bias, []int{0}, l.Bias.Size(0), dev), Eps: l.Eps}
}

// prefixed returns ps with "prefix." in front of each name.
func prefixed(prefix string, ps []nn.NamedParameter) []nn.NamedParameter {
	out := make([]nn.NamedParameter, len(ps))
	for i, p := range ps {
		out[i] = nn.NamedParameter{Name: prefix + "." + p.Name, Tensor: p.Tensor}
	}
	return out
}
