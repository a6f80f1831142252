package dl_test

import (
	"fmt"
	"testing"

	"github.com/dlbd/dlbd/dl"
	"github.com/dlbd/dlbd/dl/dltest"
)

// fusedOrNot runs fn with fusion on (impl=fused) or inside
// dl.WithoutFusion (impl=unfused).
func fusedOrNot(impl string, fn func()) {
	if impl == "unfused" {
		dl.WithoutFusion(fn)
		return
	}
	fn()
}

// BenchmarkCrossEntropy times forward and backward of CrossEntropy on
// [256, 8192] float32 logits (a language-model head over an 8k
// vocabulary), one thread, fused and unfused.  Its PyTorch anchor is
// testdata/fused_anchor.py (case "cross_entropy", F.cross_entropy).
func BenchmarkCrossEntropy(b *testing.B) {
	const n, c = 256, 8192
	for _, impl := range []string{"fused", "unfused"} {
		b.Run(fmt.Sprintf("impl=%s/N=%d/C=%d", impl, n, c), func(b *testing.B) {
			dltest.UseThreads(b, 1)
			g := dl.NewGenerator(0)
			logits := dl.Options{Generator: g}.Randn(n, c).SetRequiresGrad(true)
			labels := make([]float32, n)
			for i := range labels {
				labels[i] = float32(g.Uint64() % c)
			}
			y := dl.FromSlice(labels)
			step := func() {
				fusedOrNot(impl, func() {
					loss := dl.CrossEntropy(logits, y)
					loss.Backward()
					loss.Release()
					logits.ZeroGrad()
				})
			}
			step()
			b.SetBytes(int64(n * c * 4))
			b.ResetTimer()
			for b.Loop() {
				step()
			}
		})
	}
}

// BenchmarkFusedLinear times forward and backward of ReLU(x·Wᵀ + b) for
// x [256, 1024], W [1024, 1024], one thread: impl=fused runs
// dl.FusedLinear, impl=unfused Linear then ReLU.
func BenchmarkFusedLinear(b *testing.B) {
	const rows, in, out = 256, 1024, 1024
	for _, impl := range []string{"fused", "unfused"} {
		b.Run(fmt.Sprintf("impl=%s/act=relu/rows=%d/in=%d/out=%d", impl, rows, in, out), func(b *testing.B) {
			dltest.UseThreads(b, 1)
			o := dl.Options{Generator: dl.NewGenerator(0)}
			x := o.Randn(rows, in)
			w := o.Randn(out, in).MulScalar(0.03).Detach().SetRequiresGrad(true)
			bias := o.Randn(out).SetRequiresGrad(true)
			step := func() {
				fusedOrNot(impl, func() {
					y := dl.FusedLinear(x, w, bias, dl.FuseReLU)
					loss := y.Sum()
					loss.Backward()
					loss.Release()
					w.ZeroGrad()
					bias.ZeroGrad()
				})
			}
			step()
			b.ResetTimer()
			for b.Loop() {
				step()
			}
		})
	}
}

// BenchmarkCausalSelfAttention times forward and backward of
// CausalSelfAttention on qkv [8, T, 3·256] (4 heads, the d=256 model of
// dl/nn's BenchmarkTransformerStep), fused and written out, in float32
// and in bfloat16 (autocast's dtype of the projection's output).
func BenchmarkCausalSelfAttention(b *testing.B) {
	const batch, d, heads = 8, 256, 4
	for _, dt := range []dl.DType{dl.Float32, dl.BFloat16} {
		for _, t := range []int{128, 512} {
			for _, impl := range []string{"fused", "unfused"} {
				for _, threads := range []int{1, 2} {
					b.Run(fmt.Sprintf("dtype=%v/impl=%s/T=%d/threads=%d", dt, impl, t, threads), func(b *testing.B) {
						dltest.UseThreads(b, threads)
						o := dl.Options{Generator: dl.NewGenerator(0)}
						qkv := o.Randn(batch, t, 3*d).AsType(dt).SetRequiresGrad(true)
						r := o.Randn(batch, t, d).AsType(dt)
						step := func() {
							fusedOrNot(impl, func() {
								loss := dl.CausalSelfAttention(qkv, heads).Mul(r).Sum()
								loss.Backward()
								loss.Release()
								qkv.ZeroGrad()
							})
						}
						step()
						b.ResetTimer()
						for b.Loop() {
							step()
						}
					})
				}
			}
		}
	}
}

// BenchmarkLayerNorm times forward and backward of LayerNorm on the
// [1024, 256] activations of dl/nn's d=256 Transformer step (batch 8,
// T=128), one thread, fused (rows in float64 lanes, dl/internal/kernels/vec)
// and unfused (the written-out mean, variance and normalisation).
func BenchmarkLayerNorm(b *testing.B) {
	const rows, d = 1024, 256
	for _, impl := range []string{"fused", "unfused"} {
		b.Run(fmt.Sprintf("impl=%s/rows=%d/d=%d", impl, rows, d), func(b *testing.B) {
			dltest.UseThreads(b, 1)
			o := dl.Options{Generator: dl.NewGenerator(0)}
			x := o.Randn(rows, d).SetRequiresGrad(true)
			w, bias := o.Randn(d).SetRequiresGrad(true), o.Randn(d).SetRequiresGrad(true)
			dltest.BenchStep(b, dl.CPU, func() {
				fusedOrNot(impl, func() {
					loss := dl.LayerNorm(x, w, bias, 1e-5).Sum()
					loss.Backward()
					loss.Release()
					for _, p := range []*dl.Tensor{x, w, bias} {
						p.Grad().FillInPlace(0)
					}
				})
			})
		})
	}
}
