package optim

import (
	"slices"
	"testing"

	"github.com/dlbd/dlbd/dl"
)

// TestAdamExplicitZero checks the zero-means-default trap is gone: an
// explicit WeightDecay of 0 on AdamW means no decay (torch
// weight_decay=0), as does plain Adam, and β1 = 0 is honoured, while the
// zero value still gives torch's defaults.
func TestAdamExplicitZero(t *testing.T) {
	run := func(opt func([]*dl.Tensor) Optimizer) []float64 {
		p := dl.FromSlice([]float64{1, -2, 3}).SetRequiresGrad(true)
		o := opt([]*dl.Tensor{p})
		for s := range 3 {
			p.SetGrad(dl.FromSlice(quadGrad(p.Float64s(), s)[:3]))
			o.Step()
			o.ZeroGrad()
		}
		return p.Float64s()
	}
	adam := run(func(ps []*dl.Tensor) Optimizer { return NewAdam(ps, AdamConfig{LR: 0.1}) })
	noDecay := run(func(ps []*dl.Tensor) Optimizer { return NewAdamW(ps, AdamConfig{LR: 0.1, WeightDecay: new(0.0)}) })
	decay := run(func(ps []*dl.Tensor) Optimizer { return NewAdamW(ps, AdamConfig{LR: 0.1}) })
	if !slices.Equal(noDecay, adam) {
		t.Errorf("AdamW with WeightDecay new(0.0) = %v; want Adam's %v (no decay)", noDecay, adam)
	}
	if slices.Equal(decay, adam) {
		t.Error("AdamW's zero-value config did not decay; its default is 0.01")
	}
	got := run(func(ps []*dl.Tensor) Optimizer { return NewAdam(ps, AdamConfig{LR: 0.1, Beta1: new(0.0)}) })
	p := []float64{1, -2, 3}
	m, v := make([]float64, 3), make([]float64, 3)
	for s := range 3 { // the reference update with β1 = 0
		adamUpdate(p, quadGrad(p, s)[:3], m, v, nil, adamCoeffs{lr: 0.1, beta1: 0, beta2: 0.999, eps: 1e-8, step: s + 1})
	}
	if !slices.Equal(got, p) || slices.Equal(got, adam) {
		t.Errorf("Adam with Beta1 new(0.0) = %v; want the β1 = 0 update %v (not the default's %v)", got, p, adam)
	}
}
