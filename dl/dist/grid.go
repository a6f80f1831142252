package dist

import "fmt"

// GridConfig is the shape of a 3D-parallel layout. The zero value of each
// field means 1; the data-parallel degree is what is left:
// DP = world size / (TP·PP).
type GridConfig struct {
	TP int // tensor-parallel degree (Megatron-LM's --tensor-model-parallel-size)
	PP int // pipeline-parallel degree (--pipeline-model-parallel-size)
}

// Grid is one rank's place in a DP × TP × PP grid: its handles on the three
// groups it belongs to. Ranks are laid out as in Megatron-LM (order
// "tp-dp-pp"): rank = tp + TP·(dp + DP·pp). Tensor-parallel partners are
// neighbours (on a real cluster: the GPUs of one node, on NVLink), then
// data-parallel replicas, and pipeline stages are furthest apart.
//
// Course: "3D Parallelism y FSDP".
// Paper: Narayanan et al. 2021, Efficient Large-Scale Language Model Training on GPU Clusters Using Megatron-LM (arXiv:2104.04473).
type Grid struct {
	TP, DP, PP int   // the degrees
	TPGroup    *Rank // ranks that share this rank's (dp, pp): they split each layer
	DPGroup    *Rank // ranks that share (tp, pp): replicas that all-reduce gradients
	PPGroup    *Rank // ranks that share (tp, dp): the stages of one pipeline
}

// Coords returns this rank's (tp, dp, pp) coordinates.
func (g *Grid) Coords() (tp, dp, pp int) {
	return g.TPGroup.Rank(), g.DPGroup.Rank(), g.PPGroup.Rank()
}

// NewGrid builds the grid's three groups (three Split collectives); every
// rank of r's group must call it with the same cfg.
func (r *Rank) NewGrid(cfg GridConfig) (*Grid, error) {
	tp, pp := max(cfg.TP, 1), max(cfg.PP, 1)
	n := r.Size()
	if cfg.TP < 0 || cfg.PP < 0 || n%(tp*pp) != 0 {
		return nil, fmt.Errorf("dist: new-grid on rank %d: group size %d is not a multiple of TP×PP = %d×%d", r.rank, n, tp, pp)
	}
	if err := r.fence(); err != nil {
		return nil, err
	}
	dp := n / (tp * pp)
	t, d, p := r.rank%tp, r.rank/tp%dp, r.rank/(tp*dp)
	var g Grid
	var err error
	g.TP, g.DP, g.PP = tp, dp, pp
	if g.TPGroup, err = r.split(d+dp*p, t, "tp"); err != nil {
		return nil, err
	}
	if g.DPGroup, err = r.split(t+tp*p, d, "dp"); err != nil {
		return nil, err
	}
	if g.PPGroup, err = r.split(t+tp*d, p, "pp"); err != nil {
		return nil, err
	}
	return &g, nil
}
