package dl_test

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/dlbd/dlbd/dl"
	"github.com/dlbd/dlbd/dl/dltest"
)

// TestMaxPool2dValues checks MaxPool2d on a small input by hand: values,
// padding as −∞, the first of equal maxima taking the gradient, NaN.
func TestMaxPool2dValues(t *testing.T) {
	x := dl.FromSlice([]float64{
		1, 5, 2, 0,
		3, 4, 2, 2,
		-1, -2, -3, -4,
		-5, -6, -7, -8}, 1, 1, 4, 4).SetRequiresGrad(true)
	y := dl.MaxPool2d(x, [2]int{2, 2}, dl.Pool2dOptions{})
	if got, want := y.Float64s(), []float64{5, 2, -1, -3}; !slices.Equal(got, want) {
		t.Fatalf("MaxPool2d 2x2 = %v; want %v", got, want)
	}
	y.Sum().Backward()
	// the window {2, 0, 2, 2} has three maxima: the first (row-major) gets the gradient
	if got, want := x.Grad().Float64s(), []float64{0, 1, 1, 0, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 0}; !slices.Equal(got, want) {
		t.Fatalf("MaxPool2d gradient = %v; want %v", got, want)
	}
	neg := dl.FromSlice([]float64{-1, -2, -3, -4}, 1, 1, 2, 2)
	p := dl.MaxPool2d(neg, [2]int{2, 2}, dl.Pool2dOptions{Stride: [2]int{1, 1}, Padding: [2]int{1, 1}})
	if got, want := p.Float64s(), []float64{-1, -1, -2, -1, -1, -2, -3, -3, -4}; !slices.Equal(got, want) {
		t.Fatalf("padded MaxPool2d = %v; want %v (padding is −∞, not 0)", got, want)
	}
	nan := dl.FromSlice([]float64{1, math.NaN(), 3, 2}, 1, 1, 2, 2)
	if v := dl.MaxPool2d(nan, [2]int{2, 2}, dl.Pool2dOptions{}).Item(); !math.IsNaN(v) {
		t.Fatalf("MaxPool2d of a window with NaN = %v; want NaN", v)
	}
}

// TestAvgPool2dValues checks AvgPool2d's count_include_pad and
// AdaptiveAvgPool2d's uneven windows by hand.
func TestAvgPool2dValues(t *testing.T) {
	x := dl.FromSlice([]float64{1, 2, 3, 4, 5, 6, 7, 8, 9}, 1, 1, 3, 3)
	y := dl.AvgPool2d(x, [2]int{2, 2}, dl.Pool2dOptions{Stride: [2]int{2, 2}, Padding: [2]int{1, 1}})
	// windows {0,0,0,1}, {0,0,2,3}, {0,4,0,7}, {5,6,8,9}, each divided by 4
	if got, want := y.Float64s(), []float64{0.25, 1.25, 2.75, 7}; !slices.Equal(got, want) {
		t.Fatalf("AvgPool2d with padding = %v; want %v (count_include_pad)", got, want)
	}
	a := dl.AdaptiveAvgPool2d(x, [2]int{2, 2})
	// rows {0,1},{1,2}, columns {0,1},{1,2}
	if got, want := a.Float64s(), []float64{3, 4, 6, 7}; !slices.Equal(got, want) {
		t.Fatalf("AdaptiveAvgPool2d 3x3→2x2 = %v; want %v", got, want)
	}
	g := dl.AdaptiveAvgPool2d(dl.Options{DType: dl.Float64, Generator: dl.NewGenerator(1)}.Randn(2, 3, 5, 7), [2]int{1, 1})
	if !slices.Equal(g.Shape(), []int{2, 3, 1, 1}) {
		t.Fatalf("global average pooling has shape %v", g.Shape())
	}
}

// TestPoolGradCheck checks the pools' gradients against finite
// differences (MaxPool2d on distinct values, so that the argmax is
// stable under the perturbation).
func TestPoolGradCheck(t *testing.T) {
	x := f64(2, 3, 7, 6)
	cases := []struct {
		name string
		f    func(x *dl.Tensor) *dl.Tensor
	}{
		{"MaxPool2d/2x2", func(x *dl.Tensor) *dl.Tensor { return dl.MaxPool2d(x, [2]int{2, 2}, dl.Pool2dOptions{}) }},
		{"MaxPool2d/3x2/s1/p1", func(x *dl.Tensor) *dl.Tensor {
			return dl.MaxPool2d(x, [2]int{3, 2}, dl.Pool2dOptions{Stride: [2]int{1, 2}, Padding: [2]int{1, 1}})
		}},
		{"AvgPool2d/3x3/s2/p1", func(x *dl.Tensor) *dl.Tensor {
			return dl.AvgPool2d(x, [2]int{3, 3}, dl.Pool2dOptions{Stride: [2]int{2, 2}, Padding: [2]int{1, 1}})
		}},
		{"AvgPool2d/2x3", func(x *dl.Tensor) *dl.Tensor { return dl.AvgPool2d(x, [2]int{2, 3}, dl.Pool2dOptions{}) }},
		{"AdaptiveAvgPool2d/1x1", func(x *dl.Tensor) *dl.Tensor { return dl.AdaptiveAvgPool2d(x, [2]int{1, 1}) }},
		{"AdaptiveAvgPool2d/3x4", func(x *dl.Tensor) *dl.Tensor { return dl.AdaptiveAvgPool2d(x, [2]int{3, 4}) }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dltest.GradCheck(t, func(xs ...*dl.Tensor) *dl.Tensor { return c.f(xs[0]) }, x)
		})
	}
}

// TestPoolDevices compares the pools on every device with the CPU.
func TestPoolDevices(t *testing.T) {
	run := func(dev dl.Device) [][]float64 {
		x := dl.Options{DType: dl.Float64, Device: dev, Generator: dl.NewGenerator(4)}.Randn(2, 3, 6, 5).SetRequiresGrad(true)
		m := dl.MaxPool2d(x, [2]int{3, 3}, dl.Pool2dOptions{Stride: [2]int{2, 2}, Padding: [2]int{1, 1}})
		a := dl.AvgPool2d(x, [2]int{2, 2}, dl.Pool2dOptions{Padding: [2]int{1, 0}})
		g := dl.AdaptiveAvgPool2d(x, [2]int{1, 1})
		out := [][]float64{m.Float64s(), a.Float64s(), g.Float64s()}
		m.Sum().Add(a.Mul(a).Sum()).Add(g.Sum().MulScalar(3)).Backward()
		return append(out, x.Grad().Float64s())
	}
	want := run(dl.CPU)
	dltest.ForEachDevice(t, func(t *testing.T, dev dl.Device) {
		got := run(dev)
		for i, name := range []string{"MaxPool2d", "AvgPool2d", "AdaptiveAvgPool2d", "dx"} {
			if d, s := maxAbsDiff(t, got[i], want[i]); d > 1e-12*math.Max(s, 1) {
				t.Errorf("%s on %v differs from the CPU by %.3g", name, dev, d)
			}
		}
	})
}

// TestPoolFloat32AndHalf runs the pools in float32 and bfloat16 against
// float64.
func TestPoolFloat32AndHalf(t *testing.T) {
	x := dl.Options{DType: dl.Float64, Generator: dl.NewGenerator(5)}.Randn(2, 2, 6, 6)
	for _, dt := range []dl.DType{dl.Float32, dl.BFloat16} {
		xd := x.AsType(dt).SetRequiresGrad(true)
		x64 := xd.Detach().AsType(dl.Float64).SetRequiresGrad(true)
		for _, f := range []func(*dl.Tensor) *dl.Tensor{
			func(x *dl.Tensor) *dl.Tensor { return dl.MaxPool2d(x, [2]int{2, 2}, dl.Pool2dOptions{}) },
			func(x *dl.Tensor) *dl.Tensor {
				return dl.AvgPool2d(x, [2]int{3, 3}, dl.Pool2dOptions{Stride: [2]int{1, 1}})
			},
			func(x *dl.Tensor) *dl.Tensor { return dl.AdaptiveAvgPool2d(x, [2]int{1, 1}) },
		} {
			xd.ZeroGrad()
			x64.ZeroGrad()
			y, want := f(xd), f(x64)
			if y.DType() != dt {
				t.Fatalf("pool of %v returned %v", dt, y.DType())
			}
			tol := 1e-6
			if dt == dl.BFloat16 {
				tol = 1e-2
			}
			if d, s := maxAbsDiff(t, y.Float64s(), want.Float64s()); d > tol*math.Max(s, 1) {
				t.Errorf("%v pool differs from float64 by %.3g", dt, d)
			}
			y.Sum().Backward()
			want.Sum().Backward()
			if d, s := maxAbsDiff(t, xd.Grad().Float64s(), x64.Grad().Float64s()); d > tol*math.Max(s, 1) {
				t.Errorf("%v pool gradient differs from float64 by %.3g", dt, d)
			}
		}
	}
}

// TestPoolErrors checks the errors of bad pooling arguments.
func TestPoolErrors(t *testing.T) {
	x := dl.Zeros(1, 2, 4, 4)
	cases := []struct {
		name, op string
		f        func()
		target   error
		want     string
	}{
		{"rank", "MaxPool2d", func() { dl.MaxPool2d(dl.Zeros(2, 4, 4), [2]int{2, 2}, dl.Pool2dOptions{}) }, dl.ErrShape, "[2 4 4]"},
		{"kernel", "MaxPool2d", func() { dl.MaxPool2d(x, [2]int{0, 2}, dl.Pool2dOptions{}) }, dl.ErrValue, "kernel"},
		{"too big", "AvgPool2d", func() { dl.AvgPool2d(x, [2]int{5, 2}, dl.Pool2dOptions{}) }, dl.ErrShape, "larger than the padded input"},
		{"stride", "AvgPool2d", func() { dl.AvgPool2d(x, [2]int{2, 2}, dl.Pool2dOptions{Stride: [2]int{-1, 1}}) }, dl.ErrValue, "stride"},
		{"padding", "MaxPool2d", func() { dl.MaxPool2d(x, [2]int{2, 2}, dl.Pool2dOptions{Padding: [2]int{2, 0}}) }, dl.ErrValue, "half the kernel"},
		{"adaptive size", "AdaptiveAvgPool2d", func() { dl.AdaptiveAvgPool2d(x, [2]int{0, 1}) }, dl.ErrValue, "output size"},
		{"adaptive rank", "AdaptiveAvgPool2d", func() { dl.AdaptiveAvgPool2d(dl.Zeros(4, 4), [2]int{1, 1}) }, dl.ErrShape, "[4 4]"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := dl.Catch(c.f)
			if !errors.Is(err, c.target) {
				t.Fatalf("error %v; want one wrapping %v", err, c.target)
			}
			if msg := err.Error(); !strings.Contains(msg, c.op) || !strings.Contains(msg, c.want) || !strings.Contains(msg, "; ") {
				t.Errorf("message %q should name %s, mention %q and give a fix", msg, c.op, c.want)
			}
		})
	}
}
