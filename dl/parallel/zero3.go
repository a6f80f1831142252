package parallel

import (
	"fmt"

	"github.com/dlbd/dlbd/dl"
)

// zero3Unit runs one unit of a stage-3 model (FSDP FULL_SHARD) as a custom
// autograd Function whose inputs are the activation and the rank's
// parameter shard:
//
//	forward:  all-gather the unit's parameters → run the module → free them
//	backward: all-gather them again → recompute the module's forward and
//	          backpropagate through it → reduce-scatter the gradient into
//	          the shard's gradient → free the full parameters and gradient
//
// So the full parameters of a unit exist only while that unit computes:
// per rank the model states are 16Ψ/N plus one unit's full copy.
//
// Simplification: PyTorch FSDP keeps the activations and re-gathers only
// the parameters for backward (it frees their storage in between with
// resize_(0)); dl cannot free a tensor autograd still holds, so the unit's
// forward is recomputed — exactly FSDP combined with activation
// checkpointing of every unit, the usual setup for large models. The
// collectives are the same: two all-gathers and one reduce-scatter.
//
// Course: "3D Parallelism y FSDP".
// Paper: Rajbhandari et al. 2020, ZeRO (arXiv:1910.02054), Section 5.3 (P_os+g+p); Zhao et al. 2023, PyTorch FSDP (arXiv:2304.11277).
type zero3Unit struct {
	z *ZeRO
	u *flatParam
}

// Forward gathers the parameters, runs the unit and frees them.
func (f *zero3Unit) Forward(ctx *dl.FunctionContext, in ...*dl.Tensor) []*dl.Tensor {
	x := in[0]
	full, views := f.gather("forward")
	y := f.u.module.Forward(x)
	f.scatterBack(full, views)
	ctx.SaveForBackward(x)
	return []*dl.Tensor{y}
}

// Backward gathers the parameters again, recomputes the unit with grad
// enabled, backpropagates the output gradient through it and
// reduce-scatters the parameters' gradient.
func (f *zero3Unit) Backward(ctx *dl.FunctionContext, gs ...*dl.Tensor) []*dl.Tensor {
	x := ctx.Saved()[0]
	full, views := f.gather("backward")
	grad := dl.Options{Device: full.Device(), DType: full.DType()}.Zeros(f.u.padded)
	gviews := f.u.paramViews(grad)
	for i, v := range views {
		gviews[i].SetRequiresGrad(false)
		v.SetGrad(gviews[i]) // backward accumulates straight into the flat gradient
	}
	var gx *dl.Tensor
	dl.EnableGrad(func() {
		xi := x.Detach()
		if ctx.NeedsInputGrad(0) {
			xi.SetRequiresGrad(true)
		}
		y := f.u.module.Forward(xi)
		y.BackwardWith(dl.BackwardOptions{Grad: gs[0]})
		y.Release()
		gx = xi.Grad()
		xi.Release()
	})
	for _, v := range views {
		v.SetGrad(nil)
	}
	releaseAll(gviews...)
	f.scatterBack(full, views)
	shardGrad, err := reduceScatterMean(f.z.rank, grad, f.u.shardN)
	grad.Release()
	if err != nil {
		panic(fmt.Errorf("parallel: ZeRO-3 reduce-scatter of the gradient of %s… on %v: %w", f.u.names[0], f.z.rank, err))
	}
	return []*dl.Tensor{gx, shardGrad}
}

// gather all-gathers the unit's full parameters and points the module at
// views of them.
func (f *zero3Unit) gather(phase string) (full *dl.Tensor, views []*dl.Tensor) {
	u := f.u
	full = dl.Options{Device: u.shard.Device(), DType: u.shard.DType()}.Zeros(u.padded)
	if err := allGather(f.z.rank, full, u.shard); err != nil {
		full.Release()
		panic(fmt.Errorf("parallel: ZeRO-3 all-gather of %s… before %s on %v: %w", u.names[0], phase, f.z.rank, err))
	}
	views = u.paramViews(full)
	if err := rebind(u.module, u.orig, views); err != nil {
		panic(err)
	}
	return full, views
}

// scatterBack points the module back at its (released) placeholders and
// frees the full parameters: only the shard stays.
func (f *zero3Unit) scatterBack(full *dl.Tensor, views []*dl.Tensor) {
	if err := rebind(f.u.module, views, f.u.orig); err != nil {
		panic(err)
	}
	releaseAll(views...)
	full.Release()
}
