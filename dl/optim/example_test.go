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

// PyTorch's CosineAnnealingLR continues its cosine past TMax; dl's
// WarmupCosine holds its minimum.
func ExampleCosineAnnealingLR() {
	torch := optim.CosineAnnealingLR{BaseLR: 0.1, EtaMin: 0.01, TMax: 10}
	ours := optim.WarmupCosine{Peak: 0.1, Min: 0.01, Total: 10}
	for _, step := range []int{0, 10, 15, 20} {
		fmt.Printf("step %2d: CosineAnnealingLR %.3f, WarmupCosine %.3f\n", step, torch.LR(step), ours.LR(step))
	}
	// Output:
	// step  0: CosineAnnealingLR 0.100, WarmupCosine 0.100
	// step 10: CosineAnnealingLR 0.010, WarmupCosine 0.010
	// step 15: CosineAnnealingLR 0.055, WarmupCosine 0.010
	// step 20: CosineAnnealingLR 0.100, WarmupCosine 0.010
}

// An explicit zero: AdamW without weight decay (torch weight_decay=0) is
// WeightDecay: new(0.0); a nil field is the default, 0.01.
func ExampleNewAdamW() {
	p := dl.FromSlice([]float64{1}).SetRequiresGrad(true)
	opt := optim.NewAdamW([]*dl.Tensor{p}, optim.AdamConfig{LR: 0.1, WeightDecay: new(0.0)})
	p.SetGrad(dl.FromSlice([]float64{0.5}))
	opt.Step()
	fmt.Printf("%.4f\n", p.Float64s()[0])
	// Output:
	// 0.9000
}
