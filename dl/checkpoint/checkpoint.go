package checkpoint

import (
	"github.com/dlbd/dlbd/dl"
	"github.com/dlbd/dlbd/dl/amp"
)

// Func is a differentiable function of tensors that Checkpoint may run
// twice: it must compute the same outputs from the same inputs (random
// numbers are replayed; see Config).
type Func func(inputs ...*dl.Tensor) []*dl.Tensor

// Config configures CheckpointWith; the zero value is torch's default
// (preserve_rng_state=True for the default generator).
type Config struct {
	// Generators whose state is saved before the forward pass and restored
	// for the recomputation, so Dropout draws the same masks.  nil means
	// dl.DefaultGenerator; CheckpointModule and CheckpointSequential add
	// the generators of the nn.Dropout layers they find.
	Generators []*dl.Generator
	// NoRNGState skips saving and restoring generator states (torch
	// preserve_rng_state=False): faster, correct only if fn draws no
	// random numbers.  Default false.
	NoRNGState bool
}

// Checkpoint runs fn(inputs...) without keeping its intermediate
// activations, and recomputes them during backward, like
// torch.utils.checkpoint.checkpoint(fn, *inputs): only the inputs are
// saved.  In Backward the generators are rewound to their state at the
// forward pass (so Dropout masks repeat), autocast and fusion are set as
// they were, fn runs again with grad enabled on detached copies of the
// inputs, and Backward is called on that graph with the incoming
// gradients; parameters used by fn receive their gradients there.  The
// generators are then put back where they were, like torch's fork_rng.
// The gradients equal those of the plain run bitwise: the same ops run on
// the same values in the same order.
//
// The forward pass runs under dl.NoGrad: tensors fn creates and does not
// return are released by the garbage collector, as any tensor dropped
// under NoGrad.  For exact peak-memory figures release them in fn, or use
// CheckpointSequential, which releases each module's output once the next
// one has consumed it.
//
// Course: "Prácticas de eficiencia computacional" (gradient
// checkpointing). Paper: Chen et al. 2016, Training Deep Nets with
// Sublinear Memory Cost (arXiv:1604.06174).
func Checkpoint(fn Func, inputs ...*dl.Tensor) []*dl.Tensor {
	return CheckpointWith(Config{}, fn, inputs...)
}

// CheckpointWith is Checkpoint with a Config.
func CheckpointWith(cfg Config, fn Func, inputs ...*dl.Tensor) []*dl.Tensor {
	f := &function{fn: fn}
	if !cfg.NoRNGState {
		f.gens = cfg.Generators
		if len(f.gens) == 0 {
			f.gens = []*dl.Generator{dl.DefaultGenerator}
		}
	}
	f.n = len(inputs)
	if dl.IsGradEnabled() && !anyRequiresGrad(inputs) {
		// dl.Apply records a node only if an input requires grad, and
		// the parameters fn uses are not inputs: without this 4-byte
		// leaf the first segment of a network (whose input is data)
		// would get no gradients.  (torch's reentrant checkpoint has
		// exactly this pitfall and warns about it.)
		dev := dl.CPU
		if len(inputs) > 0 && inputs[0] != nil {
			dev = inputs[0].Device()
		}
		f.leaf = dl.Options{Device: dev}.Scalar(0).SetRequiresGrad(true)
		inputs = append(inputs, f.leaf)
	}
	f.applied = len(inputs)
	return dl.Apply(f, inputs...)
}

// anyRequiresGrad reports whether a tensor of ts requires grad.
func anyRequiresGrad(ts []*dl.Tensor) bool {
	for _, t := range ts {
		if t != nil && t.RequiresGrad() {
			return true
		}
	}
	return false
}

// function is the dl.Function behind Checkpoint.
type function struct {
	fn       Func
	n        int        // inputs of fn
	applied  int        // inputs of Apply: n, or n+1 with the leaf of CheckpointWith
	leaf     *dl.Tensor // that leaf, released by Backward
	gens     []*dl.Generator
	states   []dl.GeneratorState // generator states at the forward pass
	autocast dl.DType
	autoOn   bool
	unfused  bool
}

// Forward records the state that the recomputation must reproduce and
// runs fn under NoGrad (dl.Apply's Forward), keeping only the inputs.
func (f *function) Forward(ctx *dl.FunctionContext, inputs ...*dl.Tensor) []*dl.Tensor {
	f.states = make([]dl.GeneratorState, len(f.gens))
	for i, g := range f.gens {
		f.states[i] = g.State()
	}
	f.autocast, f.autoOn = dl.AutocastDType()
	f.unfused = !dl.FusionEnabled()
	ctx.SaveForBackward(inputs[:f.n]...)
	return f.fn(inputs[:f.n]...)
}

// Backward recomputes fn with grad enabled and backpropagates through it.
func (f *function) Backward(ctx *dl.FunctionContext, grads ...*dl.Tensor) []*dl.Tensor {
	if f.leaf != nil {
		defer f.leaf.Release() // it carries no data: the engine reads only its flags
	}
	saved := ctx.Saved()
	xs := make([]*dl.Tensor, len(saved))
	for i, s := range saved {
		if s != nil {
			xs[i] = s.Detach().SetRequiresGrad(ctx.NeedsInputGrad(i))
		}
	}
	now := make([]dl.GeneratorState, len(f.gens))
	for i, g := range f.gens { // fork the generators: replay, then restore
		now[i] = g.State()
		g.SetState(f.states[i])
	}
	defer func() {
		for i, g := range f.gens {
			g.SetState(now[i])
		}
	}()
	dl.EnableGrad(func() { f.context(func() { backwardThrough(f.fn(xs...), grads) }) })
	out := make([]*dl.Tensor, f.applied) // nil for the extra leaf
	for i, x := range xs {
		if x != nil && ctx.NeedsInputGrad(i) {
			out[i] = x.Grad()
		}
		if x != nil {
			x.Release() // the alias only: the saved input goes with the graph
		}
	}
	return out
}

// context runs fn with the autocast and fusion settings of the forward.
func (f *function) context(fn func()) {
	run := fn
	if f.unfused {
		run = func() { dl.WithoutFusion(fn) }
	}
	if f.autoOn {
		amp.Autocast(f.autocast, run)
		return
	}
	run()
}

// backwardThrough backpropagates grads[i] from outs[i]: directly for one
// output; for several, through Σᵢ sum(outsᵢ·gradsᵢ), whose gradient with
// respect to outsᵢ is gradsᵢ exactly (products with 1 are exact).
func backwardThrough(outs, grads []*dl.Tensor) {
	var roots []*dl.Tensor
	for i, o := range outs {
		if o != nil && o.RequiresGrad() && i < len(grads) {
			if len(outs) == 1 {
				o.BackwardWith(dl.BackwardOptions{Grad: grads[i]})
				if !o.IsLeaf() { // the root of Backward is not released with its graph
					o.Release()
				}
				return
			}
			roots = append(roots, o.Mul(grads[i].Detach()).Sum())
		}
	}
	if len(roots) == 0 {
		return
	}
	total := roots[0]
	for _, r := range roots[1:] {
		total = total.Add(r)
	}
	total.Backward()
	total.Release()
}
