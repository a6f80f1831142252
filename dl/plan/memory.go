package plan

import (
	"fmt"
	"math"

	"github.com/dlbd/dlbd/facts"
)

// Memory is the bytes one GPU needs, by kind. Activations are for the busiest pipeline
// stage (the first: with 1F1B it holds the most micro-batches).
type Memory struct {
	ParamsPerGPU float64 // Ψ held by this GPU before ZeRO sharding (after TP/PP splits)
	Weights      float64
	Gradients    float64
	Optimizer    float64
	Activations  float64
}

// Total is the sum of all parts.
func (m Memory) Total() float64 { return m.Weights + m.Gradients + m.Optimizer + m.Activations }

// ModelStates are the bytes of weights, gradients and optimizer states of psi parameters
// on one of dp data-parallel ranks under a ZeRO stage — for mixed-precision Adam the ZeRO
// paper's 16Ψ, 4Ψ + 12Ψ/N, 2Ψ + 14Ψ/N and 16Ψ/N. It works for any model (psi can be
// the parameter count of a small MLP measured with the device accounting).
func ModelStates(psi float64, prec Precision, zero ZeROStage, dp int) Memory {
	if prec.Name == "" {
		prec = MixedPrecisionAdam
	}
	if dp < 1 {
		dp = 1
	}
	shard := func(stage ZeROStage) float64 {
		if zero >= stage {
			return float64(dp)
		}
		return 1
	}
	return Memory{
		ParamsPerGPU: psi,
		Weights:      prec.WeightBytes * psi / shard(ZeRO3),
		Gradients:    prec.GradBytes * psi / shard(ZeRO2),
		Optimizer:    prec.OptimizerBytes * psi / shard(ZeRO1),
	}
}

// ParamsPerGPU is the parameters one GPU of the busiest pipeline stage holds: its L/p
// layers split t ways, plus the vocabulary-parallel embedding (first stage) or output
// head (last stage). Simplification: norm weights, which Megatron replicates across TP
// ranks, are counted as split.
func ParamsPerGPU(m Model, s Strategy) float64 {
	s = s.norm()
	p := m.Params()
	t, pp := float64(s.TP), float64(s.PP)
	layers := float64(p.Layers) / pp / t
	if s.PP == 1 {
		return layers + float64(p.Embedding+p.FinalNorm+p.OutputHead)/t
	}
	first := layers + float64(p.Embedding)/t
	head := p.OutputHead
	if m.TiedEmbeddings {
		head = p.Embedding // the last stage keeps its own copy of the tied matrix
	}
	last := layers + float64(head+p.FinalNorm)/t
	return math.Max(first, last)
}

// ActivationsPerLayer is the activation memory of one transformer layer for one
// micro-batch on one GPU (Korthikanti et al. 2022, Table 2), scaled from their 16-bit
// activations to the strategy's precision:
//
//	no parallelism              s·b·h·(34 + 5·a·s/h)
//	tensor parallel             s·b·h·(10 + 24/t + 5·a·s/(h·t))
//	tensor + sequence parallel  s·b·h·(34 + 5·a·s/h)/t
//	selective recomputation     the 5·a·s/h term disappears
//	full recomputation          2·s·b·h (÷t with sequence parallelism): the layer input only
//
// Simplification: the formula is for GPT's 4h MLP and multi-head attention; gated MLPs
// and grouped-query attention change the constants a little.
func ActivationsPerLayer(m Model, s Strategy) float64 {
	s = s.norm()
	sq, b, h, a, t := float64(m.SeqLen), float64(s.MicroBatch), float64(m.Hidden), float64(m.Heads), float64(s.TP)
	sbh := sq * b * h
	scores := 5 * a * sq / h
	if s.Recompute != NoRecompute {
		scores = 0
	}
	var bytes float64
	switch {
	case s.Recompute == FullRecompute && s.SequenceParallel:
		bytes = 2 * sbh / t
	case s.Recompute == FullRecompute:
		bytes = 2 * sbh
	case s.SequenceParallel || s.TP == 1:
		bytes = sbh * (34 + scores) / t
	default:
		bytes = sbh * (10 + 24/t + scores/t)
	}
	return bytes * float64(s.Precision.ActivationBits) / 16
}

// InFlightMicroBatches is how many micro-batches' activations the first pipeline stage
// holds at its peak: 1 without pipelining, min(p, m) with 1F1B, m with GPipe.
func InFlightMicroBatches(s Strategy) int {
	s = s.norm()
	switch {
	case s.PP == 1:
		return 1
	case s.Schedule == GPipe:
		return s.MicroBatches
	default:
		return min(s.PP, s.MicroBatches)
	}
}

// MemoryPerGPU estimates the peak bytes of one GPU training m with strategy s.
func MemoryPerGPU(m Model, s Strategy) (Memory, error) {
	if err := s.Validate(m); err != nil {
		return Memory{}, err
	}
	s = s.norm()
	mem := ModelStates(ParamsPerGPU(m, s), s.Precision, s.ZeRO, s.DP)
	layers := float64(m.Layers / s.PP)
	mem.Activations = ActivationsPerLayer(m, s) * layers * float64(InFlightMicroBatches(s))
	if s.Recompute == FullRecompute {
		// During backward one layer is recomputed with all its activations.
		full := s
		full.Recompute = NoRecompute
		mem.Activations += ActivationsPerLayer(m, full)
	}
	return mem, nil
}

// Fit says whether mem fits in the memory of gpu and by how much.
type Fit struct {
	GPU      string
	Capacity float64 // bytes (spec-sheet GB = 1e9 bytes)
	Need     float64
	Fits     bool
	Source   facts.Citation
}

// String is e.g. "needs 141.2 GB of 80 GB on H100 SXM5 80GB: does not fit".
func (f Fit) String() string {
	verdict := "fits"
	if !f.Fits {
		verdict = "does not fit"
	}
	return fmt.Sprintf("needs %.1f GB of %.0f GB on %s: %s", f.Need/1e9, f.Capacity/1e9, f.GPU, verdict)
}

// FitsOn compares mem with the memory of gpu (from facts.Accelerators). Simplification:
// no allowance for the framework's workspace, fragmentation or the CUDA context, which
// take a few GB in practice.
func FitsOn(mem Memory, gpu facts.Accelerator) Fit {
	capacity := gpu.MemoryGB * 1e9
	return Fit{GPU: gpu.FullName(), Capacity: capacity, Need: mem.Total(), Fits: mem.Total() <= capacity, Source: gpu.Citation}
}
