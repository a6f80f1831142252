package plan

import (
	"fmt"
	"math"

	"github.com/dlbd/dlbd/dl/dist/cost"
	"github.com/dlbd/dlbd/facts"
)

// Cluster is the hardware an estimate runs on: nodes of GPUsPerNode GPUs joined by Intra
// links (NVLink) and nodes joined by Inter links (InfiniBand, one NIC per GPU).
type Cluster struct {
	GPU         facts.Accelerator
	GPUsPerNode int
	Intra       cost.Link
	Inter       cost.Link
}

// NewCluster builds a cluster from names in the facts: an accelerator
// (facts.AcceleratorByName) and two interconnects (cost.LinkFromFacts).
func NewCluster(gpu string, gpusPerNode int, intra, inter string) (Cluster, error) {
	a, err := facts.AcceleratorByName(gpu)
	if err != nil {
		return Cluster{}, fmt.Errorf("plan: cluster GPU: %w", err)
	}
	li, err := cost.LinkFromFacts(intra)
	if err != nil {
		return Cluster{}, fmt.Errorf("plan: cluster intra-node link: %w", err)
	}
	le, err := cost.LinkFromFacts(inter)
	if err != nil {
		return Cluster{}, fmt.Errorf("plan: cluster inter-node link: %w", err)
	}
	if gpusPerNode < 1 {
		return Cluster{}, fmt.Errorf("plan: cluster: GPUsPerNode = %d; want ≥ 1", gpusPerNode)
	}
	return Cluster{GPU: a, GPUsPerNode: gpusPerNode, Intra: li, Inter: le}, nil
}

// PeakFLOPS is the GPU's dense BF16 peak in FLOP/s (half of NVIDIA's sparse headline).
func (c Cluster) PeakFLOPS() float64 { return c.GPU.BF16DenseTFLOPS * 1e12 }

// Run is one training run to estimate.
type Run struct {
	Model    Model
	Strategy Strategy
	Cluster  Cluster
	// Tokens to train on (D).
	Tokens float64
	// ComputeEfficiency is the fraction of the peak that the compute kernels reach when
	// busy; 0 means 0.55. It is an assumption, not a measurement: state it.
	ComputeEfficiency float64
	// Overlap is the fraction of data-parallel communication hidden behind the backward
	// pass (PyTorch DDP overlaps bucket all-reduces with backward); 0 means none.
	Overlap float64
}

// Estimate is the modelled time of one step and of the whole run.
type Estimate struct {
	TokensPerStep float64
	Compute       float64 // seconds of compute per step, bubble excluded
	Bubble        float64 // seconds idle in the pipeline bubble per step
	TPComm        float64 // tensor-parallel all-reduces on the critical path
	PPComm        float64 // pipeline point-to-point transfers on the critical path
	DPComm        float64 // gradient all-reduce (or ZeRO collectives), before overlap
	Step          float64 // seconds per optimizer step
	MFU           float64 // model FLOPs utilisation: 6·N·tokens/(Step·GPUs·peak)
	Steps         float64
	Seconds       float64 // whole run
	GPUHours      float64
	Memory        Memory
}

// Days is the run's wall-clock time in days.
func (e Estimate) Days() float64 { return e.Seconds / 86400 }

// Estimate models the run. Simplifications: no congestion, one collective at a time,
// the same ComputeEfficiency for every kernel, embedding and loss compute ignored.
func (r Run) Estimate() (Estimate, error) {
	m, s, c := r.Model, r.Strategy.norm(), r.Cluster
	mem, err := MemoryPerGPU(m, s)
	if err != nil {
		return Estimate{}, err
	}
	if c.GPUsPerNode < 1 || !(c.PeakFLOPS() > 0) {
		return Estimate{}, fmt.Errorf("plan: estimate: cluster needs GPUsPerNode ≥ 1 and a GPU with a BF16 peak (use NewCluster)")
	}
	eff := r.ComputeEfficiency
	if eff == 0 {
		eff = 0.55
	}
	if eff < 0 || eff > 1 || r.Overlap < 0 || r.Overlap > 1 || r.Tokens < 0 {
		return Estimate{}, fmt.Errorf("plan: estimate: ComputeEfficiency %.2f and Overlap %.2f must be in [0,1], Tokens ≥ 0", eff, r.Overlap)
	}
	n := float64(m.Params().Total)
	gpus := float64(s.GPUs())
	e := Estimate{Memory: mem, TokensPerStep: float64(s.GlobalBatch() * m.SeqLen)}
	flops := 6 * n * e.TokensPerStep
	if s.Recompute == FullRecompute {
		flops += 2 * n * e.TokensPerStep // one more forward pass
	}
	e.Compute = flops / gpus / (c.PeakFLOPS() * eff)
	e.Bubble = e.Compute * float64(s.PP-1) / float64(s.MicroBatches)

	actBytes := float64(m.SeqLen*s.MicroBatch*m.Hidden) * float64(s.Precision.ActivationBits) / 8
	if s.TP > 1 {
		link := c.Intra
		if s.TP > c.GPUsPerNode {
			link = c.Inter
		}
		perLayer := 4.0 // 2 all-reduces forward, 2 backward (Megatron's f and g)
		if s.Recompute == FullRecompute {
			perLayer = 6
		}
		ar := cost.RingAllReduce(s.TP, actBytes, link).Seconds
		e.TPComm = ar * perLayer * float64(m.Layers/s.PP) * float64(s.MicroBatches)
	}
	if s.PP > 1 {
		link := c.Inter
		if s.TP*s.PP <= c.GPUsPerNode {
			link = c.Intra
		}
		hop := link.Latency.Seconds() + actBytes/link.Bandwidth
		// Forward activations and backward gradients cross (p-1) boundaries per micro-batch;
		// with 1F1B only the first micro-batch's trip and the last one's return are exposed.
		e.PPComm = 2 * float64(s.PP-1) * hop
	}
	if s.DP > 1 {
		e.DPComm = dpCommSeconds(s, c, mem.ParamsPerGPU*s.Precision.GradBytes)
	}
	e.Step = e.Compute + e.Bubble + e.TPComm + e.PPComm + (1-r.Overlap)*e.DPComm
	e.MFU = 6 * n * e.TokensPerStep / (e.Step * gpus * c.PeakFLOPS())
	e.Steps = math.Ceil(r.Tokens / e.TokensPerStep)
	e.Seconds = e.Steps * e.Step
	e.GPUHours = e.Seconds * gpus / 3600
	return e, nil
}

// dpCommSeconds is the gradient synchronisation of one step across the DP group: an
// all-reduce (DDP, ZeRO-1/2: reduce-scatter + all-gather move the same bytes) or 1.5× that
// for ZeRO-3 (all-gather of parameters in forward and backward, reduce-scatter of
// gradients: 3Ψ instead of 2Ψ). DP ranks sit k per node, k = GPUsPerNode/(TP·PP) when
// that is ≥ 1, so the collective is hierarchical.
func dpCommSeconds(s Strategy, c Cluster, bytes float64) float64 {
	perNode := c.GPUsPerNode / (s.TP * s.PP)
	if perNode < 1 {
		perNode = 1
	}
	if perNode > s.DP {
		perNode = s.DP
	}
	topo := cost.Topology{Nodes: (s.DP + perNode - 1) / perNode, GPUsPerNode: perNode, Intra: c.Intra, Inter: c.Inter}
	t := topo.HierarchicalAllReduce(bytes).Seconds
	if s.ZeRO == ZeRO3 {
		t *= 1.5
	}
	return t
}

// GPUHoursFor is the GPU-hours to spend flops on gpu at a model FLOPs utilisation mfu.
func GPUHoursFor(flops float64, gpu facts.Accelerator, mfu float64) float64 {
	return flops / (gpu.BF16DenseTFLOPS * 1e12 * mfu) / 3600
}

// DaysOn is how many days gpuHours take on gpus GPUs running in parallel.
func DaysOn(gpuHours float64, gpus int) float64 { return gpuHours / float64(gpus) / 24 }

// CalibrateEfficiency returns the ComputeEfficiency at which r's estimate
// takes gpuHours, a reported figure (a model card's GPU-hours), so that
// the planner reproduces a real run; the Estimate at that efficiency comes
// with it.  The calibrated value folds in everything the model leaves
// out: restarts after failures, evaluation and checkpointing, stragglers,
// kernels slower than the assumed 55 % of the peak.  It returns an error
// if even ComputeEfficiency 1 needs more GPU-hours than reported (the
// modelled communication or bubble alone exceed the figure) or gpuHours is
// not positive.  The search is a bisection: GPU-hours fall as efficiency
// rises.
func (r Run) CalibrateEfficiency(gpuHours float64) (float64, Estimate, error) {
	if !(gpuHours > 0) {
		return 0, Estimate{}, fmt.Errorf("plan: calibrate: reported GPU-hours %g must be positive", gpuHours)
	}
	at := func(eff float64) (Estimate, error) {
		q := r
		q.ComputeEfficiency = eff
		return q.Estimate()
	}
	best, err := at(1)
	if err != nil {
		return 0, Estimate{}, err
	}
	if best.GPUHours > gpuHours {
		return 0, Estimate{}, fmt.Errorf("plan: calibrate: even at 100 %% compute efficiency the estimate needs %.3g GPU-hours, more than the %.3g reported: the modelled communication and bubble alone exceed it", best.GPUHours, gpuHours)
	}
	lo, hi := 1e-6, 1.0 // GPUHours(lo) > gpuHours >= GPUHours(hi)
	for range 100 {
		mid := (lo + hi) / 2
		e, _ := at(mid)
		if e.GPUHours > gpuHours {
			lo = mid
		} else {
			hi = mid
		}
	}
	e, err := at(hi)
	return hi, e, err
}
