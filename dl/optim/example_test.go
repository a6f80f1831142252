package optim_test

import (
	"fmt"

	"github.com/dlbd/dlbd/dl"
	"github.com/dlbd/dlbd/dl/optim"
)

func ExampleSGD() {
	// Minimise (w − 3)² from w = 0; the gradient is 2(w − 3).
	w := dl.FromSlice([]float64{0}).SetRequiresGrad(true)
	opt := optim.NewSGD([]*dl.Tensor{w}, optim.SGDConfig{LR: 0.1, Momentum: 0.9})
	for range 300 {
		opt.ZeroGrad()
		loss := w.SubScalar(3).Pow(2).Sum()
		loss.Backward()
		opt.Step()
	}
	fmt.Printf("w = %.4f\n", w.Item())
	// Output:
	// w = 3.0000
}

func ExampleWarmupCosine() {
	s := optim.WarmupCosine{Peak: 1e-3, Warmup: 2, Total: 6}
	for step := range 7 {
		fmt.Printf("%d:%.2g ", step, s.LR(step))
	}
	// Output:
	// 0:0 1:0.0005 2:0.001 3:0.00085 4:0.0005 5:0.00015 6:0
}
