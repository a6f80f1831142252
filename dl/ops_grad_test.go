package dl_test

import (
	"math"
	"slices"
	"testing"

	"github.com/dlbd/dlbd/dl"
	"github.com/dlbd/dlbd/dl/amp"
	"github.com/dlbd/dlbd/dl/dltest"
)

// scale is a custom Function computing 3x, to test Apply.
type scale struct{}

func (scale) Forward(ctx *dl.FunctionContext, in ...*dl.Tensor) []*dl.Tensor {
	ctx.SaveForBackward(in[0])
	return []*dl.Tensor{in[0].MulScalar(3), in[0]} // a scaled copy and an identity output
}

func (scale) Backward(ctx *dl.FunctionContext, g ...*dl.Tensor) []*dl.Tensor {
	return []*dl.Tensor{g[0].MulScalar(3).Add(g[1])}
}

func TestGradOps(t *testing.T) {
	targets := dl.FromSlice([]float64{2, -100, 0, 1})
	idx := dl.FromSlice([]float64{1, 0, 1, 2}, 2, 2)
	mask := dl.FromSlice([]float64{1, 0, 0, 1, 1, 0}, 2, 3)
	type fn = func(xs ...*dl.Tensor) *dl.Tensor
	cases := []struct {
		name   string
		f      fn
		inputs []*dl.Tensor
	}{
		{"Softmax/axis=-1", func(x ...*dl.Tensor) *dl.Tensor { return x[0].Softmax(-1) }, []*dl.Tensor{f64(3, 4)}},
		{"Softmax/axis=0", func(x ...*dl.Tensor) *dl.Tensor { return x[0].Softmax(0) }, []*dl.Tensor{f64(3, 4)}},
		{"LogSoftmax", func(x ...*dl.Tensor) *dl.Tensor { return x[0].LogSoftmax(1) }, []*dl.Tensor{f64(2, 3, 4)}},
		{"CrossEntropy/ignore", func(x ...*dl.Tensor) *dl.Tensor { return dl.CrossEntropy(x[0], targets) }, []*dl.Tensor{f64(4, 3)}},
		{"MSE", func(x ...*dl.Tensor) *dl.Tensor { return dl.MSE(x[0], x[1]) }, []*dl.Tensor{f64(3, 2), f64(3, 2)}},
		{"Linear", func(x ...*dl.Tensor) *dl.Tensor { return dl.Linear(x[0], x[1], x[2]) }, []*dl.Tensor{f64(2, 3, 4), f64(5, 4), f64(5)}},
		{"Linear/nobias", func(x ...*dl.Tensor) *dl.Tensor { return dl.Linear(x[0], x[1], nil) }, []*dl.Tensor{f64(3, 4), f64(2, 4)}},
		{"LayerNorm", func(x ...*dl.Tensor) *dl.Tensor { return dl.LayerNorm(x[0], x[1], x[2], 1e-5) }, []*dl.Tensor{f64(3, 5), f64(5), f64(5)}},
		{"LayerNorm/noaffine", func(x ...*dl.Tensor) *dl.Tensor { return dl.LayerNorm(x[0], nil, nil, 1e-5) }, []*dl.Tensor{f64(2, 2, 4)}},
		{"IndexSelect", func(x ...*dl.Tensor) *dl.Tensor { return x[0].IndexSelect(idx) }, []*dl.Tensor{f64(3, 4)}},
		{"Where", func(x ...*dl.Tensor) *dl.Tensor { return dl.Where(mask, x[0], x[1]) }, []*dl.Tensor{f64(2, 3), f64(3)}},
		{"MaskedFill", func(x ...*dl.Tensor) *dl.Tensor { return x[0].MaskedFill(mask, -1e9).Softmax(-1) }, []*dl.Tensor{f64(2, 3)}},
		{"Max/axis=1", func(x ...*dl.Tensor) *dl.Tensor { return x[0].Max(1) }, []*dl.Tensor{f64(3, 4, 2)}},
		{"MaxKeepDim/axis=0", func(x ...*dl.Tensor) *dl.Tensor { return x[0].MaxKeepDim(0) }, []*dl.Tensor{f64(3, 4)}},
		{"Narrow/axis=0", func(x ...*dl.Tensor) *dl.Tensor { return x[0].Narrow(0, 1, 2) }, []*dl.Tensor{f64(4, 3)}},
		{"Narrow/axis=1", func(x ...*dl.Tensor) *dl.Tensor { return x[0].Narrow(1, 1, 2) }, []*dl.Tensor{f64(2, 4, 3)}},
		{"Slice/Index", func(x ...*dl.Tensor) *dl.Tensor { return x[0].Slice(1, 3).Index(1) }, []*dl.Tensor{f64(4, 3)}},
		{"Cat/axis=1", func(x ...*dl.Tensor) *dl.Tensor { return dl.Cat([]*dl.Tensor{x[0], x[1]}, 1) }, []*dl.Tensor{f64(2, 3), f64(2, 1)}},
		{"Stack", func(x ...*dl.Tensor) *dl.Tensor { return dl.Stack([]*dl.Tensor{x[0], x[1]}, 0) }, []*dl.Tensor{f64(2, 3), f64(2, 3)}},
		{"Dropout", func(x ...*dl.Tensor) *dl.Tensor { return dl.Dropout(x[0], 0.4, dl.NewGenerator(5)) }, []*dl.Tensor{f64(4, 5)}},
		{"Function", func(x ...*dl.Tensor) *dl.Tensor {
			o := dl.Apply(scale{}, x[0])
			return o[0].Mul(o[1])
		}, []*dl.Tensor{f64(3)}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { dltest.GradCheck(t, c.f, c.inputs...) })
	}
}

func TestCrossEntropyValue(t *testing.T) {
	logits := dl.FromSlice([]float64{1, 2, 3, 1000, 0, -1000}, 2, 3)
	loss := dl.CrossEntropy(logits, dl.FromSlice([]float64{2, 0})).Item()
	want := (-(3 - math.Log(math.Exp(1)+math.Exp(2)+math.Exp(3))) + 0) / 2
	if math.Abs(loss-want) > 1e-12 {
		t.Errorf("CrossEntropy = %v; want %v (stable with logits of 1000)", loss, want)
	}
	ign := -1
	all := dl.CrossEntropyWith(logits, dl.FromSlice([]float64{-1, -1}), dl.CrossEntropyOptions{IgnoreIndex: &ign}).Item()
	if !math.IsNaN(all) {
		t.Errorf("CrossEntropy with every target ignored = %v; want NaN (0/0, like PyTorch)", all)
	}
	if got, want := dl.OneHot(dl.FromSlice([]float32{2, 0}), 3).Float64s(), []float64{0, 0, 1, 1, 0, 0}; !slices.Equal(got, want) {
		t.Errorf("OneHot = %v; want %v", got, want)
	}
	if got, want := logits.ArgMax(1).Float64s(), []float64{2, 0}; !slices.Equal(got, want) {
		t.Errorf("ArgMax = %v; want %v", got, want)
	}
}

func TestDropoutReplay(t *testing.T) {
	g := dl.NewGenerator(9)
	st := g.State()
	x := dl.Ones(1000)
	a := dl.Dropout(x, 0.5, g).Float64s()
	g.SetState(st)
	b := dl.Dropout(x, 0.5, g).Float64s()
	if !slices.Equal(a, b) {
		t.Fatal("Dropout after SetState gave a different mask")
	}
	var zeros int
	for _, v := range a {
		switch v {
		case 0:
			zeros++
		case 2:
		default:
			t.Fatalf("Dropout(p=0.5) produced %v; want 0 or 2", v)
		}
	}
	if zeros < 400 || zeros > 600 {
		t.Errorf("Dropout(p=0.5) zeroed %d of 1000", zeros)
	}
}

func TestAutocastMatMul(t *testing.T) {
	a := dl.Randn(4, 8).SetRequiresGrad(true)
	b := dl.Randn(8, 3)
	var y *dl.Tensor
	amp.Autocast(dl.BFloat16, func() { y = a.MatMul(b) })
	if y.DType() != dl.BFloat16 {
		t.Fatalf("MatMul under autocast has dtype %v; want bfloat16", y.DType())
	}
	y.AsType(dl.Float32).Sum().Backward()
	if g := a.Grad(); g == nil || g.DType() != dl.Float32 {
		t.Fatalf("gradient of a float32 leaf through autocast: %v", g)
	}
}
