package optim

import (
	"strings"
	"testing"

	"github.com/dlbd/dlbd/dl"
)

type resumable interface {
	Optimizer
	StateDict() StateDict
	LoadStateDict(StateDict) error
}

// TestStateDictResume checks that an optimizer rebuilt from a state dict
// continues exactly like the original.
func TestStateDictResume(t *testing.T) {
	makers := map[string]func([]*dl.Tensor) interface {
		Optimizer
		StateDict() StateDict
		LoadStateDict(StateDict) error
	}{
		"sgd": func(ps []*dl.Tensor) interface {
			Optimizer
			StateDict() StateDict
			LoadStateDict(StateDict) error
		} {
			return NewSGD(ps, SGDConfig{LR: 0.05, Momentum: 0.9})
		},
		"adam": func(ps []*dl.Tensor) interface {
			Optimizer
			StateDict() StateDict
			LoadStateDict(StateDict) error
		} {
			return NewAdam(ps, AdamConfig{LR: 0.1, AMSGrad: true})
		},
	}
	for name, mk := range makers {
		t.Run(name, func(t *testing.T) {
			step := func(p *dl.Tensor, o Optimizer, s int) {
				p.SetGrad(dl.FromSlice(quadGrad(p.Float64s(), s), 7))
				o.Step()
			}
			p := dl.FromSlice(initTheta(7), 7).SetRequiresGrad(true)
			o := mk([]*dl.Tensor{p})
			for s := range 3 {
				step(p, o, s)
			}
			q := dl.FromSlice(p.Float64s(), 7).SetRequiresGrad(true)
			o2 := mk([]*dl.Tensor{q})
			if err := o2.LoadStateDict(o.StateDict()); err != nil {
				t.Fatal(err)
			}
			for s := 3; s < 6; s++ {
				step(p, o, s)
				step(q, o2, s)
			}
			a, b := p.Float64s(), q.Float64s()
			for i := range a {
				if a[i] != b[i] {
					t.Fatalf("resumed θ[%d] = %v; uninterrupted %v", i, b[i], a[i])
				}
			}
			bad := mk([]*dl.Tensor{dl.Zeros(3).AsType(dl.Float64).SetRequiresGrad(true)})
			if err := bad.LoadStateDict(o.StateDict()); err == nil || !strings.Contains(err.Error(), "want float64 [3]") {
				t.Errorf("LoadStateDict into other shapes: %v", err)
			}
		})
	}
}
