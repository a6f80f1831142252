package dl

import (
	"fmt"
	"slices"
	"sync/atomic"
)

// BackwardOptions configures BackwardWith.  The zero value is Backward's
// behaviour.
type BackwardOptions struct {
	// Grad is the gradient of the root (torch: gradient=).  nil means 1,
	// which needs a root with one element.
	Grad *Tensor
	// RetainGraph keeps the graph (saved and intermediate tensors) for
	// another Backward through it (torch: retain_graph=True).  By default
	// Backward releases them.
	RetainGraph bool
}

var passes atomic.Uint64

// Backward computes the gradient of t (a tensor with one element, such as
// a loss) with respect to every leaf that requires grad, and adds it to
// the leaf's Grad, like torch.Tensor.backward.
//
// Afterwards the graph is released: its intermediate tensors (results of
// ops, except t itself and tensors marked with Retain) and the tensors
// ops saved for backward go back to their devices' allocators at once, so
// memory peaks are exact; using one of them panics with *ReleasedError,
// except Item on a one-element intermediate, whose value Backward keeps:
// loss.Item() works after scaler.Scale(loss).Backward(), as in PyTorch.
// Leaves (parameters, inputs) are never released.
//
// Backward runs under NoGrad (no graph of the backward pass is built).  It
// panics with *AutogradError if t does not require grad or the graph was
// already released.  Concurrent Backward calls must not share leaves.
func (t *Tensor) Backward() { t.BackwardWith(BackwardOptions{}) }

// BackwardWith is Backward with options.
func (t *Tensor) BackwardWith(o BackwardOptions) {
	const op = "Backward"
	CheckCancel(op)
	t.live(op)
	if !t.requiresGrad {
		panic(&AutogradError{Op: op, Reason: "the tensor does not require grad and has no grad history",
			Fix: "call SetRequiresGrad(true) on the leaves (parameters) before computing, outside NoGrad"})
	}
	var seed *Tensor
	if o.Grad == nil {
		if t.n != 1 {
			panic(&AutogradError{Op: op, Reason: fmt.Sprintf("grad can be created implicitly only for a tensor with one element, not shape %v", t.shape),
				Fix: "reduce it first (e.g. t.Sum()) or pass BackwardOptions{Grad: g}"})
		}
		seed = Options{Device: t.dev, DType: t.dtype}.Full(1, t.shape...)
	} else {
		g := o.Grad
		checkGradLike(op, t, g)
		seed = g.alias()
	}
	NoGrad(func() { runBackward(t, seed, o.RetainGraph) })
}

// checkGradLike panics unless g has t's shape, dtype and device.
func checkGradLike(op string, t, g *Tensor) {
	g.live(op)
	if !slices.Equal(g.shape, t.shape) {
		panic(shapeErr(op, [][]int{t.shape, g.shape}, "the gradient must have the tensor's shape",
			"gradient of shape %v for a tensor of shape %v", g.shape, t.shape))
	}
	if g.dtype != t.dtype {
		panic(&DTypeError{Op: op, DTypes: []DType{t.dtype, g.dtype}, Reason: fmt.Sprintf("gradient of dtype %v for a tensor of dtype %v", g.dtype, t.dtype), Fix: "convert it with .AsType"})
	}
	sameDevice(op, t, g)
}

// runBackward is the engine: it discovers the nodes reachable from the
// root, counting for each node (and leaf) how many consumers will send it
// a gradient; then it runs each node's backward once all of them have
// arrived (a topological order), so a leaf's gradient is final, and its
// hooks fire, exactly when its count reaches zero.
func runBackward(root, seed *Tensor, retain bool) {
	pass := passes.Add(1)
	if root.node == nil { // a leaf
		root.deps, root.pending = 1, nil
		finishInput(root, seed)
		return
	}
	discover(root.node, pass)
	root.node.grads[root.out] = seed
	ready := []*node{root.node}
	for len(ready) > 0 {
		CheckCancel("Backward") // SetCancel: stop between nodes
		n := ready[len(ready)-1]
		ready = ready[:len(ready)-1]
		gs := n.grads
		n.grads = nil
		for i, g := range gs {
			if g == nil { // an output nobody used: its gradient is zero
				gs[i] = Options{Device: n.outs[i].dev, DType: n.outs[i].dtype}.Zeros(n.outs[i].shape...)
			}
		}
		ins := n.backward(gs)
		for _, g := range gs {
			if !slices.Contains(ins, g) {
				g.releaseBy("Backward")
			}
		}
		for i, in := range n.inputs {
			var g *Tensor
			if i < len(ins) {
				g = ins[i]
			}
			if in == nil || !in.requiresGrad {
				if g != nil {
					g.releaseBy("Backward")
				}
				continue
			}
			if g != nil && !slices.Equal(g.shape, in.shape) {
				panic(&AutogradError{Op: n.op + " backward", Reason: fmt.Sprintf("gradient of input %d has shape %v; the input has shape %v", i, g.shape, in.shape),
					Fix: "a custom Function's Backward must return one gradient per input, shaped like it"})
			}
			if m := in.node; m != nil {
				m.grads[in.out] = accumulate(m.grads[in.out], g)
				if m.deps--; m.deps == 0 {
					ready = append(ready, m)
				}
			} else {
				finishInput(in, g)
			}
		}
		if !retain {
			n.free(root)
		}
	}
}

// discover walks the graph from n depth-first, resetting each node's
// state for this pass and counting consumers.
func discover(start *node, pass uint64) {
	start.pass, start.deps, start.grads = pass, 0, make([]*Tensor, len(start.outs))
	stack := []*node{start}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if n.freed {
			panic(&AutogradError{Op: "Backward", Reason: "trying to backward through the graph a second time (its tensors were released by the first Backward)",
				Fix: "pass BackwardOptions{RetainGraph: true} to the first Backward, or recompute the forward pass"})
		}
		for _, in := range n.inputs {
			if in == nil || !in.requiresGrad {
				continue
			}
			if m := in.node; m != nil {
				if m.pass != pass {
					m.pass, m.deps, m.grads = pass, 0, make([]*Tensor, len(m.outs))
					stack = append(stack, m)
				}
				m.deps++
			} else {
				if in.leafPass != pass {
					in.leafPass, in.deps, in.pending = pass, 0, nil
				}
				in.deps++
			}
		}
	}
}

// finishInput adds g to a leaf's pending gradient; with its last
// consumer done, the sum goes into the leaf's Grad and its hooks fire.
func finishInput(l *Tensor, g *Tensor) {
	l.pending = accumulate(l.pending, g)
	if l.deps--; l.deps > 0 {
		return
	}
	p := l.pending
	l.pending = nil
	if p == nil {
		return
	}
	switch {
	case l.grad == nil && p.st.refs.Load() == 1:
		l.grad = p
	case l.grad == nil:
		l.grad = p.Clone()
		p.releaseBy("Backward")
	default:
		l.grad.AddInPlace(p)
		p.releaseBy("Backward")
	}
	for _, h := range l.hooks {
		if h != nil {
			h(l)
		}
	}
}

// accumulate returns sum + g, adding in place when sum is the only handle
// on its memory; either may be nil.
func accumulate(sum, g *Tensor) *Tensor {
	switch {
	case g == nil:
		return sum
	case sum == nil:
		return g
	case sum.st.refs.Load() == 1:
		sum.AddInPlace(g)
		g.releaseBy("Backward")
		return sum
	}
	s := sum.Add(g)
	sum.releaseBy("Backward")
	g.releaseBy("Backward")
	return s
}

// free releases what node n kept for backward and its outputs (the graph's
// intermediates), except the root and retained tensors.
func (n *node) free(root *Tensor) {
	for _, s := range n.saved {
		s.releaseBy("Backward (saved for backward)")
	}
	for _, o := range n.outs {
		if o != root && !o.retained && o.released == "" {
			if o.n == 1 { // a loss the user may still read, as loss.item() after backward in PyTorch
				o.value, o.hasValue = o.Float64s()[0], true
			}
			o.releaseBy("Backward: it was an intermediate of the graph")
		}
	}
	n.saved, n.backward, n.inputs, n.freed = nil, nil, nil, true
}
