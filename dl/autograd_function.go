package dl

import (
	"fmt"
	"slices"
)

// Function is a user-defined differentiable operation, like
// torch.autograd.Function: Forward computes outputs from inputs (under
// NoGrad, so it builds no graph of its own), and Backward maps the
// gradients of the outputs to gradients of the inputs.  Gradient
// checkpointing, the f and g operators of tensor parallelism and pipeline
// send/receive are Functions.  Apply runs one.
type Function interface {
	// Forward returns the outputs.  It may keep tensors for Backward with
	// ctx.SaveForBackward and any other state in its receiver.
	Forward(ctx *FunctionContext, inputs ...*Tensor) []*Tensor
	// Backward receives one gradient per output (zeros for outputs that
	// got none) and returns one gradient per input, shaped like it, or nil
	// where an input needs none (see ctx.NeedsInputGrad).  It runs under
	// NoGrad.
	Backward(ctx *FunctionContext, grads ...*Tensor) []*Tensor
}

// FunctionContext carries what a Function's Forward keeps for its
// Backward, like the ctx of torch.autograd.Function.
type FunctionContext struct {
	inputs []*Tensor
	saved  []*Tensor
	temps  []*Tensor // saved tensors that are neither inputs nor outputs
}

// SaveForBackward keeps tensors for Backward (ctx.save_for_backward).
// Saved tensors that are neither inputs nor outputs of the Function are
// released with the graph after Backward.
func (c *FunctionContext) SaveForBackward(ts ...*Tensor) { c.saved = append(c.saved, ts...) }

// Saved returns the tensors passed to SaveForBackward, in order.
func (c *FunctionContext) Saved() []*Tensor { return c.saved }

// NeedsInputGrad reports whether input i requires a gradient
// (ctx.needs_input_grad[i]).
func (c *FunctionContext) NeedsInputGrad(i int) bool {
	return i < len(c.inputs) && c.inputs[i] != nil && c.inputs[i].requiresGrad
}

// Apply runs f on inputs and, when grad mode is on and an input requires
// grad, records one node for all outputs so that Backward calls
// f.Backward.  Outputs that are inputs (an identity forward) are returned
// as new tensors sharing memory, so each output has its own history.
func Apply(f Function, inputs ...*Tensor) []*Tensor {
	name := fmt.Sprintf("%T", f)
	ctx := &FunctionContext{inputs: inputs}
	var outs []*Tensor
	NoGrad(func() { outs = f.Forward(ctx, inputs...) })
	for i, o := range outs {
		if o == nil {
			panic(&AutogradError{Op: name, Reason: fmt.Sprintf("Forward returned a nil output %d", i), Fix: "return a tensor for every output"})
		}
		if slices.Contains(inputs, o) || slices.Contains(outs[:i], o) || o.node != nil || o.requiresGrad {
			outs[i] = o.alias()
		}
	}
	if !needsGrad(inputs...) {
		return outs
	}
	for _, s := range ctx.saved {
		if !slices.Contains(inputs, s) && !slices.Contains(outs, s) {
			ctx.temps = append(ctx.temps, s)
		}
	}
	recordMulti(name, outs, inputs, ctx.temps, func(gs []*Tensor) []*Tensor {
		var grads []*Tensor
		NoGrad(func() { grads = f.Backward(ctx, gs...) })
		if len(grads) != len(inputs) {
			panic(&AutogradError{Op: name + " backward", Reason: fmt.Sprintf("Backward returned %d gradients for %d inputs", len(grads), len(inputs)),
				Fix: "return one gradient (or nil) per input"})
		}
		for i, g := range grads { // the engine owns (and releases) what Backward returns
			if g != nil && (slices.Contains(gs, g) || slices.Contains(ctx.saved, g) || slices.Contains(inputs, g) || slices.Contains(grads[:i], g)) {
				grads[i] = g.alias()
			}
		}
		return grads
	})
	return outs
}
