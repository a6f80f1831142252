package dl_test

import (
	"testing"

	"github.com/dlbd/dlbd/dl"
	"github.com/dlbd/dlbd/dl/dltest"
)

func f64(dims ...int) *dl.Tensor {
	return dl.Options{DType: dl.Float64, Generator: dl.NewGenerator(uint64(len(dims)*31 + numelOf(dims)))}.Randn(dims...)
}

func numelOf(dims []int) int {
	n := 1
	for _, d := range dims {
		n *= d
	}
	return n
}

// positive returns values in [0.5, 1.5), for Log, Sqrt, Div and Pow.
func positive(dims ...int) *dl.Tensor {
	return dl.Options{DType: dl.Float64, Generator: dl.NewGenerator(3)}.Rand(dims...).AddScalar(0.5)
}

func TestGradElementwise(t *testing.T) {
	type fn = func(xs ...*dl.Tensor) *dl.Tensor
	cases := []struct {
		name   string
		f      fn
		inputs []*dl.Tensor
	}{
		{"Add", func(x ...*dl.Tensor) *dl.Tensor { return x[0].Add(x[1]) }, []*dl.Tensor{f64(2, 3), f64(2, 3)}},
		{"Add/broadcast-row", func(x ...*dl.Tensor) *dl.Tensor { return x[0].Add(x[1]) }, []*dl.Tensor{f64(4, 3), f64(3)}},
		{"Sub/broadcast-col", func(x ...*dl.Tensor) *dl.Tensor { return x[0].Sub(x[1]) }, []*dl.Tensor{f64(4, 3), f64(4, 1)}},
		{"Mul/broadcast-both", func(x ...*dl.Tensor) *dl.Tensor { return x[0].Mul(x[1]) }, []*dl.Tensor{f64(4, 1, 3), f64(2, 1)}},
		{"Div", func(x ...*dl.Tensor) *dl.Tensor { return x[0].Div(x[1]) }, []*dl.Tensor{f64(2, 3), positive(3)}},
		{"Scalars", func(x ...*dl.Tensor) *dl.Tensor {
			return x[0].AddScalar(2).MulScalar(-3).DivScalar(4).SubScalar(1).Neg()
		}, []*dl.Tensor{f64(5)}},
		{"ReLU", func(x ...*dl.Tensor) *dl.Tensor { return x[0].ReLU() }, []*dl.Tensor{f64(3, 4)}},
		{"Sigmoid", func(x ...*dl.Tensor) *dl.Tensor { return x[0].Sigmoid() }, []*dl.Tensor{f64(3, 4)}},
		{"Tanh", func(x ...*dl.Tensor) *dl.Tensor { return x[0].Tanh() }, []*dl.Tensor{f64(3, 4)}},
		{"GELU", func(x ...*dl.Tensor) *dl.Tensor { return x[0].GELU() }, []*dl.Tensor{f64(3, 4)}},
		{"GELUTanh", func(x ...*dl.Tensor) *dl.Tensor { return x[0].GELUTanh() }, []*dl.Tensor{f64(3, 4)}},
		{"Exp", func(x ...*dl.Tensor) *dl.Tensor { return x[0].Exp() }, []*dl.Tensor{f64(3, 4)}},
		{"Log", func(x ...*dl.Tensor) *dl.Tensor { return x[0].Log() }, []*dl.Tensor{positive(3, 4)}},
		{"Sqrt", func(x ...*dl.Tensor) *dl.Tensor { return x[0].Sqrt() }, []*dl.Tensor{positive(3, 4)}},
		{"Pow", func(x ...*dl.Tensor) *dl.Tensor { return x[0].Pow(2.5) }, []*dl.Tensor{positive(3, 4)}},
		{"Reuse", func(x ...*dl.Tensor) *dl.Tensor { return x[0].Mul(x[0]).Add(x[0]) }, []*dl.Tensor{f64(3)}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { dltest.GradCheck(t, c.f, c.inputs...) })
	}
}

func TestGradReduceAndShape(t *testing.T) {
	type fn = func(xs ...*dl.Tensor) *dl.Tensor
	cases := []struct {
		name  string
		f     fn
		input *dl.Tensor
	}{
		{"Sum/all", func(x ...*dl.Tensor) *dl.Tensor { return x[0].Sum() }, f64(2, 3, 4)},
		{"Sum/axes=0,2", func(x ...*dl.Tensor) *dl.Tensor { return x[0].Sum(0, 2) }, f64(2, 3, 4)},
		{"SumKeepDim/axis=-1", func(x ...*dl.Tensor) *dl.Tensor { return x[0].SumKeepDim(-1) }, f64(2, 3, 4)},
		{"Mean/axis=1", func(x ...*dl.Tensor) *dl.Tensor { return x[0].Mean(1) }, f64(2, 3, 4)},
		{"MeanKeepDim/all", func(x ...*dl.Tensor) *dl.Tensor { return x[0].MeanKeepDim() }, f64(2, 3)},
		{"Reshape", func(x ...*dl.Tensor) *dl.Tensor { return x[0].Reshape(4, -1).MulScalar(2) }, f64(2, 3, 2)},
		{"Transpose", func(x ...*dl.Tensor) *dl.Tensor { return x[0].Transpose(0, 2) }, f64(2, 3, 4)},
		{"Permute", func(x ...*dl.Tensor) *dl.Tensor { return x[0].Permute(1, 2, 0) }, f64(2, 3, 4)},
		{"Unsqueeze/Squeeze", func(x ...*dl.Tensor) *dl.Tensor { return x[0].Unsqueeze(1).Squeeze().Unsqueeze(-1) }, f64(2, 3)},
		{"Clone", func(x ...*dl.Tensor) *dl.Tensor { return x[0].Clone() }, f64(2, 3)},
		{"To/Sim", func(x ...*dl.Tensor) *dl.Tensor { return x[0].To(dl.Sim(1)).MulScalar(3).To(dl.CPU) }, f64(2, 3)},
		{"AsType", func(x ...*dl.Tensor) *dl.Tensor { return x[0].AsType(dl.Float32).AsType(dl.Float64) }, f64(4)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg := dltest.GradCheckConfig{}
			if c.name == "AsType" {
				cfg.Step, cfg.ATol, cfg.RTol = 1e-2, 1e-4, 1e-4 // a float32 round trip: a large step beats rounding noise
			}
			dltest.GradCheckWith(t, cfg, c.f, c.input)
		})
	}
}

func TestGradMatMul(t *testing.T) {
	mm := func(x ...*dl.Tensor) *dl.Tensor { return x[0].MatMul(x[1]) }
	cases := []struct {
		name string
		a, b *dl.Tensor
	}{
		{"2d", f64(3, 4), f64(4, 5)},
		{"batched", f64(2, 3, 4), f64(2, 4, 5)},
		{"3d-by-2d", f64(2, 3, 4), f64(4, 5)},
		{"2d-by-3d", f64(3, 4), f64(2, 4, 5)},
		{"broadcast-batch", f64(2, 1, 3, 4), f64(3, 4, 2)},
		{"vector-matrix", f64(4), f64(4, 5)},
		{"matrix-vector", f64(3, 4), f64(4)},
		{"dot", f64(4), f64(4)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { dltest.GradCheck(t, mm, c.a, c.b) })
	}
}
