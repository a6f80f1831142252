package nn

import (
	"fmt"
	"testing"

	"github.com/dlbd/dlbd/dl"
	"github.com/dlbd/dlbd/dl/dltest"
	"github.com/dlbd/dlbd/dl/optim"
)

// BenchmarkMLPStep times one training step of a 784-1024-1024-10 ReLU MLP
// on a batch of 256 in float32 with plain SGD (lr 0.01): zero grad,
// forward, cross-entropy, backward, optimizer step. Its PyTorch anchor is
// testdata/mlp_step_anchor.py (case "mlp_step"), which does the same work.
// dltest.UseThreads gives the Go runtime (GC included) the same cores as
// PyTorch.
func BenchmarkMLPStep(b *testing.B) {
	for _, threads := range []int{1, 2} {
		b.Run(fmt.Sprintf("threads=%d", threads), func(b *testing.B) {
			dltest.UseThreads(b, threads)

			g := dl.NewGenerator(0)
			model := NewMLP([]int{784, 1024, 1024, 10}, MLPConfig{InitConfig: InitConfig{Generator: g}})
			opt := optim.NewSGD(Parameters(model), optim.SGDConfig{LR: 0.01})
			x := dl.Options{Generator: g}.Randn(256, 784)
			labels := make([]float32, 256)
			for i := range labels {
				labels[i] = float32(g.Uint64() % 10)
			}
			y := dl.FromSlice(labels, 256)
			step := func() {
				opt.ZeroGrad()
				loss := dl.CrossEntropy(model.Forward(x), y)
				loss.Backward()
				opt.Step()
				loss.Release()
			}
			step() // warm up the allocator's caches
			b.ResetTimer()
			for b.Loop() {
				step()
			}
			b.ReportMetric(b.Elapsed().Seconds()*1e3/float64(b.N), "ms/step")
		})
	}
}
