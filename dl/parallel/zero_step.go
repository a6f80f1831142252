package parallel

import (
	"fmt"

	"github.com/dlbd/dlbd/dl"
	"github.com/dlbd/dlbd/dl/nn"
	"github.com/dlbd/dlbd/dl/optim"
)

// Step runs the optimizer on this rank's part of the model and brings the
// working parameters up to date:
//
//	stage 0    every rank updates everything (as DDP + optimizer)
//	stage 1–2  each rank updates its shard, then all-gathers the parameters
//	stage 3    each rank updates its shard; the next forward all-gathers
//
// With BF16 the optimizer sees float32 copies of the bfloat16 gradients
// (temporary) and updates the float32 master weights, which are then
// rounded into the bfloat16 working copy. With Offload the gradient shard
// is copied to the host first and the updated master shard back. Every
// rank must call it.
//
// Course: "3D Parallelism y FSDP".
// Paper: Rajbhandari et al. 2020, ZeRO (arXiv:1910.02054), Section 5.
func (z *ZeRO) Step() error {
	var temps []*dl.Tensor
	var owned []*flatParam // units whose master got a gradient from us
	for _, u := range z.units {
		g, temp := z.masterGrad(u)
		if g == nil {
			continue
		}
		if temp {
			temps = append(temps, g)
		}
		if z.cfg.Offload { // the optimizer runs on the host
			g = g.To(dl.CPU)
			temps = append(temps, g)
		}
		if g != u.master.Grad() {
			u.master.SetGrad(g)
			owned = append(owned, u)
		}
	}
	z.opt.Step()
	for _, u := range owned {
		u.master.SetGrad(nil) // the gradient belongs to the unit, not to the master
	}
	releaseAll(temps...)
	z.releaseCast()
	rk := z.rank.Rank()
	for _, u := range z.units {
		u.reduced = false
		switch z.cfg.Stage {
		case 0:
			if z.cfg.BF16 {
				copyCast(u.full, u.master)
			}
		case 1, 2:
			own := u.own(u.full, rk)
			if z.cfg.BF16 || z.cfg.Offload { // the master is not a view of full
				copyCast(own, u.master)
			}
			err := allGather(z.rank, u.full, own)
			own.Release()
			if err != nil {
				return fmt.Errorf("parallel: ZeRO-%d all-gather of the updated parameters of %s…: %w", z.cfg.Stage, u.names[0], err)
			}
		case 3:
			if z.cfg.BF16 {
				copyCast(u.shard, u.master)
			}
		}
	}
	return nil
}

// masterGrad returns the gradient of unit u's master tensor, in the
// master's dtype, and whether it is a temporary copy; nil if u has none.
func (z *ZeRO) masterGrad(u *flatParam) (g *dl.Tensor, temp bool) {
	switch z.cfg.Stage {
	case 0:
		g = u.grad
	case 1:
		if u.grad != nil {
			own := u.own(u.grad, z.rank.Rank())
			if !z.cfg.BF16 {
				return own, true // a view, released after the step
			}
			g = own.AsType(u.master.DType())
			own.Release()
			return g, true
		}
	case 2:
		g = u.gradShard
	case 3:
		g = u.shard.Grad()
	}
	if g == nil || g.DType() == u.master.DType() {
		return g, false
	}
	return g.AsType(u.master.DType()), true
}

// ZeroGrad releases the gradients (set_to_none=True, PyTorch's default).
func (z *ZeRO) ZeroGrad() {
	for _, u := range z.units {
		releaseAll(u.grad, u.gradShard)
		u.grad, u.gradShard, u.reduced = nil, nil, false
		if u.shard != nil {
			u.shard.ZeroGrad()
		}
	}
}

// Optimizer returns the optimizer over this rank's master tensors (to
// change its learning rate).
func (z *ZeRO) Optimizer() optim.Optimizer { return z.opt }

// Stage returns the ZeRO stage.
func (z *ZeRO) Stage() int { return z.cfg.Stage }

// NumParams returns Ψ, the model's parameter count (without padding).
func (z *ZeRO) NumParams() int {
	n := 0
	for _, u := range z.units {
		n += u.numel
	}
	return n
}

// GatherParameters returns CPU copies of the model's full parameters in
// the master precision, in the model's NamedParameters order (FSDP's
// FULL_STATE_DICT). It all-gathers the shards, so every rank must call it.
func (z *ZeRO) GatherParameters() ([]*dl.Tensor, error) {
	var out []*dl.Tensor
	for _, u := range z.units {
		full := u.master
		if z.cfg.Stage > 0 {
			full = dl.Options{Device: z.rank.Device(), DType: u.master.DType()}.Zeros(u.padded)
			shard := u.master
			if z.cfg.Offload { // the collectives run on the rank's device
				shard = u.master.To(z.rank.Device())
			}
			err := allGather(z.rank, full, shard)
			if shard != u.master {
				shard.Release()
			}
			if err != nil {
				full.Release()
				return nil, fmt.Errorf("parallel: ZeRO gather of the parameters of %s…: %w", u.names[0], err)
			}
		}
		dl.NoGrad(func() {
			for _, v := range u.paramViews(full) {
				out = append(out, v.To(dl.CPU))
				v.Release()
			}
		})
		if full != u.master {
			full.Release()
		}
	}
	return out, nil
}

// NamedParameters returns what the model computes with: the parameters
// (views of the flat buffers) at stages 0–2, and the rank's flat shard of
// each unit at stage 3 (FSDP's "_flat_param").
func (z *ZeRO) NamedParameters() []nn.NamedParameter {
	var out []nn.NamedParameter
	for _, u := range z.units {
		if z.cfg.Stage == 3 {
			out = append(out, nn.NamedParameter{Name: u.names[0] + "…_flat_param", Tensor: u.shard})
			continue
		}
		for i, v := range u.views {
			out = append(out, nn.NamedParameter{Name: u.names[i], Tensor: v})
		}
	}
	return out
}

// SetTraining sets the model's mode.
func (z *ZeRO) SetTraining(training bool) { z.Module.SetTraining(training) }
