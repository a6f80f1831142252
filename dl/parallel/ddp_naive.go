package parallel

import (
	"fmt"

	"github.com/dlbd/dlbd/dl"
	"github.com/dlbd/dlbd/dl/dist"
	"github.com/dlbd/dlbd/dl/nn"
)

// NaiveDDP is data parallelism in its simplest form. Not used in practice;
// read this first.
//
// Every rank holds a full copy of the model (the same values: NewNaiveDDP
// broadcasts rank 0's parameters) and computes the gradient of its own part
// of the batch. After Backward, SyncGradients all-reduces every gradient,
// one parameter after the other, with the mean: each rank then holds the
// gradient of the whole batch, and the same optimizer step keeps the copies
// identical.
//
// What it lacks, and DDP adds: it waits until backward has finished before
// communicating (nothing overlaps), and it calls one collective per
// parameter, paying the per-call latency α of the α-β model once per tensor
// instead of once per 25 MiB bucket.
//
// Course: "Data Parallelism (DP)".
// Paper: Li et al. 2020, PyTorch Distributed: Experiences on Accelerating Data Parallel Training (arXiv:2006.15704), Section 3.2 ("a naive solution").
type NaiveDDP struct {
	Module nn.Module
	rank   *dist.Rank
}

var _ nn.Module = (*NaiveDDP)(nil)

// NewNaiveDDP wraps m, whose parameters must be on r's device, and
// broadcasts rank 0's parameters to every rank. Every rank of r's group
// must call it.
func NewNaiveDDP(m nn.Module, r *dist.Rank) (*NaiveDDP, error) {
	if err := broadcastParams("NewNaiveDDP", m, r); err != nil {
		return nil, err
	}
	return &NaiveDDP{Module: m, rank: r}, nil
}

// Forward runs the wrapped module.
func (d *NaiveDDP) Forward(x *dl.Tensor) *dl.Tensor { return d.Module.Forward(x) }

// NamedParameters returns the wrapped module's parameters prefixed with
// "module.", as PyTorch's DistributedDataParallel names them.
func (d *NaiveDDP) NamedParameters() []nn.NamedParameter { return moduleNames(d.Module) }

// SetTraining sets the wrapped module's mode.
func (d *NaiveDDP) SetTraining(training bool) { d.Module.SetTraining(training) }

// SyncGradients replaces every parameter's gradient by its mean over the
// ranks: one blocking all-reduce per parameter, after backward. Every rank
// must call it, and every parameter must have a gradient.
func (d *NaiveDDP) SyncGradients() error {
	return AllReduceGradients(d.rank, nn.Parameters(d.Module))
}

// AllReduceGradients replaces the gradient of each of params by its mean
// over r's group, one blocking all-reduce per tensor: the synchronisation
// of NaiveDDP, also used after a pipeline flush in 3D parallelism (where
// the data-parallel group is a sub-group). Every parameter must have a
// gradient.
func AllReduceGradients(r *dist.Rank, params []*dl.Tensor) error {
	for i, p := range params {
		g := p.Grad()
		if g == nil {
			return fmt.Errorf("parallel: all-reduce of gradients on %v: parameter %d (shape %v) has no gradient; run Backward first", r, i, p.Shape())
		}
		if err := r.AllReduce(g, dist.Mean); err != nil {
			return fmt.Errorf("parallel: all-reduce of the gradient of parameter %d: %w", i, err)
		}
	}
	return nil
}

// broadcastParams checks that m's parameters are on r's device and copies
// rank 0's values into every rank's, like DDP's constructor.
func broadcastParams(op string, m nn.Module, r *dist.Rank) error {
	ps := m.NamedParameters()
	checkOnDevice(op, ps, r.Device())
	for _, p := range ps {
		if err := r.Broadcast(p.Tensor, 0); err != nil {
			return fmt.Errorf("parallel: %s: broadcast of %s from rank 0: %w", op, p.Name, err)
		}
	}
	return nil
}

// checkOnDevice panics with a *dl.DeviceError unless every parameter lives
// on dev.
func checkOnDevice(op string, ps []nn.NamedParameter, dev dl.Device) {
	for _, p := range ps {
		if p.Tensor.Device() != dev {
			panic(&dl.DeviceError{Op: "parallel." + op, Devices: []dl.Device{p.Tensor.Device(), dev},
				Reason: fmt.Sprintf("parameter %s is on %v but this rank is bound to %v", p.Name, p.Tensor.Device(), dev),
				Fix:    "build the model on r.Device() (nn.InitConfig{Device: r.Device()})"})
		}
	}
}

// moduleNames returns m's parameters named "module.<name>".
func moduleNames(m nn.Module) []nn.NamedParameter {
	var out []nn.NamedParameter
	for _, p := range m.NamedParameters() {
		out = append(out, nn.NamedParameter{Name: "module." + p.Name, Tensor: p.Tensor})
	}
	return out
}
