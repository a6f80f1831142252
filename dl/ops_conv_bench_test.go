package dl_test

import (
	"fmt"
	"testing"

	"github.com/dlbd/dlbd/dl"
	"github.com/dlbd/dlbd/dl/dltest"
)

// BenchmarkConv2d times Conv2d in float32 on 1 and 2 threads, forward
// alone (pass=fwd) and forward plus backward for input, weight and bias
// (pass=fwd+bwd), on three shapes: LeNet's first layer on an MNIST batch
// (x [128, 1, 28, 28], 6 filters of 5×5), a ResNet 3×3 layer (64→64
// channels at 14×14, batch 32, padding 1) and a depthwise 3×3 layer (64
// channels at 28×28, batch 32, padding 1).  It reports the arithmetic
// rate of the forward's multiply-adds (2·N·Cout·Ho·Wo·Cin/g·kH·kW flops,
// three times that with backward) as "GFLOP/s".  Its PyTorch anchor is
// dl/nn/testdata/cnn_anchor.py, case "conv2d".
func BenchmarkConv2d(b *testing.B) {
	shapes := []struct {
		name                string
		n, c, h, w, cout, k int
		o                   dl.Conv2dOptions
	}{
		{"lenet1/x=128x1x28x28/w=6x1x5x5", 128, 1, 28, 28, 6, 5, dl.Conv2dOptions{}},
		{"resnet/x=32x64x14x14/w=64x64x3x3", 32, 64, 14, 14, 64, 3, dl.Conv2dOptions{Padding: [2]int{1, 1}}},
		{"depthwise/x=32x64x28x28/w=64x1x3x3", 32, 64, 28, 28, 64, 3, dl.Conv2dOptions{Padding: [2]int{1, 1}, Groups: 64}},
	}
	for _, s := range shapes {
		for _, pass := range []string{"fwd", "fwd+bwd"} {
			for _, threads := range []int{1, 2} {
				b.Run(fmt.Sprintf("%s/pass=%s/threads=%d", s.name, pass, threads), func(b *testing.B) {
					dltest.UseThreads(b, threads)
					o := dl.Options{Generator: dl.NewGenerator(1)}
					groups := max(s.o.Groups, 1)
					x := o.Randn(s.n, s.c, s.h, s.w).SetRequiresGrad(pass != "fwd")
					w := o.Randn(s.cout, s.c/groups, s.k, s.k).MulScalar(0.1).Detach().SetRequiresGrad(pass != "fwd")
					bias := o.Randn(s.cout).SetRequiresGrad(pass != "fwd")
					y := dl.Conv2d(x, w, bias, s.o)
					gy := dl.OnesLike(y)
					ho, wo := y.Size(2), y.Size(3)
					y.Release()
					step := func() {
						y := dl.Conv2d(x, w, bias, s.o)
						if pass != "fwd" {
							y.BackwardWith(dl.BackwardOptions{Grad: gy})
							for _, p := range []*dl.Tensor{x, w, bias} {
								p.ZeroGrad()
							}
						}
						y.Release()
					}
					step()
					flops := 2 * float64(s.n*s.cout*ho*wo*(s.c/groups)*s.k*s.k)
					if pass != "fwd" {
						flops *= 3
					}
					b.ResetTimer()
					for b.Loop() {
						step()
					}
					b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
				})
			}
		}
	}
}
