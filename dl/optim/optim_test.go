package optim

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/dlbd/dlbd/dl"
)

// runSteps drives opt for steps steps on a Float64 parameter whose gradient
// is set to quadGrad each step, and returns the parameter values.
func runSteps(t *testing.T, newOpt func([]*dl.Tensor) Optimizer, steps int) []float64 {
	t.Helper()
	p := dl.FromSlice(initTheta(7), 7).SetRequiresGrad(true)
	idle := dl.FromSlice([]float64{1, 2}, 2).SetRequiresGrad(true) // never gets a gradient
	opt := newOpt([]*dl.Tensor{p, idle})
	for s := range steps {
		p.SetGrad(dl.FromSlice(quadGrad(p.Float64s(), s), 7))
		opt.Step()
		opt.ZeroGrad()
		if p.Grad() != nil {
			t.Fatal("ZeroGrad left a gradient")
		}
	}
	if got := idle.Float64s(); got[0] != 1 || got[1] != 2 {
		t.Errorf("a parameter without gradient changed: %v", got)
	}
	return p.Float64s()
}

func TestOptimizersMatchReference(t *testing.T) {
	const steps = 6
	tests := []struct {
		name string
		opt  func([]*dl.Tensor) Optimizer
		ref  interface{ step(theta, g []float64) }
	}{
		{"sgd/momentum", func(ps []*dl.Tensor) Optimizer {
			return NewSGD(ps, SGDConfig{LR: 0.05, Momentum: 0.9, Dampening: 0.1, WeightDecay: 0.01})
		}, &refSGD{lr: 0.05, momentum: 0.9, dampening: 0.1, wd: 0.01}},
		{"sgd/nesterov", func(ps []*dl.Tensor) Optimizer {
			return NewSGD(ps, SGDConfig{LR: 0.05, Momentum: 0.9, Nesterov: true})
		}, &refSGD{lr: 0.05, momentum: 0.9, nesterov: true}},
		{"adam/defaults", func(ps []*dl.Tensor) Optimizer { return NewAdam(ps, AdamConfig{}) },
			&refAdam{lr: 1e-3, beta1: 0.9, beta2: 0.999, eps: 1e-8}},
		{"adam/amsgrad", func(ps []*dl.Tensor) Optimizer {
			return NewAdam(ps, AdamConfig{LR: 0.1, WeightDecay: new(0.1), AMSGrad: true})
		}, &refAdam{lr: 0.1, beta1: 0.9, beta2: 0.999, eps: 1e-8, wd: 0.1, amsgrad: true}},
		{"adamw/defaults", func(ps []*dl.Tensor) Optimizer { return NewAdamW(ps, AdamConfig{LR: 0.1}) },
			&refAdam{lr: 0.1, beta1: 0.9, beta2: 0.999, eps: 1e-8, wd: 0.01, decoupled: true}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := runSteps(t, tc.opt, steps)
			want := initTheta(7)
			for s := range steps {
				tc.ref.step(want, quadGrad(want, s))
			}
			for i := range want {
				if !closeRel(got[i], want[i], 1e-12) {
					t.Errorf("after %d steps θ[%d] = %v; want %v", steps, i, got[i], want[i])
				}
			}
		})
	}
}

func TestOptimizerFloat32(t *testing.T) {
	p := dl.FromSlice([]float32{1, -2}, 2).SetRequiresGrad(true)
	opt := NewSGD([]*dl.Tensor{p}, SGDConfig{LR: 0.5})
	p.SetGrad(dl.FromSlice([]float32{2, 4}, 2))
	opt.Step()
	if got := p.Float32s(); got[0] != 0 || got[1] != -4 {
		t.Errorf("SGD lr 0.5 on (1, −2) with grad (2, 4) = %v; want (0, −4)", got)
	}
	if opt.LR() != 0.5 {
		t.Errorf("LR = %v", opt.LR())
	}
}

func TestOptimizerConfigErrors(t *testing.T) {
	panics := func(name, want string, f func()) {
		t.Helper()
		defer func() {
			r := recover()
			msg := ""
			if err, ok := r.(error); ok {
				msg = err.Error()
			} else if s, ok := r.(string); ok {
				msg = s
			}
			if !strings.Contains(msg, want) {
				t.Errorf("%s panicked with %v; want a message containing %q", name, r, want)
			}
		}()
		f()
	}
	p := []*dl.Tensor{dl.Zeros(2).SetRequiresGrad(true)}
	panics("nesterov", "Nesterov momentum needs Momentum > 0", func() { NewSGD(p, SGDConfig{Nesterov: true}) })
	panics("beta", "0 <= Beta1, Beta2 < 1", func() { NewAdam(p, AdamConfig{Beta2: new(1.0)}) })
	w := dl.Ones(2).SetRequiresGrad(true)
	panics("non-leaf", "parameter 0 is not a leaf", func() { NewSGD([]*dl.Tensor{w.Mul(w)}, SGDConfig{}) })
	panics("nil", "parameter 1 is a nil *dl.Tensor", func() { NewAdam([]*dl.Tensor{w, nil}, AdamConfig{}) })
	if err := dl.Catch(func() { NewSGD(p, SGDConfig{LR: -1}) }); !errors.Is(err, dl.ErrValue) {
		t.Errorf("NewSGD with LR -1: %v; want a *dl.ValueError", err)
	}
	half := []*dl.Tensor{dl.Options{DType: dl.Float16}.Zeros(2)}
	panics("float16", "keep Float32 master weights", func() { NewAdamW(half, AdamConfig{}) })
	err := dl.Catch(func() { NewSGD(half, SGDConfig{}) })
	if !errors.Is(err, dl.ErrDType) {
		t.Errorf("NewSGD on float16: %v; want dl.ErrDType", err)
	}
}

func TestClipGradNorm(t *testing.T) {
	a := dl.FromSlice([]float32{0, 0}, 2).SetRequiresGrad(true)
	b := dl.FromSlice([]float64{0}, 1).SetRequiresGrad(true)
	none := dl.Zeros(3).SetRequiresGrad(true)
	a.SetGrad(dl.FromSlice([]float32{3, 4}, 2))
	b.SetGrad(dl.FromSlice([]float64{12}, 1))
	if n := ClipGradNorm([]*dl.Tensor{a, b, none}, 100); n != 13 || a.Grad().Float32s()[1] != 4 {
		t.Errorf("ClipGradNorm(max 100) = %v, grads %v; want 13 and no change", n, a.Grad().Float32s())
	}
	n := ClipGradNorm([]*dl.Tensor{a, b, none}, 1)
	after := math.Sqrt(math.Pow(float64(a.Grad().Float32s()[0]), 2) + math.Pow(float64(a.Grad().Float32s()[1]), 2) + math.Pow(b.Grad().Float64s()[0], 2))
	if n != 13 || math.Abs(after-13/(13+1e-6)) > 1e-6 {
		t.Errorf("ClipGradNorm(max 1) = %v, norm after %v; want 13 and %v", n, after, 13/(13+1e-6))
	}
}
