package optim

import (
	"fmt"
	"slices"

	"github.com/dlbd/dlbd/dl"
)

// AdamConfig configures Adam and AdamW; the zero value is torch's defaults
// (lr 1e-3, betas (0.9, 0.999), eps 1e-8; weight decay 0 for Adam and 0.01
// for AdamW).
//
// The fields whose default is not 0 but for which 0 is a meaningful value
// are pointers: nil means the default, and an explicit value, zero
// included, is written with Go 1.26's new(expr): AdamConfig{WeightDecay:
// new(0.0)} is AdamW without decay (torch weight_decay=0), Beta1: new(0.0)
// is β1 = 0.  (Plain float64 fields would make an explicit 0 silently mean
// the default, the trap a PyTorch user writing weight_decay=0 falls into.)
// LR stays a number: 0 means the default, as a zero learning rate would
// change nothing (to freeze parameters, leave them out).
type AdamConfig struct {
	LR          float64  // learning rate γ (torch lr); 0: the default, 1e-3
	Beta1       *float64 // decay of the first moment β1 (torch betas[0]); nil: 0.9
	Beta2       *float64 // decay of the second moment β2 (torch betas[1]); nil: 0.999
	Eps         *float64 // ε added to the denominator (torch eps); nil: 1e-8
	WeightDecay *float64 // λ (torch weight_decay); nil: 0 for Adam, 0.01 for AdamW
	AMSGrad     bool     // use the running maximum of v (torch amsgrad); default false
}

// adamHyper is an AdamConfig with every default filled in.
type adamHyper struct {
	lr, beta1, beta2, eps, weightDecay float64
	amsgrad                            bool
}

// resolve fills in the defaults (weightDecay for Adam or AdamW).
func (c AdamConfig) resolve(weightDecay float64) adamHyper {
	val := func(p *float64, def float64) float64 {
		if p == nil {
			return def
		}
		return *p
	}
	h := adamHyper{lr: c.LR, beta1: val(c.Beta1, 0.9), beta2: val(c.Beta2, 0.999), eps: val(c.Eps, 1e-8),
		weightDecay: val(c.WeightDecay, weightDecay), amsgrad: c.AMSGrad}
	if h.lr == 0 {
		h.lr = 1e-3
	}
	return h
}

// Adam is the Adam optimiser (torch.optim.Adam; the update is in
// adam_update.go). Weight decay here is L2: λθ is added to the gradient.
// Updates are in place on the parameters' data: autograd does not see them.
type Adam struct {
	params    []*dl.Tensor
	cfg       adamHyper
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

// NewAdam returns an Adam optimiser over params. It panics with a
// *dl.ValueError on invalid hyper-parameters (negative, or β outside
// [0, 1)) or a nil or non-leaf parameter, and with a *dl.DTypeError or
// *dl.DeviceError on parameters that are not Float32/Float64 on a host
// device.
func NewAdam(params []*dl.Tensor, cfg AdamConfig) *Adam {
	return newAdam("NewAdam", params, cfg.resolve(0), false)
}

// NewAdamW returns an AdamW optimiser over params; see NewAdam.  Its weight
// decay defaults to 0.01 (torch AdamW's); WeightDecay: new(0.0) turns it
// off.
func NewAdamW(params []*dl.Tensor, cfg AdamConfig) *AdamW {
	return &AdamW{*newAdam("NewAdamW", params, cfg.resolve(0.01), true)}
}

func newAdam(op string, params []*dl.Tensor, h adamHyper, decoupled bool) *Adam {
	if h.lr < 0 || h.eps < 0 || h.weightDecay < 0 || h.beta1 < 0 || h.beta1 >= 1 || h.beta2 < 0 || h.beta2 >= 1 {
		panic(&dl.ValueError{Op: "optim." + op, Reason: fmt.Sprintf("lr %v, betas (%v, %v), eps %v, weight decay %v are out of range", h.lr, h.beta1, h.beta2, h.eps, h.weightDecay),
			Fix: "use LR, Eps, WeightDecay >= 0 and 0 <= Beta1, Beta2 < 1"})
	}
	checkParams(op, params)
	return &Adam{params: slices.Clone(params), cfg: h, decoupled: decoupled, state: make([]adamState, len(params))}
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
		if o.cfg.amsgrad {
			vmax = lazyZeros(&s.maxExpAvgSq, p)
		}
		c := adamCoeffs{lr: o.cfg.lr, beta1: o.cfg.beta1, beta2: o.cfg.beta2, eps: o.cfg.eps,
			weightDecay: o.cfg.weightDecay, decoupled: o.decoupled, amsgrad: o.cfg.amsgrad, step: s.step}
		if p.DType() == dl.Float32 {
			adamPieces(p.Float32Data(), g.Float32Data(), m.Float32Data(), v.Float32Data(), data32(vmax), c)
		} else {
			adamPieces(p.Float64Data(), g.Float64Data(), m.Float64Data(), v.Float64Data(), data64(vmax), c)
		}
	}
}

// ZeroGrad clears every parameter's gradient.
func (o *Adam) ZeroGrad() { zeroGrads(o.params) }

// LR returns the learning rate.
func (o *Adam) LR() float64 { return o.cfg.lr }

// SetLR sets the learning rate.
func (o *Adam) SetLR(lr float64) { o.cfg.lr = lr }
