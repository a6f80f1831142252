package parallel

import (
	"fmt"

	"github.com/dlbd/dlbd/dl"
	"github.com/dlbd/dlbd/dl/dist"
	"github.com/dlbd/dlbd/dl/nn"
)

// Grid3DConfig is the shape of a 3D-parallel run. The data-parallel degree
// is what is left: DP = world size / (TP·PP).
type Grid3DConfig struct {
	TP int // tensor-parallel degree (Megatron --tensor-model-parallel-size); default 1
	PP int // pipeline stages (--pipeline-model-parallel-size); default 1
	// Pipeline configures the pipeline of every (tp, dp) column: schedule,
	// micro-batches, loss.
	Pipeline PipelineConfig
}

// Grid3D is 3D parallelism: the world is a DP × TP × PP grid (dist.Grid,
// Megatron's layout: tensor-parallel partners are neighbours, pipeline
// stages furthest apart). Each rank holds, for its pipeline stage pp, the
// tensor-parallel shard tp of that stage's Transformer blocks, and trains
// on the share dp of the batch:
//
//	within a stage   TP: each block's 2 + 2 all-reduces in the TP group
//	between stages   PP: activations and gradients sent with Send/Recv
//	across replicas  DP: after the pipeline flush, gradients all-reduced in
//	                 the DP group (ranks with the same tp and pp)
//
// Course: "3D Parallelism y FSDP": «TP dentro del nodo (NVLink), PP entre
// nodos cercanos, y DP en la dimensión más externa».
// Paper: Narayanan et al. 2021, Efficient Large-Scale Language Model Training on GPU Clusters Using Megatron-LM (arXiv:2104.04473).
type Grid3D struct {
	Grid     *dist.Grid
	Pipeline *Pipeline // this rank's stage: its blocks, tensor-parallel
	Blocks   []*TPBlock
}

// NewGrid3D builds rank r's part of a model made of the dense blocks
// (read, not changed): blocks [pp·L/PP, (pp+1)·L/PP) split over the TP
// group and placed on r's device. Every rank of r's group must call it
// with the same blocks and configuration.
func NewGrid3D(blocks []*nn.Block, r *dist.Rank, cfg Grid3DConfig) (*Grid3D, error) {
	grid, err := r.NewGrid(dist.GridConfig{TP: cfg.TP, PP: cfg.PP})
	if err != nil {
		return nil, fmt.Errorf("parallel: NewGrid3D: %w", err)
	}
	if len(blocks)%grid.PP != 0 {
		return nil, fmt.Errorf("parallel: NewGrid3D: %d blocks do not split into %d equal pipeline stages", len(blocks), grid.PP)
	}
	_, _, pp := grid.Coords()
	k := len(blocks) / grid.PP
	g := &Grid3D{Grid: grid}
	var mods []nn.Module
	for _, b := range blocks[pp*k : (pp+1)*k] {
		tb := NewTPBlock(b, grid.TPGroup)
		g.Blocks = append(g.Blocks, tb)
		mods = append(mods, tb)
	}
	g.Pipeline = NewPipeline(nn.NewSequential(mods...), grid.PPGroup, cfg.Pipeline)
	return g, nil
}

// Step trains on the global batch x, target (the same tensors on every
// rank): this rank's data-parallel share is cut out, run through the
// pipeline in micro-batches, and the gradients are averaged over the DP
// group. It returns the mean loss of this replica's share on the last
// stage (0 elsewhere). Step the optimizer over Parameters afterwards.
func (g *Grid3D) Step(x, target *dl.Tensor) (float64, error) {
	_, dp, _ := g.Grid.Coords()
	share := func(t *dl.Tensor) *dl.Tensor {
		n := t.Size(0)
		if n%g.Grid.DP != 0 {
			panic(&dl.ShapeError{Op: "parallel.Grid3D.Step", Shapes: [][]int{t.Shape()},
				Reason: fmt.Sprintf("a batch of %d does not split over %d data-parallel replicas", n, g.Grid.DP), Fix: "use a multiple of DP"})
		}
		b := n / g.Grid.DP
		return t.Slice(dp*b, (dp+1)*b)
	}
	xs, ts := share(x), share(target)
	defer releaseAll(xs, ts)
	loss, err := g.Pipeline.Step(xs, ts)
	if err != nil {
		return 0, err
	}
	if err := AllReduceGradients(g.Grid.DPGroup, g.Parameters()); err != nil {
		return 0, fmt.Errorf("parallel: 3D data-parallel gradient all-reduce: %w", err)
	}
	return loss, nil
}

// Parameters returns this rank's parameters (its stage's TP shards).
func (g *Grid3D) Parameters() []*dl.Tensor { return nn.Parameters(g.Pipeline.Stage) }
