package parallel

import (
	"fmt"

	"github.com/dlbd/dlbd/dl"
	"github.com/dlbd/dlbd/dl/dist"
)

// The communication of tensor parallelism, as autograd Functions. The
// Megatron-LM paper writes them f and g: conjugate operators, each the
// identity in one direction and an all-reduce in the other.
//
//	f (CopyToTP):     forward identity,   backward all-reduce (sum)
//	g (ReduceFromTP): forward all-reduce, backward identity
//
// A column-parallel layer starts with f: every rank needs the whole input,
// and the gradient of that input is the sum of the ranks' contributions. A
// row-parallel layer ends with g: every rank holds a partial sum of the
// output. Communication is separate from the layers (tp_linear.go), as in
// picotron's tp_communications.py.
//
// Course: "Tensor Parallelism (TP)".
// Paper: Shoeybi et al. 2019, Megatron-LM: Training Multi-Billion Parameter Language Models Using Model Parallelism (arXiv:1909.08053), Section 3 and Figure 3.

// CopyToTP is f in Megatron-LM: it returns x (the same values) and, in
// backward, all-reduces x's gradient over r's tensor-parallel group.
func CopyToTP(r *dist.Rank, x *dl.Tensor) *dl.Tensor {
	return dl.Apply(copyToTP{r}, x)[0]
}

// ReduceFromTP is g in Megatron-LM: it returns the sum of x over r's
// tensor-parallel group (an all-reduce) and passes the gradient through
// unchanged in backward.
func ReduceFromTP(r *dist.Rank, x *dl.Tensor) *dl.Tensor {
	return dl.Apply(reduceFromTP{r}, x)[0]
}

// GatherFromTP concatenates every rank's x along the last axis (an
// all-gather); backward keeps this rank's slice of the gradient. A
// column-parallel layer with GatherOutput ends with it.
func GatherFromTP(r *dist.Rank, x *dl.Tensor) *dl.Tensor {
	return dl.Apply(gatherFromTP{r}, x)[0]
}

type copyToTP struct{ r *dist.Rank }

func (f copyToTP) Forward(_ *dl.FunctionContext, in ...*dl.Tensor) []*dl.Tensor {
	return []*dl.Tensor{in[0]}
}

func (f copyToTP) Backward(_ *dl.FunctionContext, gs ...*dl.Tensor) []*dl.Tensor {
	g := gs[0].Clone()
	mustTP(f.r.AllReduce(g, dist.Sum), "f (copy to tensor-parallel region) backward all-reduce", f.r)
	return []*dl.Tensor{g}
}

type reduceFromTP struct{ r *dist.Rank }

func (f reduceFromTP) Forward(_ *dl.FunctionContext, in ...*dl.Tensor) []*dl.Tensor {
	y := in[0].Clone()
	mustTP(f.r.AllReduce(y, dist.Sum), "g (reduce from tensor-parallel region) forward all-reduce", f.r)
	return []*dl.Tensor{y}
}

func (f reduceFromTP) Backward(_ *dl.FunctionContext, gs ...*dl.Tensor) []*dl.Tensor {
	return []*dl.Tensor{gs[0]}
}

type gatherFromTP struct{ r *dist.Rank }

func (f gatherFromTP) Forward(_ *dl.FunctionContext, in ...*dl.Tensor) []*dl.Tensor {
	x := in[0]
	n, sh := f.r.Size(), x.Shape()
	flat := dl.Options{Device: x.Device(), DType: x.DType()}.Zeros(append([]int{n}, sh...)...)
	mustTP(f.r.AllGather(flat, x), "all-gather of a column-parallel output", f.r)
	// flat is [n, ..., k]: move the rank axis next to the last one and merge.
	perm := make([]int, 0, len(sh)+1)
	for i := 1; i < len(sh); i++ {
		perm = append(perm, i)
	}
	perm = append(perm, 0, len(sh))
	moved := flat.Permute(perm...)
	flat.Release()
	out := append(sh[:len(sh)-1:len(sh)-1], n*sh[len(sh)-1])
	y := moved.Reshape(out...)
	moved.Release()
	return []*dl.Tensor{y}
}

func (f gatherFromTP) Backward(_ *dl.FunctionContext, gs ...*dl.Tensor) []*dl.Tensor {
	g := gs[0]
	k := g.Size(-1) / f.r.Size()
	return []*dl.Tensor{g.Narrow(g.Dims()-1, f.r.Rank()*k, k)}
}

// mustTP panics with an error naming the operation when a collective of
// tensor parallelism fails: it runs inside Forward or Backward, which
// cannot return errors.
func mustTP(err error, what string, r *dist.Rank) {
	if err != nil {
		panic(fmt.Errorf("parallel: tensor parallel %s on %v: %w", what, r, err))
	}
}
