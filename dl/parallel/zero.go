package parallel

import (
	"fmt"

	"github.com/dlbd/dlbd/dl"
	"github.com/dlbd/dlbd/dl/dist"
	"github.com/dlbd/dlbd/dl/nn"
	"github.com/dlbd/dlbd/dl/optim"
)

// ZeROConfig configures NewZeRO. The zero value is stage 0 (plain data
// parallelism) with Adam and no mixed precision.
type ZeROConfig struct {
	// Stage is what the data-parallel ranks shard (DeepSpeed's
	// zero_optimization.stage): 0 nothing (DDP), 1 the optimizer states,
	// 2 also the gradients, 3 also the parameters. Default 0.
	Stage int
	// BF16 computes in bfloat16 with float32 master weights (DeepSpeed
	// "bf16": {"enabled": true}; FSDP MixedPrecision(param_dtype=bfloat16,
	// reduce_dtype=float32)): the working parameters and gradients take 2
	// bytes each and the optimizer keeps a float32 copy, the ZeRO paper's
	// 2 + 2 + 12 bytes per parameter with Adam. Default false: the model's
	// dtype throughout.
	BF16 bool
	// Offload keeps the optimizer's part on the host (ZeRO-Offload,
	// DeepSpeed's "offload_optimizer": {"device": "cpu"}): the master
	// shards and the optimizer states live in CPU memory, each step copies
	// the gradient shard to the host, runs the optimizer there and copies
	// the updated shard back. The device keeps only the working parameters
	// and gradients. Stages 1 and 2 (stage 3's parameter offload, ZeRO-
	// Infinity, is not implemented). Default false.
	Offload bool
	// Optimizer builds the optimizer over the tensors this rank updates
	// (its master shards, 1-D). Default: optim.NewAdam with torch's
	// defaults.
	Optimizer func(params []*dl.Tensor) optim.Optimizer
}

// ZeRO is sharded data parallelism, the Zero Redundancy Optimizer: like
// DDP every rank trains on its part of the batch, but the model states are
// split over the N ranks instead of replicated.
//
//	stage 0  (DDP)            all-reduce gradients                        16Ψ
//	stage 1  optimizer states reduce-scatter gradients, all-gather params 4Ψ + 12Ψ/N
//	stage 2  + gradients      the same, full gradients freed per unit     2Ψ + 14Ψ/N
//	stage 3  + parameters     all-gather before forward and backward      16Ψ/N
//
// (bytes per rank with mixed-precision Adam, Ψ parameters). Each unit — a
// child of an nn.Sequential, like FSDP's wrapping of each layer; the whole
// model otherwise — is one flat vector padded to N equal shards. NewZeRO
// takes over the model's parameters: it releases the original tensors and
// points the model's fields at views of its own buffers.
//
// Stages 1 and 2 move as many bytes as DDP (a reduce-scatter and an
// all-gather are one all-reduce); stage 3 adds a second all-gather for
// backward: 1.5× DDP's traffic.
//
// Simplifications: the collectives are blocking (DDP shows the overlap);
// stage 3 recomputes each unit's forward in backward, as FSDP does with
// activation checkpointing, because a dl tensor's memory cannot be freed
// while autograd holds it (PyTorch FSDP resizes the parameters' storage to
// zero and back); stage 1 reduces once per step, so accumulate gradients
// under NoSync.
//
// Course: "3D Parallelism y FSDP".
// Paper: Rajbhandari et al. 2020, ZeRO: Memory Optimizations Toward Training Trillion Parameter Models (arXiv:1910.02054).
type ZeRO struct {
	Module nn.Module
	rank   *dist.Rank
	cfg    ZeROConfig
	steps  []zeroStep // the model's children in order, with their unit if they have parameters
	units  []*flatParam
	opt    optim.Optimizer
	work   dl.DType // working dtype (BFloat16 with BF16)
	noSync bool
	castIn *dl.Tensor // Forward's input converted to the working dtype, released after the step
}

// zeroStep is one child of the model and its unit (nil without parameters).
type zeroStep struct {
	module nn.Module
	unit   *flatParam
}

var _ nn.Module = (*ZeRO)(nil)

// NewZeRO wraps m (parameters on r's device, all Float32 or all Float64),
// broadcasts rank 0's parameters, flattens and shards them. Every rank of
// r's group must call it.
func NewZeRO(m nn.Module, r *dist.Rank, cfg ZeROConfig) (*ZeRO, error) {
	if cfg.Stage < 0 || cfg.Stage > 3 {
		return nil, fmt.Errorf("parallel: NewZeRO: stage %d; want 0, 1, 2 or 3", cfg.Stage)
	}
	if cfg.Offload && (cfg.Stage < 1 || cfg.Stage > 2) {
		return nil, fmt.Errorf("parallel: NewZeRO: Offload at stage %d; ZeRO-Offload moves the sharded optimizer states of stages 1 and 2 to the host (use Stage: 1 or 2; offloading stage 3's parameters, ZeRO-Infinity, is not implemented)", cfg.Stage)
	}
	if err := broadcastParams("NewZeRO", m, r); err != nil {
		return nil, err
	}
	z := &ZeRO{Module: m, rank: r, cfg: cfg}
	kids := children(m)
	var masters []*dl.Tensor
	for i, c := range kids {
		nps := c.NamedParameters()
		if len(nps) == 0 {
			z.steps = append(z.steps, zeroStep{module: c})
			continue
		}
		u := &flatParam{module: c, names: prefixNames(nps, i, len(kids) == 1)}
		if err := z.build(u, nn.Parameters(c)); err != nil {
			return nil, err
		}
		z.steps = append(z.steps, zeroStep{module: c, unit: u})
		z.units = append(z.units, u)
		masters = append(masters, u.master)
	}
	if len(z.units) == 0 {
		return nil, fmt.Errorf("parallel: NewZeRO: %T has no parameters", m)
	}
	if cfg.Optimizer == nil {
		z.opt = optim.NewAdam(masters, optim.AdamConfig{})
	} else {
		z.opt = cfg.Optimizer(masters)
	}
	return z, nil
}

// build lays out unit u over ps and creates the buffers of the stage.
func (z *ZeRO) build(u *flatParam, ps []*dl.Tensor) error {
	md := ps[0].DType()
	for _, p := range ps {
		if p.DType() != md || (md != dl.Float32 && md != dl.Float64) {
			return fmt.Errorf("parallel: NewZeRO: parameters must all be float32 or all float64, got %v and %v (ZeRO keeps them as master weights; use BF16 for mixed precision)", md, p.DType())
		}
	}
	z.work = md
	if z.cfg.BF16 {
		z.work = dl.BFloat16
	}
	n, rk, dev := z.rank.Size(), z.rank.Rank(), z.rank.Device()
	u.layout(ps, n, z.work)
	fullMaster := dl.Options{Device: dev, DType: md}.Zeros(u.padded)
	for i, v := range u.paramViews(fullMaster) {
		v.CopyInPlace(ps[i])
		v.Release()
	}
	switch {
	case z.cfg.Stage == 0:
		u.master = fullMaster
		u.full = fullMaster
		if z.cfg.BF16 {
			u.full = fullMaster.AsType(z.work)
		}
	case z.cfg.Stage < 3:
		u.full = fullMaster
		if z.cfg.BF16 {
			u.full = fullMaster.AsType(z.work)
		}
		own := u.own(fullMaster, rk)
		switch {
		case z.cfg.Offload: // the master shard in host memory
			u.master = own.To(dl.CPU)
			own.Release()
			if z.cfg.BF16 {
				fullMaster.Release()
			}
		case z.cfg.BF16:
			u.master = own.Clone()
			own.Release()
			fullMaster.Release()
		default:
			u.master = own // a view: the optimizer updates its part of full in place
		}
	default: // stage 3: keep only this rank's shard
		own := u.own(fullMaster, rk)
		u.master = own.Clone()
		own.Release()
		fullMaster.Release()
		u.shard = u.master
		if z.cfg.BF16 {
			u.shard = u.master.AsType(z.work)
		}
		u.shard.SetRequiresGrad(true)
	}
	if z.cfg.Stage < 3 {
		u.views = u.paramViews(u.full)
		if err := rebind(u.module, u.orig, u.views); err != nil {
			return err
		}
		for i, v := range u.views {
			v.RegisterPostAccumulateGradHook(func(leaf *dl.Tensor) { z.gradReady(u, i, leaf) })
		}
	}
	releaseAll(u.orig...) // the module's own copies are no longer needed
	return nil
}

// Forward casts x to the working dtype and runs the model: at stage 3 unit
// by unit, each all-gathered just before it runs (zero3.go).
func (z *ZeRO) Forward(x *dl.Tensor) *dl.Tensor {
	z.releaseCast()
	if x.DType() != z.work {
		x = x.AsType(z.work)
		z.castIn = x
	}
	if z.cfg.Stage < 3 {
		return z.Module.Forward(x)
	}
	for _, s := range z.steps {
		if s.unit == nil {
			x = s.module.Forward(x)
			continue
		}
		x = dl.Apply(&zero3Unit{z: z, u: s.unit}, x, s.unit.shard)[0]
	}
	return x
}

// releaseCast frees the converted input of the last Forward (its backward
// is over when the next step starts).
func (z *ZeRO) releaseCast() {
	if z.castIn != nil {
		z.castIn.Release()
		z.castIn = nil
	}
}

// NoSync runs fn without reducing gradients (gradient accumulation); the
// next synchronised backward reduces the accumulated sums.
func (z *ZeRO) NoSync(fn func()) {
	z.noSync = true
	defer func() { z.noSync = false }()
	fn()
}

// gradReady (stages 0–2) adds a parameter's finished gradient into its
// unit's flat gradient and, once the unit is complete, reduces it.
func (z *ZeRO) gradReady(u *flatParam, i int, leaf *dl.Tensor) {
	if u.reduced {
		panic(fmt.Sprintf("parallel: ZeRO-1 on %v: a second backward before Step; "+
			"stage 1 reduces once per step: accumulate micro-batches under NoSync", z.rank))
	}
	if u.grad == nil {
		u.grad = dl.Options{Device: z.rank.Device(), DType: z.work}.Zeros(u.padded)
	}
	slot := u.grad.Narrow(0, u.offsets[i], leaf.Numel())
	g := leaf.Grad().Reshape(leaf.Numel())
	slot.AddInPlace(g)
	releaseAll(slot, g)
	leaf.ZeroGrad()
	if u.ready++; u.ready < len(u.views) || z.noSync {
		if u.ready == len(u.views) {
			u.ready = 0
		}
		return
	}
	u.ready = 0
	if err := z.reduce(u); err != nil {
		panic(fmt.Errorf("parallel: ZeRO-%d gradient reduction of %s… on %v: %w", z.cfg.Stage, u.names[0], z.rank, err))
	}
}

// reduce averages unit u's gradient over the ranks: all-reduce at stage 0;
// reduce-scatter at stages 1 (into the rank's part of the kept full
// gradient) and 2 (into the gradient shard, freeing the full gradient).
func (z *ZeRO) reduce(u *flatParam) error {
	switch z.cfg.Stage {
	case 0:
		return allReduceMean(z.rank, u.grad)
	case 1:
		s, err := reduceScatterMean(z.rank, u.grad, u.shardN)
		if err != nil {
			return err
		}
		own := u.own(u.grad, z.rank.Rank())
		own.CopyInPlace(s)
		releaseAll(own, s)
		u.reduced = true
		return nil
	}
	s, err := reduceScatterMean(z.rank, u.grad, u.shardN)
	if err != nil {
		return err
	}
	u.grad.Release()
	u.grad = nil
	if u.gradShard == nil {
		u.gradShard = s
		return nil
	}
	u.gradShard.AddInPlace(s)
	s.Release()
	return nil
}
