package dl_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/dlbd/dlbd/dl"
	"github.com/dlbd/dlbd/dl/amp"
	"github.com/dlbd/dlbd/dl/dltest"
)

// convCase is one convolution: input [n, c, h, w], cout filters of
// kh×kw, and the options.
type convCase struct {
	n, c, h, w, cout, kh, kw int
	o                        dl.Conv2dOptions
	bias                     bool
}

func (c convCase) String() string {
	return fmt.Sprintf("x=[%d,%d,%d,%d]/w=[%d,%d,%d,%d]/s=%v/p=%v/d=%v/g=%d/bias=%v", c.n, c.c, c.h, c.w,
		c.cout, c.c/max(c.o.Groups, 1), c.kh, c.kw, c.o.Stride, c.o.Padding, c.o.Dilation, c.o.Groups, c.bias)
}

// tensors returns the case's input, weight and bias (nil without) in dt
// on dev, from seed.
func (c convCase) tensors(seed uint64, dt dl.DType, dev dl.Device) (x, w, b *dl.Tensor) {
	o := dl.Options{DType: dt, Device: dev, Generator: dl.NewGenerator(seed)}
	x = o.Randn(c.n, c.c, c.h, c.w)
	w = o.Randn(c.cout, c.c/max(c.o.Groups, 1), c.kh, c.kw)
	if c.bias {
		b = o.Randn(c.cout)
	}
	return x, w, b
}

// convCases are hand-picked configurations: plain, strided, padded,
// dilated, grouped, depthwise, 1×1, odd sizes, batch 1, rectangular.
var convCases = []convCase{
	{n: 2, c: 3, h: 7, w: 7, cout: 4, kh: 3, kw: 3, bias: true},
	{n: 1, c: 1, h: 5, w: 5, cout: 1, kh: 5, kw: 5},
	{n: 2, c: 4, h: 9, w: 8, cout: 6, kh: 3, kw: 2, o: dl.Conv2dOptions{Stride: [2]int{2, 3}}, bias: true},
	{n: 3, c: 2, h: 6, w: 7, cout: 3, kh: 3, kw: 3, o: dl.Conv2dOptions{Padding: [2]int{1, 2}}, bias: true},
	{n: 2, c: 2, h: 9, w: 10, cout: 2, kh: 3, kw: 2, o: dl.Conv2dOptions{Dilation: [2]int{2, 3}, Padding: [2]int{2, 1}}},
	{n: 2, c: 6, h: 5, w: 5, cout: 4, kh: 3, kw: 3, o: dl.Conv2dOptions{Groups: 2, Padding: [2]int{1, 1}}, bias: true},
	{n: 2, c: 4, h: 6, w: 6, cout: 4, kh: 3, kw: 3, o: dl.Conv2dOptions{Groups: 4, Padding: [2]int{1, 1}}, bias: true},           // depthwise
	{n: 1, c: 3, h: 8, w: 7, cout: 6, kh: 3, kw: 3, o: dl.Conv2dOptions{Groups: 3, Stride: [2]int{2, 2}, Padding: [2]int{1, 1}}}, // depthwise, multiplier 2
	{n: 2, c: 5, h: 4, w: 3, cout: 7, kh: 1, kw: 1, bias: true},                                                                  // 1×1
	{n: 1, c: 2, h: 3, w: 3, cout: 2, kh: 3, kw: 3, o: dl.Conv2dOptions{Padding: [2]int{3, 3}, Stride: [2]int{4, 1}}},            // windows only in the padding
	{n: 3, c: 3, h: 11, w: 5, cout: 2, kh: 4, kw: 1, o: dl.Conv2dOptions{Stride: [2]int{3, 2}, Padding: [2]int{0, 2}, Dilation: [2]int{2, 1}}},
}

// randomConvCases returns count random valid configurations.
func randomConvCases(seed uint64, count int) []convCase {
	r := rand.New(rand.NewPCG(seed, 1))
	var cs []convCase
	for len(cs) < count {
		g := 1 + r.IntN(3)
		if r.IntN(4) == 0 {
			g = 1 + r.IntN(5) // depthwise below
		}
		c := g * (1 + r.IntN(3))
		cout := g * (1 + r.IntN(3))
		if r.IntN(4) == 0 { // depthwise
			c, cout = g, g
		}
		cc := convCase{n: 1 + r.IntN(3), c: c, h: 1 + r.IntN(10), w: 1 + r.IntN(10), cout: cout, kh: 1 + r.IntN(4), kw: 1 + r.IntN(4),
			o: dl.Conv2dOptions{Stride: [2]int{1 + r.IntN(3), 1 + r.IntN(3)}, Padding: [2]int{r.IntN(3), r.IntN(3)},
				Dilation: [2]int{1 + r.IntN(2), 1 + r.IntN(2)}, Groups: g}, bias: r.IntN(2) == 0}
		if cc.h+2*cc.o.Padding[0] < cc.o.Dilation[0]*(cc.kh-1)+1 || cc.w+2*cc.o.Padding[1] < cc.o.Dilation[1]*(cc.kw-1)+1 {
			continue
		}
		cs = append(cs, cc)
	}
	return cs
}

// maxAbsDiff returns max |a − b| and max |b|.
func maxAbsDiff(t *testing.T, a, b []float64) (diff, scale float64) {
	t.Helper()
	if len(a) != len(b) {
		t.Fatalf("%d values; want %d", len(a), len(b))
	}
	for i := range a {
		diff = math.Max(diff, math.Abs(a[i]-b[i]))
		if math.IsNaN(a[i]) != math.IsNaN(b[i]) {
			diff = math.Inf(1)
		}
		scale = math.Max(scale, math.Abs(b[i]))
	}
	return diff, scale
}

// TestConv2dMatchesNaive compares the im2col+GEMM convolution with the
// seven-loop reference on the hand-picked and 60 random configurations,
// in float64 (to 1e-12) and float32 (to 1e-5 relative), on CPU and Sim.
func TestConv2dMatchesNaive(t *testing.T) {
	cases := append(append([]convCase(nil), convCases...), randomConvCases(3, 60)...)
	for _, dev := range []dl.Device{dl.CPU, dl.Sim(0)} {
		for _, dt := range []dl.DType{dl.Float64, dl.Float32} {
			for i, c := range cases {
				x, w, b := c.tensors(uint64(i+1), dt, dev)
				got := dl.Conv2d(x, w, b, c.o)
				want := dl.Conv2dNaive(x, w, b, c.o)
				if fmt.Sprint(got.Shape()) != fmt.Sprint(want.Shape()) || got.DType() != dt || got.Device() != dev {
					t.Fatalf("%v %v %v: Conv2d gives %v %v on %v; want %v", dev, dt, c, got.Shape(), got.DType(), got.Device(), want.Shape())
				}
				tol := 1e-12
				if dt == dl.Float32 {
					tol = 1e-5
				}
				if d, s := maxAbsDiff(t, got.Float64s(), want.Float64s()); d > tol*math.Max(s, 1) {
					t.Errorf("%v %v %v: Conv2d differs from Conv2dNaive by %.3g (scale %.3g)", dev, dt, c, d, s)
				}
			}
		}
	}
}

// TestConv2dChunks checks a convolution whose columns exceed the column
// budget, so that samples are processed in several chunks, forward and
// backward, against a run on the samples one at a time.
func TestConv2dChunks(t *testing.T) {
	c := convCase{n: 5, c: 8, h: 40, w: 40, cout: 3, kh: 5, kw: 5, o: dl.Conv2dOptions{Padding: [2]int{2, 2}}, bias: true}
	// 8·25 rows × 1600 columns = 320000 elements a sample: 13 samples fit 1<<22; use 20 for several chunks
	c.n = 20
	x, w, b := c.tensors(5, dl.Float64, dl.CPU)
	x.SetRequiresGrad(true)
	w.SetRequiresGrad(true)
	y := dl.Conv2d(x, w, b, c.o)
	if d, s := maxAbsDiff(t, y.Float64s(), dl.Conv2dNaive(x, w, b, c.o).Float64s()); d > 1e-11*s {
		t.Fatalf("chunked Conv2d differs from Conv2dNaive by %.3g", d)
	}
	y.Sum().Backward()
	gx, gw := x.Grad().Float64s(), w.Grad().Float64s()
	// the same sums, one sample at a time (one chunk each)
	gw1 := make([]float64, len(gw))
	for s := range c.n {
		xs := x.Detach().Narrow(0, s, 1).Clone().SetRequiresGrad(true)
		ws := w.Detach().Clone().SetRequiresGrad(true)
		dl.Conv2d(xs, ws, b, c.o).Sum().Backward()
		if d, sc := maxAbsDiff(t, gx[s*len(xs.Float64s()):(s+1)*len(xs.Float64s())], xs.Grad().Float64s()); d > 1e-12*sc {
			t.Fatalf("dx of sample %d differs by %.3g", s, d)
		}
		for i, v := range ws.Grad().Float64s() {
			gw1[i] += v
		}
	}
	if d, s := maxAbsDiff(t, gw, gw1); d > 1e-10*s {
		t.Fatalf("dW over chunks differs from the sum over samples by %.3g", d)
	}
}

// TestConv2dGradCheck checks Conv2d's gradients for input, weight and
// bias against finite differences.
func TestConv2dGradCheck(t *testing.T) {
	cases := []convCase{
		{n: 2, c: 2, h: 5, w: 4, cout: 3, kh: 3, kw: 2, bias: true},
		{n: 1, c: 3, h: 6, w: 7, cout: 2, kh: 3, kw: 3, o: dl.Conv2dOptions{Stride: [2]int{2, 2}, Padding: [2]int{1, 1}}, bias: true},
		{n: 2, c: 2, h: 7, w: 6, cout: 2, kh: 2, kw: 3, o: dl.Conv2dOptions{Dilation: [2]int{2, 2}, Padding: [2]int{1, 2}, Stride: [2]int{1, 2}}},
		{n: 2, c: 4, h: 4, w: 5, cout: 6, kh: 3, kw: 3, o: dl.Conv2dOptions{Groups: 2, Padding: [2]int{1, 1}}, bias: true},
		{n: 2, c: 3, h: 5, w: 5, cout: 3, kh: 3, kw: 3, o: dl.Conv2dOptions{Groups: 3, Padding: [2]int{1, 0}, Stride: [2]int{2, 1}}, bias: true},
	}
	for i, c := range cases {
		t.Run(c.String(), func(t *testing.T) {
			x, w, b := c.tensors(uint64(40+i), dl.Float64, dl.CPU)
			inputs := []*dl.Tensor{x, w}
			if b != nil {
				inputs = append(inputs, b)
			}
			dltest.GradCheck(t, func(xs ...*dl.Tensor) *dl.Tensor {
				var bb *dl.Tensor
				if len(xs) == 3 {
					bb = xs[2]
				}
				return dl.Conv2d(xs[0], xs[1], bb, c.o)
			}, inputs...)
		})
	}
}

// TestConv2dDevices runs a forward and backward on each device and
// compares with the CPU.
func TestConv2dDevices(t *testing.T) {
	c := convCase{n: 2, c: 4, h: 7, w: 6, cout: 4, kh: 3, kw: 3, o: dl.Conv2dOptions{Groups: 2, Padding: [2]int{1, 1}, Stride: [2]int{2, 1}}, bias: true}
	run := func(dev dl.Device) [][]float64 {
		x, w, b := c.tensors(9, dl.Float64, dev)
		for _, p := range []*dl.Tensor{x, w, b} {
			p.SetRequiresGrad(true)
		}
		y := dl.Conv2d(x, w, b, c.o)
		out := y.Float64s()
		y.Mul(y).Sum().Backward()
		return [][]float64{out, x.Grad().Float64s(), w.Grad().Float64s(), b.Grad().Float64s()}
	}
	want := run(dl.CPU)
	dltest.ForEachDevice(t, func(t *testing.T, dev dl.Device) {
		got := run(dev)
		for i, name := range []string{"y", "dx", "dW", "db"} {
			if d, s := maxAbsDiff(t, got[i], want[i]); d > 1e-12*math.Max(s, 1) {
				t.Errorf("%s on %v differs from the CPU by %.3g", name, dev, d)
			}
		}
	})
}

// TestConv2dHalf checks Float16 and BFloat16 convolutions against the
// float32 one, forward and backward, to their precision.
func TestConv2dHalf(t *testing.T) {
	c := convCase{n: 2, c: 4, h: 6, w: 6, cout: 4, kh: 3, kw: 3, o: dl.Conv2dOptions{Groups: 2, Padding: [2]int{1, 1}}, bias: true}
	x, w, b := c.tensors(11, dl.Float32, dl.CPU)
	want := dl.Conv2d(x, w, b, c.o).Float64s()
	for _, dt := range []dl.DType{dl.Float16, dl.BFloat16} {
		xh, wh, bh := x.AsType(dt).SetRequiresGrad(true), w.AsType(dt).SetRequiresGrad(true), b.AsType(dt).SetRequiresGrad(true)
		y := dl.Conv2d(xh, wh, bh, c.o)
		if y.DType() != dt {
			t.Fatalf("%v Conv2d returned %v", dt, y.DType())
		}
		if d, s := maxAbsDiff(t, y.Float64s(), want); d > 0.05*s {
			t.Errorf("%v Conv2d differs from float32 by %.3g (scale %.3g)", dt, d, s)
		}
		y.AsType(dl.Float32).Sum().Backward()
		for _, p := range []*dl.Tensor{xh, wh, bh} {
			if p.Grad() == nil || p.Grad().DType() != dt {
				t.Fatalf("%v gradient missing or of the wrong dtype", dt)
			}
		}
	}
}

// TestConv2dAutocast runs Conv2d under bfloat16 and float16 autocast:
// the result is in the autocast dtype, close to float32, and the float32
// leaves get float32 gradients.
func TestConv2dAutocast(t *testing.T) {
	c := convCase{n: 2, c: 3, h: 8, w: 8, cout: 5, kh: 3, kw: 3, o: dl.Conv2dOptions{Padding: [2]int{1, 1}}, bias: true}
	x, w, b := c.tensors(12, dl.Float32, dl.CPU)
	w.SetRequiresGrad(true)
	b.SetRequiresGrad(true)
	want := dl.Conv2d(x, w, b, c.o).Float64s()
	for _, dt := range []dl.DType{dl.BFloat16, dl.Float16} {
		w.ZeroGrad()
		b.ZeroGrad()
		var y *dl.Tensor
		amp.Autocast(dt, func() { y = dl.Conv2d(x, w, b, c.o) })
		if y.DType() != dt {
			t.Fatalf("Conv2d under %v autocast returned %v", dt, y.DType())
		}
		tol := 0.02 // bfloat16 has 8 bits of mantissa
		if dt == dl.Float16 {
			tol = 0.003
		}
		if d, s := maxAbsDiff(t, y.Float64s(), want); d > tol*s {
			t.Errorf("Conv2d under %v autocast differs from float32 by %.3g (scale %.3g)", dt, d, s)
		}
		y.AsType(dl.Float32).Sum().Backward()
		if w.Grad() == nil || w.Grad().DType() != dl.Float32 || b.Grad().DType() != dl.Float32 {
			t.Fatalf("the float32 weight and bias got gradients %v and %v", w.Grad(), b.Grad())
		}
	}
}

// conv2dAutocastCase is TestAutocastPolicy's case for Conv2d: x [4, 6] as
// one 4×6 image, w [3, 6] as three 2×3 filters, b [3].
func conv2dAutocastCase(x, w, b *dl.Tensor) *dl.Tensor {
	return dl.Conv2d(x.Reshape(1, 1, 4, 6), w.Reshape(3, 1, 2, 3), b, dl.Conv2dOptions{})
}

// TestConv2dErrors checks the errors of bad arguments: type, op name,
// the shapes and a fix.
func TestConv2dErrors(t *testing.T) {
	x := dl.Zeros(2, 4, 6, 6)
	w := dl.Zeros(8, 4, 3, 3)
	cases := []struct {
		name   string
		f      func()
		target error
		want   string
	}{
		{"rank", func() { dl.Conv2d(dl.Zeros(4, 6, 6), w, nil, dl.Conv2dOptions{}) }, dl.ErrShape, "[4 6 6]"},
		{"weight rank", func() { dl.Conv2d(x, dl.Zeros(8, 4, 3), nil, dl.Conv2dOptions{}) }, dl.ErrShape, "[8 4 3]"},
		{"channels", func() { dl.Conv2d(x, dl.Zeros(8, 3, 3, 3), nil, dl.Conv2dOptions{}) }, dl.ErrShape, "input channels"},
		{"groups divide", func() { dl.Conv2d(x, dl.Zeros(8, 4, 3, 3), nil, dl.Conv2dOptions{Groups: 3}) }, dl.ErrShape, "divisible by groups = 3"},
		{"groups channels", func() { dl.Conv2d(x, w, nil, dl.Conv2dOptions{Groups: 2}) }, dl.ErrShape, "per group"},
		{"negative groups", func() { dl.Conv2d(x, w, nil, dl.Conv2dOptions{Groups: -1}) }, dl.ErrValue, "groups"},
		{"bias", func() { dl.Conv2d(x, w, dl.Zeros(4), dl.Conv2dOptions{}) }, dl.ErrShape, "bias"},
		{"kernel too big", func() { dl.Conv2d(x, dl.Zeros(8, 4, 7, 3), nil, dl.Conv2dOptions{}) }, dl.ErrShape, "larger than the padded input"},
		{"dilated too big", func() { dl.Conv2d(x, w, nil, dl.Conv2dOptions{Dilation: [2]int{3, 1}}) }, dl.ErrShape, "dilation 3x1"},
		{"stride", func() { dl.Conv2d(x, w, nil, dl.Conv2dOptions{Stride: [2]int{0, 1}}) }, dl.ErrValue, "stride"},
		{"negative stride", func() { dl.Conv2d(x, w, nil, dl.Conv2dOptions{Stride: [2]int{-1, -1}}) }, dl.ErrValue, "stride"},
		{"padding", func() { dl.Conv2d(x, w, nil, dl.Conv2dOptions{Padding: [2]int{-1, 0}}) }, dl.ErrValue, "padding"},
		{"dilation", func() { dl.Conv2d(x, w, nil, dl.Conv2dOptions{Dilation: [2]int{1, -2}}) }, dl.ErrValue, "dilation"},
		{"dtype", func() { dl.Conv2d(x, w.AsType(dl.Float64), nil, dl.Conv2dOptions{}) }, dl.ErrDType, "float64"},
		{"device", func() { dl.Conv2d(x, w.To(dl.Sim(0)), nil, dl.Conv2dOptions{}) }, dl.ErrDevice, "sim"},
		{"nil", func() { dl.Conv2d(x, nil, nil, dl.Conv2dOptions{}) }, dl.ErrValue, "nil"},
		{"naive", func() { dl.Conv2dNaive(x, dl.Zeros(8, 3, 3, 3), nil, dl.Conv2dOptions{}) }, dl.ErrShape, "Conv2dNaive"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := dl.Catch(c.f)
			if !errors.Is(err, c.target) {
				t.Fatalf("error %v; want one wrapping %v", err, c.target)
			}
			msg := err.Error()
			if !strings.Contains(msg, "Conv2d") || !strings.Contains(msg, c.want) || !strings.Contains(msg, "; ") {
				t.Errorf("message %q should name the op, mention %q and give a fix", msg, c.want)
			}
			var se *dl.ShapeError
			if errors.As(err, &se) && len(se.Shapes) < 2 {
				t.Errorf("ShapeError lists shapes %v; want input and weight", se.Shapes)
			}
		})
	}
}
