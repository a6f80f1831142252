package dl_test

import (
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/dlbd/dlbd/dl"
	"github.com/dlbd/dlbd/dl/dltest"
)

// attentionRun computes CausalSelfAttention (fused or written out) in dt
// of a random qkv [b, t, 3d] with values of dtype values, and the gradient
// of Σ y∘r, and returns y and dqkv.
func attentionRun(unfused bool, dt, values dl.DType, b, t, d, heads int, seed uint64) (y, dx []float64) {
	o := dl.Options{DType: dl.Float64, Generator: dl.NewGenerator(seed)}
	qkv := o.Randn(b, t, 3*d).MulScalar(2).AsType(values).AsType(dt).SetRequiresGrad(true)
	r := o.Randn(b, t, d).AsType(values).AsType(dt)
	run := func() {
		out := dl.CausalSelfAttention(qkv, heads).Retain()
		out.Mul(r).Sum().Backward()
		y = out.Float64s()
	}
	if unfused {
		dl.WithoutFusion(run)
	} else {
		run()
	}
	return y, qkv.Grad().Float64s()
}

// TestCausalSelfAttentionFused compares the fused kernel with the
// written-out attention, forward and backward, over sequence lengths below,
// at and across its 64-row query blocks, on 1 and 2 threads, with heads
// narrower and wider than an AMX tile's 16 pairs: equal to rounding
// (relative to the largest value: 1e-13 in float64, 1e-5 in float32).  In
// bfloat16 the written-out path rounds every intermediate (scores,
// probabilities, their gradients) to bfloat16 and the fused one only the
// operands of its products (P and dS), so both are compared with the
// float64 attention of the same bfloat16 values: the fused kernel must be
// within 2% and no further off than the written-out one.  (Over 30 seeds
// of the three widest cases the fused dqkv was at most 1.24% off and
// never more than 0.8 of the written-out error; dQ = dS·K sums a row of
// dS whose sum is zero, so dS's rounding shows more there than in y.)
func TestCausalSelfAttentionFused(t *testing.T) {
	for _, dt := range []dl.DType{dl.Float64, dl.Float32, dl.BFloat16} {
		tol := map[dl.DType]float64{dl.Float64: 1e-13, dl.Float32: 1e-5}[dt]
		for _, c := range []struct{ b, t, d, h int }{{1, 1, 4, 1}, {2, 5, 8, 2}, {1, 64, 16, 2}, {2, 70, 12, 3}, {1, 130, 32, 4}, {2, 136, 128, 2}, {1, 200, 96, 3}} {
			for _, threads := range []int{1, 2} {
				t.Run(fmt.Sprintf("dtype=%v/b=%d/t=%d/d=%d/h=%d/threads=%d", dt, c.b, c.t, c.d, c.h, threads), func(t *testing.T) {
					dltest.UseThreads(t, threads)
					fy, fdx := attentionRun(false, dt, dt, c.b, c.t, c.d, c.h, 7)
					uy, udx := attentionRun(true, dt, dt, c.b, c.t, c.d, c.h, 7)
					if dt != dl.BFloat16 {
						closeRel(t, "y", fy, uy, tol)
						closeRel(t, "dqkv", fdx, udx, tol)
						return
					}
					ry, rdx := attentionRun(true, dl.Float64, dt, c.b, c.t, c.d, c.h, 7)
					for _, v := range []struct {
						name                string
						fused, unfused, ref []float64
					}{{"y", fy, uy, ry}, {"dqkv", fdx, udx, rdx}} {
						fe, ue := maxRelErr(v.fused, v.ref), maxRelErr(v.unfused, v.ref)
						t.Logf("%s: fused %.3g, written out %.3g from float64", v.name, fe, ue)
						if fe > 0.02 || fe > ue {
							t.Errorf("%s: the fused bfloat16 attention is %.3g from the float64 one, the written-out %.3g; want at most 0.02 and no worse", v.name, fe, ue)
						}
					}
				})
			}
		}
	}
}

// closeRel fails unless got and want agree within tol times the largest
// magnitude of want.
func closeRel(t *testing.T, name string, got, want []float64, tol float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d values; want %d", name, len(got), len(want))
	}
	scale := 0.0
	for _, w := range want {
		scale = math.Max(scale, math.Abs(w))
	}
	for i := range got {
		if d := math.Abs(got[i] - want[i]); !(d <= tol*scale) {
			t.Fatalf("%s[%d] = %v; the written-out attention gives %v (difference %.3g, allowed %.3g)", name, i, got[i], want[i], d, tol*scale)
		}
	}
}

// maxRelErr returns the largest |got − want| relative to the largest |want|.
func maxRelErr(got, want []float64) float64 {
	scale, worst := 0.0, 0.0
	for i, w := range want {
		scale = math.Max(scale, math.Abs(w))
		worst = math.Max(worst, math.Abs(got[i]-w))
	}
	return worst / scale
}

func TestCausalSelfAttentionGrad(t *testing.T) {
	o := dl.Options{DType: dl.Float64, Generator: dl.NewGenerator(8)}
	dltest.GradCheck(t, func(xs ...*dl.Tensor) *dl.Tensor { return dl.CausalSelfAttention(xs[0], 2) }, o.Randn(2, 3, 12))
}

// TestCausalSelfAttentionCausal checks that changing the last position's
// queries, keys and values changes no earlier output.
func TestCausalSelfAttentionCausal(t *testing.T) {
	o := dl.Options{DType: dl.Float64, Generator: dl.NewGenerator(9)}
	x := o.Randn(1, 70, 24)
	y1 := dl.CausalSelfAttention(x, 2).Float64s()
	xs := x.Float64s()
	for i := 69 * 24; i < 70*24; i++ {
		xs[i] += 1
	}
	y2 := dl.CausalSelfAttention(dl.FromSlice(xs, 1, 70, 24), 2).Float64s()
	for i := range 69 * 8 {
		if y1[i] != y2[i] {
			t.Fatalf("output %d changed when only the last position changed: not causal", i)
		}
	}
}

func TestCausalSelfAttentionBadShape(t *testing.T) {
	for _, c := range []struct {
		shape []int
		heads int
	}{{[]int{2, 12}, 1}, {[]int{1, 2, 10}, 1}, {[]int{1, 2, 12}, 3}, {[]int{1, 2, 12}, 0}} {
		func() {
			defer func() {
				var se *dl.ShapeError
				if err, _ := recover().(error); !errors.As(err, &se) {
					t.Errorf("CausalSelfAttention(%v, %d) panicked with %v; want a *dl.ShapeError", c.shape, c.heads, err)
				}
			}()
			dl.CausalSelfAttention(dl.Zeros(c.shape...), c.heads)
		}()
	}
}
