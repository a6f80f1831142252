package parallel

import (
	"github.com/dlbd/dlbd/dl"
	"github.com/dlbd/dlbd/dl/dist"
	"github.com/dlbd/dlbd/dl/nn"
	"github.com/dlbd/dlbd/dl/optim"
)

// ShardingStrategy is PyTorch FSDP's name for a ZeRO stage
// (torch.distributed.fsdp.ShardingStrategy).
//
// Course: "3D Parallelism y FSDP": sharding_strategy=ShardingStrategy.FULL_SHARD  # ZeRO-3.
type ShardingStrategy int

const (
	// FullShard shards parameters, gradients and optimizer states
	// (FULL_SHARD, FSDP's default): ZeRO stage 3.
	FullShard ShardingStrategy = iota
	// ShardGradOp shards gradients and optimizer states (SHARD_GRAD_OP):
	// ZeRO stage 2. (PyTorch also frees the unsharded parameters after
	// backward and re-gathers them before the next forward; its peak is
	// ZeRO-2's.)
	ShardGradOp
	// NoShard replicates everything (NO_SHARD): DDP, ZeRO stage 0.
	NoShard
)

// String returns the PyTorch name, e.g. "FULL_SHARD".
func (s ShardingStrategy) String() string {
	switch s {
	case FullShard:
		return "FULL_SHARD"
	case ShardGradOp:
		return "SHARD_GRAD_OP"
	case NoShard:
		return "NO_SHARD"
	}
	return "ShardingStrategy(?)"
}

// ZeROStage returns the ZeRO stage the strategy corresponds to: 3, 2 or 0.
func (s ShardingStrategy) ZeROStage() int {
	switch s {
	case ShardGradOp:
		return 2
	case NoShard:
		return 0
	}
	return 3
}

// FSDPConfig configures NewFSDP with PyTorch FSDP's vocabulary. The zero
// value is FULL_SHARD in the model's dtype with Adam.
type FSDPConfig struct {
	ShardingStrategy ShardingStrategy // torch sharding_strategy; default FullShard
	// BF16 is MixedPrecision(param_dtype=torch.bfloat16,
	// reduce_dtype=torch.float32); default false.
	BF16 bool
	// Optimizer builds the optimizer over the rank's flat shards (in
	// PyTorch: torch.optim.AdamW(model.parameters()) after wrapping);
	// default Adam.
	Optimizer func(params []*dl.Tensor) optim.Optimizer
}

// NewFSDP wraps m like torch.distributed.fsdp.FullyShardedDataParallel:
// it is NewZeRO with the stage the strategy names. Units are the children
// of an nn.Sequential (transformer_auto_wrap_policy wraps each layer in
// the same way).
//
// Course: "3D Parallelism y FSDP".
// Paper: Zhao et al. 2023, PyTorch FSDP: Experiences on Scaling Fully Sharded Data Parallel (arXiv:2304.11277).
func NewFSDP(m nn.Module, r *dist.Rank, cfg FSDPConfig) (*ZeRO, error) {
	return NewZeRO(m, r, ZeROConfig{Stage: cfg.ShardingStrategy.ZeROStage(), BF16: cfg.BF16, Optimizer: cfg.Optimizer})
}
