package amp_test

import (
	"math"
	"testing"

	"github.com/dlbd/dlbd/dl"
	"github.com/dlbd/dlbd/dl/amp"
	"github.com/dlbd/dlbd/dl/nn"
	"github.com/dlbd/dlbd/dl/optim"
)

// run is the outcome of training the small-target regression.
type run struct {
	losses  []float64 // loss before each step
	weights []float64 // final weight
	zeros   int       // parameter-gradient elements exactly 0 at the last step
	params  int       // parameter elements
	scale   float64   // final loss scale
}

// trainSmallTargets fits a Linear(64, 16) to targets y = x·W* of size
// ≈ 10⁻³ under MSE (mean over 1024×16 elements), a task built so that
// the gradient reaching the output, 2(ŷ − y)/16384, falls below float16's
// smallest subnormal (6·10⁻⁸) once the residuals are below ≈ 4·10⁻⁴.
// mode is "fp32", "fp16", "fp16+scaler" or "bf16".
func trainSmallTargets(mode string, steps int) run {
	o := dl.Options{Generator: dl.NewGenerator(1)}
	x := o.Randn(1024, 64)
	y := x.MatMul(o.Randn(64, 16).MulScalar(1e-3 / 8))
	model := nn.NewLinear(64, 16, nn.LinearConfig{InitConfig: nn.InitConfig{Generator: dl.NewGenerator(2)}})
	params := nn.Parameters(model)
	opt := optim.NewSGD(params, optim.SGDConfig{LR: 0.5, Momentum: 0.9})
	scaler := amp.NewGradScaler(params, amp.GradScalerConfig{Disabled: mode != "fp16+scaler"})
	var r run
	for step := range steps {
		opt.ZeroGrad()
		var loss *dl.Tensor
		forward := func() { loss = dl.MSE(model.Forward(x), y) }
		switch mode {
		case "fp32":
			forward()
		case "bf16":
			amp.Autocast(dl.BFloat16, forward)
		default:
			amp.Autocast(dl.Float16, forward)
		}
		r.losses = append(r.losses, loss.Item())
		scaler.Scale(loss).Backward()
		if step == steps-1 {
			scaler.Unscale()
			for _, p := range params {
				r.params += p.Numel()
				for _, v := range p.Grad().Float32s() {
					if v == 0 {
						r.zeros++
					}
				}
			}
		}
		scaler.Step(opt)
		scaler.Update()
		loss.Release()
	}
	r.weights, r.scale = model.Weight.Float64s(), scaler.ScaleFactor()
	return r
}

// relDiff returns ‖a − b‖ / ‖b‖.
func relDiff(a, b []float64) float64 {
	var d, n float64
	for i := range a {
		d += (a[i] - b[i]) * (a[i] - b[i])
		n += b[i] * b[i]
	}
	return math.Sqrt(d / n)
}

// TestLossScaling shows the course's claims on one task: float16 without
// loss scaling loses its small gradients and stalls; with the GradScaler
// it trains like float32; bfloat16 needs no scaler.
func TestLossScaling(t *testing.T) {
	const steps = 300
	fp32 := trainSmallTargets("fp32", steps)
	fp16 := trainSmallTargets("fp16", steps)
	scaled := trainSmallTargets("fp16+scaler", steps)
	bf16 := trainSmallTargets("bf16", steps)
	last := steps - 1
	t.Logf("final loss: fp32 %.3g, fp16 %.3g, fp16+scaler %.3g, bf16 %.3g", fp32.losses[last], fp16.losses[last], scaled.losses[last], bf16.losses[last])
	t.Logf("zero gradients at the last step: fp32 %d, fp16 %d, fp16+scaler %d, bf16 %d of %d",
		fp32.zeros, fp16.zeros, scaled.zeros, bf16.zeros, fp32.params)
	t.Logf("weights vs fp32 (relative L2): fp16 %.2g, fp16+scaler %.2g, bf16 %.2g",
		relDiff(fp16.weights, fp32.weights), relDiff(scaled.weights, fp32.weights), relDiff(bf16.weights, fp32.weights))

	if fp32.zeros != 0 || fp16.zeros != fp16.params {
		t.Errorf("zero gradients at step %d: fp32 %d, fp16 %d of %d; want none in fp32 and all flushed in fp16", last, fp32.zeros, fp16.zeros, fp16.params)
	}
	if stall := fp16.losses[last] / fp16.losses[last-100]; stall < 0.95 {
		t.Errorf("fp16 without scaling still learns: loss fell by %.3g in the last 100 steps; want a stall", stall)
	}
	if fp16.losses[last] < 1e3*fp32.losses[last] {
		t.Errorf("fp16 final loss %g is not far above fp32's %g", fp16.losses[last], fp32.losses[last])
	}
	// Tolerances: the weights of the scaled float16 run stay within 10⁻³
	// of float32's (float16 rounds activations to 2⁻¹¹ relative) and its
	// loss ends below 10⁻⁶·E[y²] (E[y²] ≈ 10⁻⁶); bfloat16's weights stay
	// within 10⁻² and its loss below 10⁻⁴·E[y²] (its 8-bit mantissa rounds
	// the outputs to 2⁻⁸ relative).
	if d := relDiff(scaled.weights, fp32.weights); d > 1e-3 || scaled.zeros != 0 || scaled.losses[last] > 1e-12 {
		t.Errorf("fp16 with GradScaler: weights %.3g from fp32, %d zero gradients, loss %g; want ≤ 1e-3, 0, ≤ 1e-12", d, scaled.zeros, scaled.losses[last])
	}
	if scaled.scale != 65536 {
		t.Errorf("scale %v after %d clean steps; want the initial 65536 (no growth before 2000)", scaled.scale, steps)
	}
	if d := relDiff(bf16.weights, fp32.weights); d > 1e-2 || bf16.zeros != 0 || bf16.losses[last] > 1e-10 {
		t.Errorf("bf16 without a scaler: weights %.3g from fp32, %d zero gradients, loss %g; want ≤ 1e-2, 0, ≤ 1e-10", d, bf16.zeros, bf16.losses[last])
	}
}

func TestFlushedToZero(t *testing.T) {
	x := dl.FromSlice([]float64{1e-8, math.Ldexp(1, -25), 3e-8, 6e-8, 1e-3, 0, -1e-9})
	if got := amp.FlushedToZero(x, dl.Float16); got != 3 {
		t.Errorf("FlushedToZero(float16) = %d; want 3 (1e-8, 2⁻²⁵ by round-to-even, -1e-9)", got)
	}
	if got := amp.FlushedToZero(x, dl.BFloat16); got != 0 {
		t.Errorf("FlushedToZero(bfloat16) = %d; want 0", got)
	}
}
