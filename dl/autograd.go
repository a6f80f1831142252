package dl

// node is one recorded operation of the dynamic tape (PyTorch's grad_fn):
// the backward function maps the gradients of its outputs to the
// gradients of its inputs.  Tensors point to the node that produced them
// (Tensor.node), so the graph is walked from the root of Backward towards
// the leaves.
type node struct {
	op       string
	inputs   []*Tensor
	outs     []*Tensor
	saved    []*Tensor // tensors kept only for backward; released with the graph
	backward func(grads []*Tensor) []*Tensor

	// Backward state.
	pass  uint64    // Backward call that last visited the node
	deps  int       // consumers whose gradient has not arrived yet
	grads []*Tensor // summed gradient of each output
	freed bool      // the graph was released after a Backward
}

// needsGrad reports whether an op on these inputs must record a node.
func needsGrad(inputs ...*Tensor) bool {
	for _, t := range inputs {
		if t != nil && t.requiresGrad {
			return IsGradEnabled()
		}
	}
	return false
}

// record attaches a node to out.  bw receives the gradient of out (never
// nil) and returns one gradient per input (nil where an input gets none),
// each a new handle shaped like its input (pass a gradient through with
// g.alias()).  saved lists tensors the op created only for backward, so
// the graph's release frees them.
func record(op string, out *Tensor, inputs []*Tensor, saved []*Tensor, bw func(g *Tensor) []*Tensor) {
	n := &node{op: op, inputs: inputs, outs: []*Tensor{out}, saved: saved,
		backward: func(gs []*Tensor) []*Tensor { return bw(gs[0]) }}
	out.node, out.out, out.requiresGrad = n, 0, true
}

// recordMulti attaches one node to several outputs (custom functions).
func recordMulti(op string, outs []*Tensor, inputs []*Tensor, saved []*Tensor, bw func(gs []*Tensor) []*Tensor) {
	n := &node{op: op, inputs: inputs, outs: outs, saved: saved, backward: bw}
	for i, o := range outs {
		o.node, o.out, o.requiresGrad = n, i, true
	}
}

// alias returns a new handle on t's memory (shape copied).
func (t *Tensor) alias() *Tensor {
	t.live("alias")
	return wrap(t.st, t.off, append([]int(nil), t.shape...))
}
