package dl_test

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/dlbd/dlbd/dl"
	"github.com/dlbd/dlbd/dl/dltest"
)

// TestBatchNormValues checks training-mode BatchNorm against the
// definition and the update of the running statistics (momentum, the
// unbiased variance), then evaluation mode with them.
func TestBatchNormValues(t *testing.T) {
	x := dl.Options{DType: dl.Float64, Generator: dl.NewGenerator(2)}.Randn(3, 2, 2, 2)
	xs := x.Float64s()
	rm, rv := dl.Options{DType: dl.Float64}.Zeros(2), dl.Options{DType: dl.Float64}.Ones(2)
	w, b := dl.FromSlice([]float64{2, -1}), dl.FromSlice([]float64{0.5, 3})
	y := dl.BatchNorm(x, rm, rv, w, b, true, 0.1, 1e-5).Float64s()
	for c := range 2 {
		var vals []float64
		for n := range 3 {
			vals = append(vals, xs[(n*2+c)*4:(n*2+c+1)*4]...)
		}
		mean, q := 0.0, 0.0
		for _, v := range vals {
			mean += v / 12
		}
		for _, v := range vals {
			q += (v - mean) * (v - mean)
		}
		biased, unbiased := q/12, q/11
		for n := range 3 {
			for i := range 4 {
				k := (n*2+c)*4 + i
				want := (xs[k]-mean)/math.Sqrt(biased+1e-5)*w.Float64s()[c] + b.Float64s()[c]
				if math.Abs(y[k]-want) > 1e-12 {
					t.Fatalf("BatchNorm[%d] = %v; want %v", k, y[k], want)
				}
			}
		}
		if got, want := rm.Float64s()[c], 0.1*mean; math.Abs(got-want) > 1e-15 {
			t.Errorf("running mean[%d] = %v; want %v", c, got, want)
		}
		if got, want := rv.Float64s()[c], 0.9+0.1*unbiased; math.Abs(got-want) > 1e-15 {
			t.Errorf("running var[%d] = %v; want %v (unbiased)", c, got, want)
		}
	}
	e := dl.BatchNorm(x, rm, rv, w, b, false, 0.1, 1e-5).Float64s()
	m, v := rm.Float64s(), rv.Float64s()
	for k, xv := range xs {
		c := (k / 4) % 2
		want := (xv-m[c])/math.Sqrt(v[c]+1e-5)*w.Float64s()[c] + b.Float64s()[c]
		if math.Abs(e[k]-want) > 1e-12 {
			t.Fatalf("eval BatchNorm[%d] = %v; want %v", k, e[k], want)
		}
	}
	if got := rm.Float64s(); got[0] != m[0] {
		t.Error("evaluation mode changed the running mean")
	}
}

// TestBatchNormGradCheck checks BatchNorm's gradients in training mode
// (through the batch statistics) and evaluation mode.
func TestBatchNormGradCheck(t *testing.T) {
	rm := dl.Options{DType: dl.Float64, Generator: dl.NewGenerator(3)}.Randn(3)
	rv := dl.Options{DType: dl.Float64, Generator: dl.NewGenerator(4)}.Rand(3).AddScalar(0.5)
	for _, training := range []bool{true, false} {
		for _, shape := range [][]int{{4, 3, 2, 3}, {5, 3}} {
			name := "eval"
			if training {
				name = "train"
			}
			t.Run(name, func(t *testing.T) {
				dltest.GradCheck(t, func(xs ...*dl.Tensor) *dl.Tensor {
					var m, v *dl.Tensor
					if !training {
						m, v = rm, rv
					}
					return dl.BatchNorm(xs[0], m, v, xs[1], xs[2], training, 0.1, 1e-5)
				}, f64(shape...), f64(3), f64(3).AddScalar(1))
			})
		}
	}
}

// TestBatchNormDevices compares BatchNorm on every device with the CPU,
// including the running statistics.
func TestBatchNormDevices(t *testing.T) {
	run := func(dev dl.Device) [][]float64 {
		o := dl.Options{DType: dl.Float64, Device: dev, Generator: dl.NewGenerator(6)}
		x := o.Randn(4, 3, 3, 2).SetRequiresGrad(true)
		w, b := o.Randn(3).SetRequiresGrad(true), o.Randn(3).SetRequiresGrad(true)
		rm, rv := o.Zeros(3), o.Ones(3)
		y := dl.BatchNorm(x, rm, rv, w, b, true, 0.1, 1e-5)
		ys := y.Float64s()
		y.Mul(y).Sum().Backward()
		e := dl.BatchNorm(x.Detach(), rm, rv, w, b, false, 0.1, 1e-5)
		return [][]float64{ys, x.Grad().Float64s(), w.Grad().Float64s(), b.Grad().Float64s(), rm.Float64s(), rv.Float64s(), e.Float64s()}
	}
	want := run(dl.CPU)
	dltest.ForEachDevice(t, func(t *testing.T, dev dl.Device) {
		got := run(dev)
		for i, name := range []string{"y", "dx", "dw", "db", "running mean", "running var", "eval y"} {
			if d, s := maxAbsDiff(t, got[i], want[i]); d > 1e-12*math.Max(s, 1) {
				t.Errorf("%s on %v differs from the CPU by %.3g", name, dev, d)
			}
		}
	})
}

// TestBatchNormHalf runs BatchNorm on a bfloat16 input with float32
// parameters (autocast's mix), against float32.
func TestBatchNormHalf(t *testing.T) {
	x := dl.Options{Generator: dl.NewGenerator(7)}.Randn(4, 2, 3, 3)
	w, b := dl.Ones(2).SetRequiresGrad(true), dl.Zeros(2).SetRequiresGrad(true)
	want := dl.BatchNorm(x, nil, nil, w, b, true, 0.1, 1e-5).Float64s()
	y := dl.BatchNorm(x.AsType(dl.BFloat16), nil, nil, w, b, true, 0.1, 1e-5)
	if y.DType() != dl.BFloat16 {
		t.Fatalf("BatchNorm of bfloat16 returned %v", y.DType())
	}
	if d, s := maxAbsDiff(t, y.Float64s(), want); d > 0.02*s {
		t.Errorf("bfloat16 BatchNorm differs from float32 by %.3g", d)
	}
	y.AsType(dl.Float32).Sum().Backward()
	if w.Grad() == nil || w.Grad().DType() != dl.Float32 {
		t.Errorf("float32 weight got gradient %v", w.Grad())
	}
}

// TestBatchNormErrors checks the errors of bad arguments.
func TestBatchNormErrors(t *testing.T) {
	x := dl.Zeros(2, 3, 4, 4)
	cases := []struct {
		name   string
		f      func()
		target error
		want   string
	}{
		{"rank", func() { dl.BatchNorm(dl.Zeros(3), nil, nil, nil, nil, true, 0.1, 1e-5) }, dl.ErrShape, "channel axis"},
		{"weight", func() { dl.BatchNorm(x, nil, nil, dl.Ones(4), nil, true, 0.1, 1e-5) }, dl.ErrShape, "[4]"},
		{"one value", func() { dl.BatchNorm(dl.Zeros(1, 3), nil, nil, nil, nil, true, 0.1, 1e-5) }, dl.ErrValue, "more than 1 value"},
		{"eval without stats", func() { dl.BatchNorm(x, nil, nil, nil, nil, false, 0.1, 1e-5) }, dl.ErrValue, "running statistics"},
		{"one stat", func() { dl.BatchNorm(x, dl.Zeros(3), nil, nil, nil, true, 0.1, 1e-5) }, dl.ErrValue, "running"},
		{"dtype", func() { dl.BatchNorm(x, nil, nil, dl.Options{DType: dl.Float64}.Ones(3), nil, true, 0.1, 1e-5) }, dl.ErrDType, "float64"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := dl.Catch(c.f)
			if !errors.Is(err, c.target) {
				t.Fatalf("error %v; want one wrapping %v", err, c.target)
			}
			if msg := err.Error(); !strings.Contains(msg, "BatchNorm") || !strings.Contains(msg, c.want) || !strings.Contains(msg, "; ") {
				t.Errorf("message %q should name BatchNorm, mention %q and give a fix", msg, c.want)
			}
		})
	}
}

// TestBatchNormFloat32 checks the float32 kernels (SIMD statistics and
// affine loops) against float64 on the same values, training and eval,
// forward and backward, on planes of 37 elements (vector body and tail)
// with a mean far from zero.
func TestBatchNormFloat32(t *testing.T) {
	for _, training := range []bool{true, false} {
		run := func(dt dl.DType) [][]float64 {
			o := dl.Options{DType: dl.Float64, Generator: dl.NewGenerator(4)}
			x := o.Randn(5, 3, 37).MulScalar(2).AddScalar(3).AsType(dt).SetRequiresGrad(true)
			w := o.Randn(3).AsType(dt).SetRequiresGrad(true)
			b := o.Randn(3).AsType(dt).SetRequiresGrad(true)
			rm, rv := dl.Options{DType: dt}.Full(2.5, 3), dl.Options{DType: dt}.Full(3, 3)
			y := dl.BatchNorm(x, rm, rv, w, b, training, 0.1, 1e-5)
			y.BackwardWith(dl.BackwardOptions{Grad: o.Randn(5, 3, 37).AsType(dt)})
			return [][]float64{y.Float64s(), x.Grad().Float64s(), w.Grad().Float64s(), b.Grad().Float64s(), rm.Float64s(), rv.Float64s()}
		}
		f32, f64 := run(dl.Float32), run(dl.Float64)
		for i, name := range []string{"y", "dx", "dw", "db", "running mean", "running var"} {
			if d, s := maxAbsDiff(t, f32[i], f64[i]); d > 2e-5*math.Max(s, 1) {
				t.Errorf("training %v: float32 %s differs from float64 by %.3g (scale %.3g)", training, name, d, s)
			}
		}
	}
}
