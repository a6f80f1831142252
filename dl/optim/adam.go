package optim

import (
	"fmt"
	"slices"

	"github.com/dlbd/dlbd/dl"
)

// AdamConfig configures Adam and AdamW; the zero value is torch's defaults
// (lr 1e-3, betas (0.9, 0.999), eps 1e-8; weight decay 0 for Adam and 0.01
// for AdamW). A β of exactly 0 cannot be expressed (0 means the default);
// use a tiny value such as 1e-300 instead.
type AdamConfig struct {
	LR          float64 // learning rate γ (torch lr); default 1e-3
	Beta1       float64 // decay of the first moment β1 (torch betas[0]); default 0.9
	Beta2       float64 // decay of the second moment β2 (torch betas[1]); default 0.999
	Eps         float64 // ε added to the denominator (torch eps); default 1e-8
	WeightDecay float64 // λ (torch weight_decay); default 0 for Adam, 0.01 for AdamW (for AdamW without decay use Adam: they are then identical)
	AMSGrad     bool    // use the running maximum of v (torch amsgrad); default false
}

// Adam is the Adam optimiser (torch.optim.Adam; the update is in
// adam_update.go). Weight decay here is L2: λθ is added to the gradient.
// Updates are in place on the parameters' data: autograd does not see them.
type Adam struct {
	params    []*dl.Tensor
	cfg       AdamConfig
	decoupled bool
	state     []adamState
}

// adamState is one parameter's state, named as in torch's state dict.
type adamState struct {
	step             int
	expAvg, expAvgSq *dl.Tensor
	maxExpAvgSq      *dl.Tensor // AMSGrad only
}

// AdamW is Adam with decoupled weight decay (torch.optim.AdamW): the
// weights shrink by γλ before the Adam update instead of λθ joining the
// gradient, so the decay is not rescaled by the adaptive denominator.
// Paper: Loshchilov & Hutter 2019 (arXiv:1711.05101).
type AdamW struct{ Adam }

var (
	_ Optimizer = (*Adam)(nil)
	_ Optimizer = (*AdamW)(nil)
)

// NewAdam returns an Adam optimiser over params. It panics on invalid
// hyper-parameters (negative, or β outside [0, 1)) or on parameters that
// are not Float32/Float64 on a host device.
func NewAdam(params []*dl.Tensor, cfg AdamConfig) *Adam {
	return newAdam("NewAdam", params, cfg, false)
}

// NewAdamW returns an AdamW optimiser over params; see NewAdam.
func NewAdamW(params []*dl.Tensor, cfg AdamConfig) *AdamW {
	if cfg.WeightDecay == 0 {
		cfg.WeightDecay = 0.01
	}
	return &AdamW{*newAdam("NewAdamW", params, cfg, true)}
}

func newAdam(op string, params []*dl.Tensor, cfg AdamConfig, decoupled bool) *Adam {
	def := func(v *float64, d float64) {
		if *v == 0 {
			*v = d
		}
	}
	def(&cfg.LR, 1e-3)
	def(&cfg.Beta1, 0.9)
	def(&cfg.Beta2, 0.999)
	def(&cfg.Eps, 1e-8)
	if cfg.LR < 0 || cfg.Eps < 0 || cfg.WeightDecay < 0 || cfg.Beta1 < 0 || cfg.Beta1 >= 1 || cfg.Beta2 < 0 || cfg.Beta2 >= 1 {
		panic(&dl.ValueError{Op: "optim." + op, Reason: fmt.Sprintf("%+v is out of range", cfg),
			Fix: "use LR, Eps, WeightDecay >= 0 and 0 <= Beta1, Beta2 < 1"})
	}
	checkParams(op, params)
	return &Adam{params: slices.Clone(params), cfg: cfg, decoupled: decoupled, state: make([]adamState, len(params))}
}

// Step updates every parameter that has a gradient.  It checks the
// context of dl.SetCancel before each parameter (a *dl.CanceledError
// panic when it is done; the parameters before it are already updated).
func (o *Adam) Step() {
	for i, p := range o.params {
		dl.CheckCancel("Adam.Step")
		g := p.Grad()
		if g == nil {
			continue
		}
		s := &o.state[i]
		s.step++
		m, v := lazyZeros(&s.expAvg, p), lazyZeros(&s.expAvgSq, p)
		var vmax *dl.Tensor
		if o.cfg.AMSGrad {
			vmax = lazyZeros(&s.maxExpAvgSq, p)
		}
		c := adamCoeffs{lr: o.cfg.LR, beta1: o.cfg.Beta1, beta2: o.cfg.Beta2, eps: o.cfg.Eps,
			weightDecay: o.cfg.WeightDecay, decoupled: o.decoupled, amsgrad: o.cfg.AMSGrad, step: s.step}
		if p.DType() == dl.Float32 {
			adamUpdate(p.Float32Data(), g.Float32Data(), m.Float32Data(), v.Float32Data(), data32(vmax), c)
		} else {
			adamUpdate(p.Float64Data(), g.Float64Data(), m.Float64Data(), v.Float64Data(), data64(vmax), c)
		}
	}
}

// ZeroGrad clears every parameter's gradient.
func (o *Adam) ZeroGrad() { zeroGrads(o.params) }

// LR returns the learning rate.
func (o *Adam) LR() float64 { return o.cfg.LR }

// SetLR sets the learning rate.
func (o *Adam) SetLR(lr float64) { o.cfg.LR = lr }
