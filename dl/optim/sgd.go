package optim

import (
	"fmt"
	"slices"

	"github.com/dlbd/dlbd/dl"
)

// SGDConfig configures SGD; the zero value is torch.optim.SGD's defaults
// (apart from LR, see below).
type SGDConfig struct {
	LR          float64 // learning rate γ (torch lr); 0: the default, 1e-3 (torch ≥ 2.2's; a zero rate would change nothing)
	Momentum    float64 // momentum μ (torch momentum); default 0
	Dampening   float64 // dampening τ of the momentum (torch dampening); default 0
	WeightDecay float64 // L2 penalty λ added to the gradient (torch weight_decay); default 0
	Nesterov    bool    // Nesterov momentum (torch nesterov); needs Momentum > 0 and Dampening = 0
}

// SGD is stochastic gradient descent with optional momentum, dampening,
// Nesterov momentum and L2 weight decay, like torch.optim.SGD (the update
// order is in sgd_update.go). Updates are in place on the parameters' data:
// autograd does not see them.
type SGD struct {
	params []*dl.Tensor
	cfg    SGDConfig
	bufs   []*dl.Tensor // momentum buffers, created on a parameter's first step
}

var _ Optimizer = (*SGD)(nil)

// NewSGD returns an SGD optimiser over params. It panics with a
// *dl.ValueError on a negative hyper-parameter, on Nesterov without
// momentum or with dampening (as torch raises ValueError) or on a nil or
// non-leaf parameter, and with a *dl.DTypeError or *dl.DeviceError on
// parameters that are not Float32/Float64 on a host device.
func NewSGD(params []*dl.Tensor, cfg SGDConfig) *SGD {
	if cfg.LR == 0 {
		cfg.LR = 1e-3
	}
	if cfg.LR < 0 || cfg.Momentum < 0 || cfg.WeightDecay < 0 {
		panic(&dl.ValueError{Op: "optim.NewSGD", Reason: fmt.Sprintf("%+v has a negative learning rate, momentum or weight decay", cfg),
			Fix: "use LR, Momentum and WeightDecay >= 0"})
	}
	if cfg.Nesterov && (cfg.Momentum <= 0 || cfg.Dampening != 0) {
		panic(&dl.ValueError{Op: "optim.NewSGD", Reason: fmt.Sprintf("%+v: Nesterov momentum needs Momentum > 0 and Dampening = 0", cfg),
			Fix: "set Momentum (e.g. 0.9) and leave Dampening at 0, or drop Nesterov"})
	}
	checkParams("NewSGD", params)
	return &SGD{params: slices.Clone(params), cfg: cfg, bufs: make([]*dl.Tensor, len(params))}
}

// Step updates every parameter that has a gradient.  It checks the
// context of dl.SetCancel before each parameter (a *dl.CanceledError
// panic when it is done; the parameters before it are already updated).
func (o *SGD) Step() {
	for i, p := range o.params {
		dl.CheckCancel("SGD.Step")
		g := p.Grad()
		if g == nil {
			continue
		}
		first := o.bufs[i] == nil
		var buf *dl.Tensor
		if o.cfg.Momentum != 0 {
			buf = lazyZeros(&o.bufs[i], p)
		}
		if p.DType() == dl.Float32 {
			sgdPieces(p.Float32Data(), g.Float32Data(), data32(buf), o.cfg, first)
		} else {
			sgdPieces(p.Float64Data(), g.Float64Data(), data64(buf), o.cfg, first)
		}
	}
}

// ZeroGrad clears every parameter's gradient (set_to_none=True, torch's default).
func (o *SGD) ZeroGrad() { zeroGrads(o.params) }

// LR returns the learning rate.
func (o *SGD) LR() float64 { return o.cfg.LR }

// SetLR sets the learning rate.
func (o *SGD) SetLR(lr float64) { o.cfg.LR = lr }

func zeroGrads(params []*dl.Tensor) {
	for _, p := range params {
		p.ZeroGrad()
	}
}
