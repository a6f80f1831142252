package amp_test

import (
	"fmt"
	"testing"

	"github.com/dlbd/dlbd/dl"
	"github.com/dlbd/dlbd/dl/amp"
	"github.com/dlbd/dlbd/dl/dltest"
	"github.com/dlbd/dlbd/dl/nn"
	"github.com/dlbd/dlbd/dl/optim"
)

// BenchmarkAMPStep times one training step of dl/nn BenchmarkMLPStep's
// 784-1024-1024-10 ReLU MLP (batch 256, SGD lr 0.01) with the forward
// pass and the loss in float32 or under autocast to bfloat16/float16,
// and reports the step's peak memory above the resting state
// (parameters, gradients, data) in MiB from the device accounting.  Its
// PyTorch anchor is testdata/amp_step_anchor.py (case "amp_step").
func BenchmarkAMPStep(b *testing.B) {
	for _, dt := range []dl.DType{dl.Float32, dl.BFloat16, dl.Float16} {
		for _, threads := range []int{1, 2} {
			b.Run(fmt.Sprintf("dtype=%v/threads=%d", dt, threads), func(b *testing.B) {
				dltest.UseThreads(b, threads)

				g := dl.NewGenerator(0)
				model := nn.NewMLP([]int{784, 1024, 1024, 10}, nn.MLPConfig{InitConfig: nn.InitConfig{Generator: g}})
				params := nn.Parameters(model)
				opt := optim.NewSGD(params, optim.SGDConfig{LR: 0.01})
				scaler := amp.NewGradScaler(params, amp.GradScalerConfig{Disabled: dt != dl.Float16})
				x := dl.Options{Generator: g}.Randn(256, 784)
				labels := make([]float32, 256)
				for i := range labels {
					labels[i] = float32(g.Uint64() % 10)
				}
				y := dl.FromSlice(labels)
				step := func() {
					var loss *dl.Tensor
					forward := func() { loss = dl.CrossEntropy(model.Forward(x), y) }
					if dt == dl.Float32 {
						forward()
					} else {
						amp.Autocast(dt, forward)
					}
					scaler.Scale(loss).Backward()
					scaler.Step(opt)
					scaler.Update()
					loss.Release()
				}
				dltest.BenchTrainStep(b, dl.CPU, params, step) // gradients released between steps, as the anchor's zero_grad(set_to_none=True)
			})
		}
	}
}
