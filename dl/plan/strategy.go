package plan

import "fmt"

// ZeROStage says which model states data-parallel ranks shard (Rajbhandari et al. 2020).
// PyTorch FSDP's strategies map to it: NO_SHARD = 0 (DDP), SHARD_GRAD_OP = 2,
// FULL_SHARD = 3.
type ZeROStage int

// ZeRO stages.
const (
	NoShard ZeROStage = iota // DDP: every rank holds everything
	ZeRO1                    // optimizer states sharded
	ZeRO2                    // + gradients
	ZeRO3                    // + parameters (FSDP FULL_SHARD)
)

// Recompute is the activation recomputation policy (Korthikanti et al. 2022).
type Recompute int

// Recomputation policies.
const (
	// NoRecompute stores every activation the backward pass needs.
	NoRecompute Recompute = iota
	// SelectiveRecompute recomputes only the attention scores/softmax/dropout part (the
	// 5·a·s/h term), as FlashAttention effectively does.
	SelectiveRecompute
	// FullRecompute stores only each layer's input and recomputes the layer in backward
	// (gradient checkpointing of every layer): one extra forward pass.
	FullRecompute
)

// Schedule is a pipeline-parallel schedule.
type Schedule int

// Pipeline schedules.
const (
	OneFOneB Schedule = iota // 1F1B: at most p micro-batches of activations in flight
	GPipe                    // all forward, then all backward: m micro-batches in flight
)

// Precision gives the bytes per parameter of each model state.
type Precision struct {
	Name           string
	WeightBytes    float64 // working copy of the weights
	GradBytes      float64
	OptimizerBytes float64 // K in the ZeRO paper
	ActivationBits int     // 16 for fp16/bf16 activations; Korthikanti's formula assumes 16
}

// Precisions.
var (
	// MixedPrecisionAdam is fp16/bf16 weights and gradients with fp32 master weights, Adam
	// momentum and variance: 2 + 2 + 12 = 16 bytes per parameter (the ZeRO paper's case).
	MixedPrecisionAdam = Precision{Name: "mixed-precision Adam", WeightBytes: 2, GradBytes: 2, OptimizerBytes: 12, ActivationBits: 16}
	// FP32Adam is plain fp32 training with Adam: 4 + 4 + 8 bytes per parameter.
	FP32Adam = Precision{Name: "fp32 Adam", WeightBytes: 4, GradBytes: 4, OptimizerBytes: 8, ActivationBits: 32}
)

// Strategy is how a model is split over GPUs: a DP × TP × PP grid (Megatron-LM's 3D
// parallelism) plus ZeRO sharding over the data-parallel ranks. The zero value of each
// degree means 1.
type Strategy struct {
	DP, TP, PP int
	ZeRO       ZeROStage
	// SequenceParallel splits the LayerNorm/dropout activations along the sequence over the
	// TP ranks (Korthikanti et al.); only meaningful with TP > 1.
	SequenceParallel bool
	Recompute        Recompute
	Schedule         Schedule
	// MicroBatch is the per-GPU micro-batch size b in sequences; 0 means 1.
	MicroBatch int
	// MicroBatches is the number m of micro-batches per step per pipeline (gradient
	// accumulation steps); 0 means 1. Global batch = DP · m · b sequences.
	MicroBatches int
	// Precision of the model states; the zero value means MixedPrecisionAdam.
	Precision Precision
}

func (s Strategy) norm() Strategy {
	one := func(v *int) {
		if *v == 0 {
			*v = 1
		}
	}
	one(&s.DP)
	one(&s.TP)
	one(&s.PP)
	one(&s.MicroBatch)
	one(&s.MicroBatches)
	if s.Precision.Name == "" {
		s.Precision = MixedPrecisionAdam
	}
	return s
}

// GPUs is DP · TP · PP.
func (s Strategy) GPUs() int { s = s.norm(); return s.DP * s.TP * s.PP }

// GlobalBatch is the sequences per optimizer step: DP · m · b.
func (s Strategy) GlobalBatch() int { s = s.norm(); return s.DP * s.MicroBatches * s.MicroBatch }

// Validate checks s against m: degrees positive and dividing what they split.
func (s Strategy) Validate(m Model) error {
	if err := m.Validate(); err != nil {
		return err
	}
	if s.DP < 0 || s.TP < 0 || s.PP < 0 || s.MicroBatch < 0 || s.MicroBatches < 0 {
		return fmt.Errorf("plan: strategy %v: degrees and batch sizes must be ≥ 0 (0 means 1)", s)
	}
	s = s.norm()
	switch {
	case m.Heads%s.TP != 0 || m.kvHeads()%s.TP != 0:
		return fmt.Errorf("plan: TP=%d must divide the %d attention heads and %d key/value heads of %s (Megatron splits heads across TP ranks)", s.TP, m.Heads, m.kvHeads(), m.Name)
	case m.ffn()%s.TP != 0:
		return fmt.Errorf("plan: TP=%d must divide the MLP size %d of %s", s.TP, m.ffn(), m.Name)
	case m.Layers%s.PP != 0:
		return fmt.Errorf("plan: PP=%d must divide the %d layers of %s (equal stages)", s.PP, m.Layers, m.Name)
	case s.ZeRO < NoShard || s.ZeRO > ZeRO3:
		return fmt.Errorf("plan: ZeRO stage %d does not exist (0-3)", s.ZeRO)
	}
	return nil
}

// String is a compact description like "DP=64 TP=8 PP=4 ZeRO-1 SP 1F1B m=16 b=1".
func (s Strategy) String() string {
	n := s.norm()
	out := fmt.Sprintf("DP=%d TP=%d PP=%d", n.DP, n.TP, n.PP)
	if n.ZeRO > 0 {
		out += fmt.Sprintf(" ZeRO-%d", n.ZeRO)
	}
	if n.SequenceParallel {
		out += " SP"
	}
	switch n.Recompute {
	case SelectiveRecompute:
		out += " selective-recompute"
	case FullRecompute:
		out += " full-recompute"
	}
	if n.PP > 1 {
		out += map[Schedule]string{OneFOneB: " 1F1B", GPipe: " GPipe"}[n.Schedule]
	}
	return out + fmt.Sprintf(" m=%d b=%d", n.MicroBatches, n.MicroBatch)
}
