package dl_test

import (
	"fmt"
	"testing"

	"github.com/dlbd/dlbd/dl"
	"github.com/dlbd/dlbd/dl/dltest"
)

// BenchmarkBatchNorm times BatchNorm in training mode on float32 inputs
// shaped like the small ResNet's activations (batch 128: 16 channels of
// 28×28, 32 of 14×14, 64 of 7×7), on one thread, forward alone and
// forward plus backward, in ms; "MB" is the input's size.
func BenchmarkBatchNorm(b *testing.B) {
	for _, s := range [][]int{{128, 16, 28, 28}, {128, 32, 14, 14}, {128, 64, 7, 7}} {
		for _, pass := range []string{"fwd", "fwd+bwd"} {
			b.Run(fmt.Sprintf("x=%dx%dx%dx%d/pass=%s", s[0], s[1], s[2], s[3], pass), func(b *testing.B) {
				dltest.UseThreads(b, 1)
				o := dl.Options{Generator: dl.NewGenerator(1)}
				x := o.Randn(s...).SetRequiresGrad(pass == "fwd+bwd")
				c := s[1]
				rm, rv := dl.Zeros(c), dl.Ones(c)
				w := dl.Ones(c).SetRequiresGrad(pass == "fwd+bwd")
				bb := dl.Zeros(c).SetRequiresGrad(pass == "fwd+bwd")
				gy := o.Randn(s...)
				for b.Loop() {
					y := dl.BatchNorm(x, rm, rv, w, bb, true, 0.1, 1e-5)
					if pass == "fwd+bwd" {
						y.BackwardWith(dl.BackwardOptions{Grad: gy})
						x.ZeroGrad()
						w.ZeroGrad()
						bb.ZeroGrad()
					}
					y.Release()
				}
				n := float64(s[0] * s[1] * s[2] * s[3] * 4)
				b.ReportMetric(float64(b.Elapsed().Microseconds())/1e3/float64(b.N), "ms")
				b.ReportMetric(n/1e6, "MB")
			})
		}
	}
}
