package checkpoint_test

import (
	"fmt"
	"testing"

	"github.com/dlbd/dlbd/dl"
	"github.com/dlbd/dlbd/dl/checkpoint"
	"github.com/dlbd/dlbd/dl/dltest"
	"github.com/dlbd/dlbd/dl/nn"
	"github.com/dlbd/dlbd/dl/optim"
)

// BenchmarkCheckpointStep times one SGD step of a 64-layer MLP (Linear(128,
// 128)+ReLU layers, batch 128, float32, one thread) plainly (segments=0)
// and with CheckpointSequential in 2 to 32 segments, and reports the
// step's peak memory above the resting state in MiB (device accounting).
// Its PyTorch anchor is testdata/ckpt_step_anchor.py (case "ckpt_step",
// torch.utils.checkpoint.checkpoint_sequential).
func BenchmarkCheckpointStep(b *testing.B) {
	const n, d, batch = 64, 128, 128
	for _, segments := range []int{0, 2, 4, 8, 16, 32} {
		b.Run(fmt.Sprintf("layers=%d/segments=%d", n, segments), func(b *testing.B) {
			dltest.UseThreads(b, 1)

			cfg := nn.LinearConfig{InitConfig: nn.InitConfig{Generator: dl.NewGenerator(0)}}
			layers := make([]nn.Module, n)
			for i := range layers {
				layers[i] = nn.NewSequential(nn.NewLinear(d, d, cfg), nn.ReLU())
			}
			var params []*dl.Tensor
			for _, l := range layers {
				params = append(params, nn.Parameters(l)...)
			}
			opt := optim.NewSGD(params, optim.SGDConfig{LR: 1e-3})
			x := dl.Options{Generator: dl.NewGenerator(1)}.Randn(batch, d)
			step := func() {
				var y *dl.Tensor
				if segments == 0 {
					y = nn.NewSequential(layers...).Forward(x)
				} else {
					y = checkpoint.CheckpointSequential(layers, segments, x)
				}
				loss := y.Pow(2).Mean()
				loss.Backward()
				loss.Release()
				opt.Step()
				for _, p := range params {
					p.Grad().FillInPlace(0)
				}
			}
			dltest.BenchStep(b, dl.CPU, step)
		})
	}
}
