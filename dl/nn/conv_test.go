package nn

import (
	"errors"
	"math"
	"path/filepath"
	"slices"
	"testing"

	"github.com/dlbd/dlbd/dl"
)

// TestConv2dInit checks NewConv2d's PyTorch initialisation: weight and
// bias from U(−1/√fan_in, 1/√fan_in), fan_in = in/groups·kH·kW, the
// shapes, reproducibility from the generator, NoBias and the dtype.
func TestConv2dInit(t *testing.T) {
	cfg := Conv2dConfig{InitConfig: InitConfig{Generator: dl.NewGenerator(1)}, Groups: 2}
	a := NewConv2d(32, 64, [2]int{5, 3}, cfg)
	cfg.Generator = dl.NewGenerator(1)
	b := NewConv2d(32, 64, [2]int{5, 3}, cfg)
	if !slices.Equal(a.Weight.Float32s(), b.Weight.Float32s()) || !slices.Equal(a.Bias.Float32s(), b.Bias.Float32s()) {
		t.Error("same generator seed gave different initialisations")
	}
	if !slices.Equal(a.Weight.Shape(), []int{64, 16, 5, 3}) || !slices.Equal(a.Bias.Shape(), []int{64}) {
		t.Fatalf("shapes %v %v; want [64 16 5 3] [64]", a.Weight.Shape(), a.Bias.Shape())
	}
	bound := 1 / math.Sqrt(16*5*3)
	for name, p := range map[string]*dl.Tensor{"weight": a.Weight, "bias": a.Bias} {
		var maxAbs, sumSq float64
		vals := p.Float32s()
		for _, v := range vals {
			maxAbs = math.Max(maxAbs, math.Abs(float64(v)))
			sumSq += float64(v) * float64(v)
		}
		tol := 0.05
		if name == "bias" {
			tol = 0.5 // 64 values
		}
		if maxAbs > bound || maxAbs < 0.9*bound || math.Abs(sumSq/float64(len(vals))-bound*bound/3) > tol*bound*bound/3 {
			t.Errorf("%s: max |v| = %v, var = %v; want ≤ %v and about %v", name, maxAbs, sumSq/float64(len(vals)), bound, bound*bound/3)
		}
		if !p.RequiresGrad() || !p.IsLeaf() {
			t.Errorf("%s must be a leaf that requires grad", name)
		}
	}
	if nb := NewConv2d(3, 2, [2]int{3, 3}, Conv2dConfig{NoBias: true}); nb.Bias != nil || len(nb.NamedParameters()) != 1 {
		t.Error("NoBias layer has a bias")
	}
	if d := NewConv2d(3, 2, [2]int{1, 1}, Conv2dConfig{InitConfig: InitConfig{DType: dl.Float64}}); d.Weight.DType() != dl.Float64 {
		t.Errorf("DType Float64 gave %v", d.Weight.DType())
	}
	for _, f := range []func(){
		func() { NewConv2d(0, 2, [2]int{3, 3}, Conv2dConfig{}) },
		func() { NewConv2d(3, 2, [2]int{0, 3}, Conv2dConfig{}) },
		func() { NewConv2d(3, 4, [2]int{3, 3}, Conv2dConfig{Groups: 2}) },
	} {
		if err := dl.Catch(f); !errors.Is(err, dl.ErrValue) {
			t.Errorf("bad NewConv2d arguments gave %v; want a *dl.ValueError", err)
		}
	}
}

// TestConv2dModule checks that the module computes dl.Conv2d with its
// options and that a depthwise layer has one input channel per filter.
func TestConv2dModule(t *testing.T) {
	c := NewConv2d(4, 8, [2]int{3, 3}, Conv2dConfig{Stride: [2]int{2, 2}, Padding: [2]int{1, 1}, Groups: 4})
	x := dl.Options{Generator: dl.NewGenerator(2)}.Randn(2, 4, 9, 9)
	y := c.Forward(x)
	if !slices.Equal(y.Shape(), []int{2, 8, 5, 5}) || !slices.Equal(c.Weight.Shape(), []int{8, 1, 3, 3}) {
		t.Fatalf("output %v, weight %v; want [2 8 5 5], [8 1 3 3]", y.Shape(), c.Weight.Shape())
	}
	want := dl.Conv2dNaive(x, c.Weight, c.Bias, c.Options).Float64s()
	for i, v := range y.Float64s() {
		if math.Abs(v-want[i]) > 1e-5 {
			t.Fatalf("Conv2d module [%d] = %v; reference %v", i, v, want[i])
		}
	}
}

// TestBatchNorm2dModule checks modes, buffers and parameters of the
// BatchNorm2d module.
func TestBatchNorm2dModule(t *testing.T) {
	bn := NewBatchNorm2d(3, BatchNormConfig{})
	if bn.Momentum != 0.1 || bn.Eps != 1e-5 {
		t.Errorf("defaults momentum %v eps %v; want 0.1, 1e-5", bn.Momentum, bn.Eps)
	}
	var names []string
	for _, p := range bn.NamedParameters() {
		names = append(names, p.Name)
	}
	for _, b := range NamedBuffers(bn) {
		names = append(names, b.Name)
		if b.Tensor.RequiresGrad() {
			t.Errorf("buffer %s requires grad", b.Name)
		}
	}
	if want := []string{"weight", "bias", "running_mean", "running_var", "num_batches_tracked"}; !slices.Equal(names, want) {
		t.Errorf("names %v; want %v", names, want)
	}
	if s := NewSequential(NewConv2d(1, 3, [2]int{1, 1}, Conv2dConfig{}), bn); len(NamedBuffers(s)) != 3 || NamedBuffers(s)[0].Name != "1.running_mean" {
		t.Errorf("Sequential buffers %v; want 1.running_mean first", NamedBuffers(s))
	}
	x := dl.Options{Generator: dl.NewGenerator(3)}.Randn(4, 3, 5, 5).MulScalar(2).AddScalar(1)
	y := bn.Forward(x) // training mode: normalised by the batch
	m := y.Mean(0, 2, 3).Float64s()
	for c, v := range m {
		if math.Abs(v) > 1e-5 {
			t.Errorf("training-mode output mean of channel %d = %v; want 0", c, v)
		}
	}
	bn.Forward(x)
	if n := bn.NumBatchesTracked.Int64s(); len(n) != 1 || n[0] != 2 || bn.NumBatchesTracked.Dims() != 0 {
		t.Errorf("num_batches_tracked = %v (shape %v); want the scalar 2", n, bn.NumBatchesTracked.Shape())
	}
	rm := bn.RunningMean.Float64s()
	Eval(bn)
	ye := bn.Forward(x)
	if slices.Equal(ye.Float64s(), y.Float64s()) {
		t.Error("eval mode gave the training-mode output")
	}
	if !slices.Equal(bn.RunningMean.Float64s(), rm) || bn.NumBatchesTracked.Int64s()[0] != 2 {
		t.Error("eval mode changed the running statistics")
	}
	if err := dl.Catch(func() { bn.Forward(dl.Zeros(4, 3)) }); !errors.Is(err, dl.ErrShape) {
		t.Errorf("BatchNorm2d of a 2-D input gave %v; want a *dl.ShapeError", err)
	}
}

// TestSaveLoadKeepsRunningStatistics: a checkpoint of a model with
// BatchNorm2d holds its running statistics (torch's state_dict keys), and a
// fresh model loaded from it gives the same eval-mode output.
func TestSaveLoadKeepsRunningStatistics(t *testing.T) {
	newModel := func() *Sequential {
		cfg := Conv2dConfig{}
		cfg.Generator = dl.NewGenerator(7)
		return NewSequential(NewConv2d(1, 3, [2]int{3, 3}, cfg), NewBatchNorm2d(3, BatchNormConfig{}))
	}
	m := newModel()
	x := dl.Options{Generator: dl.NewGenerator(5)}.Randn(4, 1, 6, 6).MulScalar(3).AddScalar(2)
	for range 3 {
		m.Forward(x) // training mode: updates the running statistics
	}
	sd := StateDict(m)
	for _, k := range []string{"0.weight", "0.bias", "1.weight", "1.bias", "1.running_mean", "1.running_var", "1.num_batches_tracked"} {
		if _, ok := sd[k]; !ok {
			t.Errorf("state dict lacks %q; has %d entries", k, len(sd))
		}
	}
	path := filepath.Join(t.TempDir(), "bn.safetensors")
	if err := Save(path, m); err != nil {
		t.Fatal(err)
	}
	fresh := newModel()
	if err := Load(path, fresh); err != nil {
		t.Fatal(err)
	}
	Eval(m)
	Eval(fresh)
	if !slices.Equal(fresh.Forward(x).Float64s(), m.Forward(x).Float64s()) {
		t.Error("eval-mode output of the loaded model differs: running statistics not restored")
	}
	if n := fresh.Modules[1].(*BatchNorm2d).NumBatchesTracked.Int64s()[0]; n != 3 {
		t.Errorf("loaded num_batches_tracked = %d; want 3", n)
	}
}

// TestFlattenAndPoolModules checks Flatten and the pooling modules.
func TestFlattenAndPoolModules(t *testing.T) {
	x := dl.Options{Generator: dl.NewGenerator(4)}.Randn(2, 3, 8, 6).SetRequiresGrad(true)
	for _, c := range []struct {
		m     Module
		shape []int
	}{
		{NewMaxPool2d([2]int{2, 2}, dl.Pool2dOptions{}), []int{2, 3, 4, 3}},
		{NewAvgPool2d([2]int{3, 3}, dl.Pool2dOptions{Stride: [2]int{1, 1}, Padding: [2]int{1, 1}}), []int{2, 3, 8, 6}},
		{NewAdaptiveAvgPool2d([2]int{1, 1}), []int{2, 3, 1, 1}},
		{Flatten{}, []int{2, 144}},
	} {
		y := c.m.Forward(x)
		if !slices.Equal(y.Shape(), c.shape) || c.m.NamedParameters() != nil {
			t.Errorf("%T gives shape %v; want %v, and no parameters", c.m, y.Shape(), c.shape)
		}
	}
	y := Flatten{}.Forward(x)
	y.Sum().Backward()
	if g := x.Grad(); g == nil || !slices.Equal(g.Shape(), x.Shape()) {
		t.Errorf("Flatten's gradient %v", g)
	}
	if got := (Flatten{}).Forward(dl.Zeros(5)).Shape(); !slices.Equal(got, []int{5}) {
		t.Errorf("Flatten of [5] = %v; want [5]", got)
	}
}
