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

// BenchmarkConv2dLayers times each convolution of dl/nn's small ResNet
// (BenchmarkCNNStep's, batch 128, no bias) on one thread, forward alone
// (pass=fwd) and forward plus backward (pass=fwd+bwd: the input gradient,
// except the stem's, and the weight gradient), in ms: where the training
// step's convolution time goes, layer by layer.  stem is 1→16 at 28×28,
// b1 16→16 (twice in the net), b2a 16→32 stride 2, b2b 32→32 at 14×14,
// b2sc the 1×1 stride-2 shortcut, b3a/b3b/b3sc the same at 64 channels
// and 7×7.
func BenchmarkConv2dLayers(b *testing.B) {
	shapes := []struct {
		name                string
		c, h, cout, k, s, p int
	}{
		{"stem", 1, 28, 16, 3, 1, 1},
		{"b1", 16, 28, 16, 3, 1, 1},
		{"b2a", 16, 28, 32, 3, 2, 1},
		{"b2b", 32, 14, 32, 3, 1, 1},
		{"b2sc", 16, 28, 32, 1, 2, 0},
		{"b3a", 32, 14, 64, 3, 2, 1},
		{"b3b", 64, 7, 64, 3, 1, 1},
		{"b3sc", 32, 14, 64, 1, 2, 0},
	}
	for _, s := range shapes {
		for _, pass := range []string{"fwd", "fwd+bwd"} {
			b.Run(fmt.Sprintf("%s/pass=%s", s.name, pass), func(b *testing.B) {
				dltest.UseThreads(b, 1)
				o := dl.Options{Generator: dl.NewGenerator(1)}
				op := dl.Conv2dOptions{Stride: [2]int{s.s, s.s}, Padding: [2]int{s.p, s.p}}
				x := o.Randn(128, s.c, s.h, s.h).SetRequiresGrad(pass != "fwd" && s.name != "stem")
				w := o.Randn(s.cout, s.c, s.k, s.k).MulScalar(0.1).Detach().SetRequiresGrad(pass != "fwd")
				y := dl.Conv2d(x, w, nil, op)
				gy := dl.OnesLike(y)
				y.Release()
				var y2 *dl.Tensor
				step := func() {
					y2 = dl.Conv2d(x, w, nil, op)
					if pass != "fwd" {
						y2.BackwardWith(dl.BackwardOptions{Grad: gy})
						w.ZeroGrad()
						if s.name != "stem" {
							x.ZeroGrad()
						}
					}
					y2.Release()
				}
				step()
				b.ResetTimer()
				for b.Loop() {
					step()
				}
				b.ReportMetric(float64(b.Elapsed().Microseconds())/1e3/float64(b.N), "ms")
			})
		}
	}
}
