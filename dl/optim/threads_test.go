package optim

import (
	"math"
	"testing"

	"github.com/dlbd/dlbd/dl"
)

// TestOptimizersThreadsAgree: updates of a parameter large enough to be
// split over goroutines (over 3 pieces of f32.ForRange, not a multiple of
// their alignment) give the same bits on 1 and 3 threads, for every
// optimiser and dtype.
func TestOptimizersThreadsAgree(t *testing.T) {
	const n = 3*32768 + 1001
	wd := 0.1
	for name, newOpt := range map[string]func(p []*dl.Tensor) Optimizer{
		"AdamW":        func(p []*dl.Tensor) Optimizer { return NewAdamW(p, AdamConfig{}) },
		"Adam L2":      func(p []*dl.Tensor) Optimizer { return NewAdam(p, AdamConfig{WeightDecay: &wd}) },
		"AMSGrad":      func(p []*dl.Tensor) Optimizer { return NewAdam(p, AdamConfig{AMSGrad: true}) },
		"SGD":          func(p []*dl.Tensor) Optimizer { return NewSGD(p, SGDConfig{LR: 0.1}) },
		"SGD Nesterov": func(p []*dl.Tensor) Optimizer { return NewSGD(p, SGDConfig{LR: 0.1, Momentum: 0.9, Nesterov: true}) },
		"SGD momentum+": func(p []*dl.Tensor) Optimizer {
			return NewSGD(p, SGDConfig{LR: 0.1, Momentum: 0.9, Dampening: 0.1, WeightDecay: 0.01})
		},
	} {
		for _, dt := range []dl.DType{dl.Float32, dl.Float64} {
			run := func(threads int) []float64 {
				prev := dl.SetNumThreads(threads)
				defer dl.SetNumThreads(prev)
				g := dl.NewGenerator(3)
				p := dl.Options{DType: dt, Generator: g}.Randn(n).SetRequiresGrad(true)
				opt := newOpt([]*dl.Tensor{p})
				for range 3 {
					p.SetGrad(dl.Options{DType: dt, Generator: g}.Randn(n))
					opt.Step()
				}
				return p.AsType(dl.Float64).Float64s()
			}
			one, three := run(1), run(3)
			for i := range one {
				if math.Float64bits(one[i]) != math.Float64bits(three[i]) {
					t.Fatalf("%s %v: element %d is %v after 3 steps on 1 thread, %v on 3", name, dt, i, one[i], three[i])
				}
			}
		}
	}
}
