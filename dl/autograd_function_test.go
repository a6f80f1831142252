package dl_test

import (
	"testing"

	"github.com/dlbd/dlbd/dl"
)

// checkpoint recomputes block(x) in Backward instead of keeping its
// intermediates, as torch.utils.checkpoint does: Backward calls Backward
// re-entrantly on the recomputed graph.
type checkpoint struct{ block func(x *dl.Tensor) *dl.Tensor }

func (c checkpoint) Forward(ctx *dl.FunctionContext, in ...*dl.Tensor) []*dl.Tensor {
	ctx.SaveForBackward(in[0])
	return []*dl.Tensor{c.block(in[0])}
}

func (c checkpoint) Backward(ctx *dl.FunctionContext, g ...*dl.Tensor) []*dl.Tensor {
	x := ctx.Saved()[0].Detach().SetRequiresGrad(true)
	dl.EnableGrad(func() {
		c.block(x).BackwardWith(dl.BackwardOptions{Grad: g[0]})
	})
	return []*dl.Tensor{x.Grad()}
}

func TestFunctionReentrantCheckpoint(t *testing.T) {
	o := dl.Options{DType: dl.Float64, Generator: dl.NewGenerator(8)}
	w := o.Randn(6, 4).SetRequiresGrad(true)
	block := func(x *dl.Tensor) *dl.Tensor { return dl.Linear(x, w, nil).Tanh() }
	run := func(ckpt bool) (gx, gw []float64) {
		w.ZeroGrad()
		x := dl.Options{DType: dl.Float64, Generator: dl.NewGenerator(9)}.Randn(3, 4).SetRequiresGrad(true)
		h := x.MulScalar(2)
		var y *dl.Tensor
		if ckpt {
			y = dl.Apply(checkpoint{block}, h)[0]
		} else {
			y = block(h)
		}
		y.Pow(2).Sum().Backward()
		return x.Grad().Float64s(), w.Grad().Float64s()
	}
	px, pw := run(false)
	cx, cw := run(true)
	if !dl.AllClose(dl.FromSlice(cx), dl.FromSlice(px), 1e-12, 1e-12) || !dl.AllClose(dl.FromSlice(cw), dl.FromSlice(pw), 1e-12, 1e-12) {
		t.Errorf("checkpointed gradients differ: x %v vs %v, w %v vs %v", cx, px, cw, pw)
	}
}
