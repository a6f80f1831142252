package checkpoint

import (
	"fmt"
	"slices"

	"github.com/dlbd/dlbd/dl"
	"github.com/dlbd/dlbd/dl/nn"
)

// CheckpointModule returns m.Forward(x) computed under Checkpoint: m's
// activations are recomputed in backward instead of being kept.  The
// generators of the nn.Dropout layers inside m (and dl.DefaultGenerator)
// are replayed.  If m is an nn.Sequential or nn.MLP its modules run one
// by one and each intermediate output is released as soon as the next
// module has consumed it, so the forward pass holds at most two of them.
//
// Course: "Prácticas de eficiencia computacional" (checkpoint(self.block1, x)).
func CheckpointModule(m nn.Module, x *dl.Tensor) *dl.Tensor {
	mods := flatten(m)
	return CheckpointWith(Config{Generators: generators(mods)}, runModules(mods), x)[0]
}

// CheckpointSequential applies modules to x in order, checkpointing them
// in segments, like torch.utils.checkpoint.checkpoint_sequential: with
// size = len(modules)/segments (integer division), the first segments−1
// segments of size modules each run under CheckpointModule and the rest
// run plainly, since its activations are needed at once by backward.
// The forward pass then keeps only the segments' inputs, and backward
// recomputes one segment at a time: for n layers in √n segments the
// activations kept fall from n to about 2√n, at the cost of one more
// forward pass (Chen et al. 2016).  It panics if segments is not in
// [1, len(modules)].
//
// Course: "Prácticas de eficiencia computacional" (gradient checkpointing).
func CheckpointSequential(modules []nn.Module, segments int, x *dl.Tensor) *dl.Tensor {
	if segments < 1 || segments > len(modules) {
		panic(&dl.ValueError{Op: "checkpoint.CheckpointSequential", Reason: fmt.Sprintf("%d segments for %d modules", segments, len(modules)),
			Fix: fmt.Sprintf("use 1 <= segments <= %d", len(modules))})
	}
	size := len(modules) / segments
	end := 0
	for start := 0; start < size*(segments-1); start += size {
		end = start + size
		x = CheckpointModule(nn.NewSequential(modules[start:end]...), x)
	}
	return runModules(modules[end:])(x)[0]
}

// runModules returns a Func applying mods in order (fused where
// nn.Fuse applies, as nn.Sequential does).  Without grad mode (the
// checkpointed forward) it releases each intermediate output once the
// next module has produced its own; with grad mode the graph keeps them.
func runModules(mods []nn.Module) Func {
	return func(in ...*dl.Tensor) []*dl.Tensor {
		run := mods
		if dl.FusionEnabled() {
			run = nn.Fuse(mods)
		}
		x := in[0]
		release := !dl.IsGradEnabled()
		for _, m := range run {
			y := m.Forward(x)
			if release && x != in[0] && y != x {
				x.Release()
			}
			x = y
		}
		return []*dl.Tensor{x}
	}
}

// flatten returns the modules of nested Sequentials and MLPs in order,
// or m itself.
func flatten(m nn.Module) []nn.Module {
	var mods []nn.Module
	switch s := m.(type) {
	case *nn.Sequential:
		mods = s.Modules
	case *nn.MLP:
		mods = s.Modules
	default:
		return []nn.Module{m}
	}
	var out []nn.Module
	for _, c := range mods {
		out = append(out, flatten(c)...)
	}
	return out
}

// generators returns dl.DefaultGenerator and the generators of the
// Dropout layers among mods (also inside Transformer blocks).
func generators(mods []nn.Module) []*dl.Generator {
	gens := []*dl.Generator{dl.DefaultGenerator}
	add := func(d *nn.Dropout) {
		if d != nil && d.Generator != nil && !slices.Contains(gens, d.Generator) {
			gens = append(gens, d.Generator)
		}
	}
	for _, m := range mods {
		switch d := m.(type) {
		case *nn.Dropout:
			add(d)
		case *nn.Block:
			add(d.Drop1)
			add(d.Drop2)
			gens = append(gens, generators(flatten(d.MLP))[1:]...)
		}
	}
	return gens
}
