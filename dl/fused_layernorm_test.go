package dl_test

import (
	"fmt"
	"testing"

	"github.com/dlbd/dlbd/dl"
	"github.com/dlbd/dlbd/dl/dltest"
)

// layerNormRun computes LayerNorm (fused or op by op) of x [rows, d] and
// the gradients of Σ y∘r with respect to x, weight and bias (nil weight
// and bias when affine is false).
func layerNormRun(unfused bool, dt dl.DType, rows, d int, affine bool) [][]float64 {
	o := dl.Options{DType: dt, Generator: dl.NewGenerator(11)}
	x := o.Randn(rows, d).MulScalar(3).AddScalar(1).SetRequiresGrad(true)
	var w, b *dl.Tensor
	if affine {
		w, b = o.Randn(d).SetRequiresGrad(true), o.Randn(d).SetRequiresGrad(true)
	}
	r := o.Randn(rows, d)
	var y *dl.Tensor
	run := func() {
		y = dl.LayerNorm(x, w, b, 1e-5).Retain()
		y.Mul(r).Sum().Backward()
	}
	if unfused {
		dl.WithoutFusion(run)
	} else {
		run()
	}
	res := [][]float64{y.Float64s(), x.Grad().Float64s()}
	if affine {
		res = append(res, w.Grad().Float64s(), b.Grad().Float64s())
	}
	return res
}

// TestLayerNormFused compares the fused LayerNorm with the op-by-op one,
// forward and every gradient, with and without the affine parameters,
// for row counts below, at and across its 64-row blocks, on 1 and 2
// threads: equal to rounding (1e-12 relative in float64, 1e-5 in float32).
func TestLayerNormFused(t *testing.T) {
	for _, dt := range []dl.DType{dl.Float64, dl.Float32} {
		tol := map[dl.DType]float64{dl.Float64: 1e-12, dl.Float32: 1e-5}[dt]
		for _, c := range []struct{ rows, d int }{{1, 1}, {3, 7}, {64, 32}, {130, 48}} {
			for _, affine := range []bool{true, false} {
				for _, threads := range []int{1, 2} {
					t.Run(fmt.Sprintf("dtype=%v/rows=%d/d=%d/affine=%v/threads=%d", dt, c.rows, c.d, affine, threads), func(t *testing.T) {
						dltest.UseThreads(t, threads)
						fused, plain := layerNormRun(false, dt, c.rows, c.d, affine), layerNormRun(true, dt, c.rows, c.d, affine)
						for i, name := range []string{"y", "dx", "dweight", "dbias"}[:len(fused)] {
							closeRel(t, name, fused[i], plain[i], tol)
						}
					})
				}
			}
		}
	}
}

// TestLayerNormThreadsBitwise checks that the fused LayerNorm's weight and
// bias gradients do not depend on the number of threads.
func TestLayerNormThreadsBitwise(t *testing.T) {
	var runs [2][][]float64
	for i, threads := range []int{1, 2} {
		func() {
			dltest.UseThreads(t, threads)
			runs[i] = layerNormRun(false, dl.Float32, 300, 24, true)
		}()
	}
	for k := range runs[0] {
		for j := range runs[0][k] {
			if runs[0][k][j] != runs[1][k][j] {
				t.Fatalf("result %d [%d]: %v on 1 thread, %v on 2", k, j, runs[0][k][j], runs[1][k][j])
			}
		}
	}
}

func TestLayerNormFusedGrad(t *testing.T) {
	o := dl.Options{DType: dl.Float64, Generator: dl.NewGenerator(12)}
	dltest.GradCheck(t, func(xs ...*dl.Tensor) *dl.Tensor { return dl.LayerNorm(xs[0], xs[1], xs[2], 1e-5) },
		o.Randn(5, 6), o.Randn(6), o.Randn(6))
}
