package amp_test

import (
	"fmt"

	"github.com/dlbd/dlbd/dl"
	"github.com/dlbd/dlbd/dl/amp"
	"github.com/dlbd/dlbd/dl/nn"
	"github.com/dlbd/dlbd/dl/optim"
)

// Example_mixedPrecision is the course's AMP loop: forward under
// autocast, backward of the scaled loss, a step that skips overflows.
func Example_mixedPrecision() {
	g := dl.NewGenerator(0)
	model := nn.NewMLP([]int{8, 32, 4}, nn.MLPConfig{InitConfig: nn.InitConfig{Generator: g}})
	params := nn.Parameters(model)
	opt := optim.NewSGD(params, optim.SGDConfig{LR: 0.1})
	scaler := amp.NewGradScaler(params, amp.GradScalerConfig{})
	x := dl.Options{Generator: g}.Randn(16, 8)
	y := dl.FromSlice([]float32{0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3})
	for range 3 {
		opt.ZeroGrad()
		var logits, loss *dl.Tensor
		amp.Autocast(dl.Float16, func() {
			logits = model.Forward(x)         // Linear: float16
			loss = dl.CrossEntropy(logits, y) // losses: float32
		})
		scaler.Scale(loss).Backward()
		scaler.Step(opt)
		scaler.Update()
		fmt.Println(logits.DType(), loss.DType(), params[0].Grad().DType(), scaler.ScaleFactor())
	}
	// Output:
	// float16 float32 float32 65536
	// float16 float32 float32 65536
	// float16 float32 float32 65536
}

// ExampleGradScaler_Unscale clips the true gradients: Unscale first.
func ExampleGradScaler_Unscale() {
	p := dl.FromSlice([]float32{3, 4}).SetRequiresGrad(true)
	scaler := amp.NewGradScaler([]*dl.Tensor{p}, amp.GradScalerConfig{})
	scaler.Scale(p.Mul(p).Sum().MulScalar(0.5)).Backward() // gradient p, times 65536
	fmt.Println("scaled:", p.Grad().Float32s())
	scaler.Unscale()
	fmt.Println("norm before clipping:", optim.ClipGradNorm([]*dl.Tensor{p}, 1))
	// Output:
	// scaled: [196608 262144]
	// norm before clipping: 5
}

// ExampleFlushedToZero counts the gradients float16 loses.
func ExampleFlushedToZero() {
	grads := dl.FromSlice([]float32{1e-3, 1e-5, 1e-7, 1e-8, 1e-9})
	fmt.Println(amp.FlushedToZero(grads, dl.Float16), amp.FlushedToZero(grads, dl.BFloat16))
	// Output: 2 0
}
