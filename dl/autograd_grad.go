package dl

import "fmt"

// SetRequiresGrad sets whether autograd records operations on t, a leaf,
// so that Backward computes its gradient, like
// torch.Tensor.requires_grad_.  It returns t.  It panics with
// *AutogradError if t is the result of a recorded op (only leaves can be
// changed; use Detach).
func (t *Tensor) SetRequiresGrad(b bool) *Tensor {
	t.notNil("SetRequiresGrad")
	if b && !t.dtype.IsFloat() {
		panic(&AutogradError{Op: "SetRequiresGrad", Reason: "only tensors of floating point dtype can require gradients; this one is " + t.dtype.String(),
			Fix: "convert it with .AsType(dl.Float32) first"})
	}
	if t.node != nil {
		panic(&AutogradError{Op: "SetRequiresGrad", Reason: "only leaf tensors can change requires_grad; this one is the result of " + t.node.op,
			Fix: "use t.Detach() to get a leaf sharing its memory"})
	}
	t.requiresGrad = b
	return t
}

// RequiresGrad reports whether gradients flow to t: a leaf marked with
// SetRequiresGrad, or the result of a recorded op on such tensors.
func (t *Tensor) RequiresGrad() bool {
	t.notNil("RequiresGrad")
	return t.requiresGrad
}

// IsLeaf reports whether t was not produced by a recorded op (parameters,
// inputs, results computed under NoGrad), like torch.Tensor.is_leaf.
func (t *Tensor) IsLeaf() bool {
	t.notNil("IsLeaf")
	return t.node == nil
}

// Grad returns the gradient accumulated into leaf t by Backward, or nil
// if there is none yet, like torch.Tensor.grad.  The returned tensor is
// t's gradient itself: later Backward calls add to it in place, and
// ZeroGrad releases it.
func (t *Tensor) Grad() *Tensor {
	t.notNil("Grad")
	return t.grad
}

// SetGrad replaces t's gradient with g (nil clears it without releasing
// the old one).  Later Backward calls accumulate into g in place, so g may
// be a view into a larger buffer, e.g. a data-parallel gradient bucket.
// It panics unless g has t's shape, dtype and device.
func (t *Tensor) SetGrad(g *Tensor) {
	t.notNil("SetGrad")
	if g != nil {
		checkGradLike("SetGrad", t, g)
	}
	t.grad = g
}

// ZeroGrad releases t's gradient and sets it to nil, like
// torch.Tensor.grad = None (the default of optimizer.zero_grad).  Tensors
// returned by Grad before become unusable; Clone one to keep it.
func (t *Tensor) ZeroGrad() {
	t.notNil("ZeroGrad")
	if t.grad != nil {
		t.grad.releaseBy("ZeroGrad")
		t.grad = nil
	}
}

// Detach returns a tensor sharing t's memory with no autograd history and
// RequiresGrad false, like torch.Tensor.detach.  Writes through either are
// visible in both.
func (t *Tensor) Detach() *Tensor { return t.alias() }

// RegisterPostAccumulateGradHook registers fn to be called during
// Backward when leaf t's gradient for that Backward is final (added to
// Grad), like torch.Tensor.register_post_accumulate_grad_hook.
// Data-parallel training uses it to start reducing a gradient bucket while
// the rest of backward still runs.  It returns a function that removes the
// hook.  Hooks run on the goroutine calling Backward, in registration
// order, under NoGrad.
func (t *Tensor) RegisterPostAccumulateGradHook(fn func(leaf *Tensor)) (remove func()) {
	t.notNil("RegisterPostAccumulateGradHook")
	if t.node != nil {
		panic(&AutogradError{Op: "RegisterPostAccumulateGradHook", Reason: fmt.Sprintf("the tensor is the result of %s, not a leaf", t.node.op),
			Fix: "register the hook on the parameter (a leaf)"})
	}
	i := len(t.hooks)
	t.hooks = append(t.hooks, fn)
	return func() { t.hooks[i] = nil }
}
