package nn

import (
	"bytes"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/dlbd/dlbd/dl"
	"github.com/dlbd/dlbd/dl/dltest"
	"github.com/dlbd/dlbd/dl/safetensors"
)

func TestLinearForward(t *testing.T) {
	l := NewLinear(2, 3, LinearConfig{})
	dl.NoGrad(func() {
		l.Weight.CopyInPlace(dl.FromSlice([]float32{1, 2, 3, 4, 5, 6}, 3, 2))
		l.Bias.CopyInPlace(dl.FromSlice([]float32{0.5, -1, 0}, 3))
	})
	y := l.Forward(dl.FromSlice([]float32{1, -1, 2, 0.5}, 2, 2))
	// Row (1, −1): W·x = (1−2, 3−4, 5−6) + b; row (2, 0.5): (3, 8, 13) + b.
	want := []float32{-0.5, -2, -1, 3.5, 7, 13}
	if got := y.Float32s(); !slices.Equal(got, want) || !slices.Equal(y.Shape(), []int{2, 3}) {
		t.Errorf("Linear.Forward = %v %v; want %v [2 3]", got, y.Shape(), want)
	}
}

func TestLinearInit(t *testing.T) {
	a := NewLinear(784, 100, LinearConfig{InitConfig: InitConfig{Generator: dl.NewGenerator(1)}})
	b := NewLinear(784, 100, LinearConfig{InitConfig: InitConfig{Generator: dl.NewGenerator(1)}})
	if !slices.Equal(a.Weight.Float32s(), b.Weight.Float32s()) || !slices.Equal(a.Bias.Float32s(), b.Bias.Float32s()) {
		t.Error("same generator seed gave different initialisations")
	}
	bound := 1 / math.Sqrt(784)
	w := a.Weight.Float32s()
	var maxAbs, sumSq float64
	for _, v := range w {
		maxAbs = math.Max(maxAbs, math.Abs(float64(v)))
		sumSq += float64(v) * float64(v)
	}
	// U(−b, b) has variance b²/3.
	if maxAbs > bound || maxAbs < 0.99*bound || math.Abs(sumSq/float64(len(w))-bound*bound/3) > 0.03*bound*bound/3 {
		t.Errorf("weights: max |w| = %v, var = %v; want ≤ %v and about %v", maxAbs, sumSq/float64(len(w)), bound, bound*bound/3)
	}
	if !a.Weight.RequiresGrad() || !a.Weight.IsLeaf() || !a.Bias.RequiresGrad() {
		t.Error("parameters must be leaves that require grad")
	}
	if nb := NewLinear(3, 2, LinearConfig{NoBias: true}); nb.Bias != nil || len(nb.NamedParameters()) != 1 {
		t.Error("NoBias layer has a bias")
	}
	d := NewLinear(3, 2, LinearConfig{InitConfig: InitConfig{DType: dl.Float64}})
	if d.Weight.DType() != dl.Float64 {
		t.Errorf("DType Float64 gave %v", d.Weight.DType())
	}
}

func TestLinearGrad(t *testing.T) {
	dltest.GradCheck(t, func(xs ...*dl.Tensor) *dl.Tensor {
		l := &Linear{Weight: xs[1], Bias: xs[2], In: 3, Out: 2}
		return l.Forward(xs[0]).Tanh()
	}, dl.Options{DType: dl.Float64}.Randn(4, 3), dl.Options{DType: dl.Float64}.Randn(2, 3), dl.Options{DType: dl.Float64}.Randn(2))
}

func TestNamedParameters(t *testing.T) {
	m := NewMLP([]int{4, 8, 8, 2}, MLPConfig{})
	var got []string
	for _, np := range m.NamedParameters() {
		got = append(got, np.Name)
	}
	want := []string{"0.weight", "0.bias", "2.weight", "2.bias", "4.weight", "4.bias"}
	if !slices.Equal(got, want) {
		t.Errorf("MLP names = %v; want %v (torch's nn.Sequential(Linear, ReLU, ...))", got, want)
	}
	if n := NumParams(m); n != 4*8+8+8*8+8+8*2+2 {
		t.Errorf("NumParams = %d", n)
	}
	if y := m.Forward(dl.Randn(5, 4)); !slices.Equal(y.Shape(), []int{5, 2}) {
		t.Errorf("MLP output shape %v; want [5 2]", y.Shape())
	}
}

func TestSaveLoadRoundTrip(t *testing.T) {
	for _, dt := range []dl.DType{dl.Float32, dl.Float64, dl.Float16, dl.BFloat16} {
		t.Run("dtype="+dt.String(), func(t *testing.T) {
			cfg := MLPConfig{InitConfig: InitConfig{DType: dt, Generator: dl.NewGenerator(3)}}
			src := NewMLP([]int{5, 7, 3}, cfg)
			path := filepath.Join(t.TempDir(), "m.safetensors")
			if err := Save(path, src); err != nil {
				t.Fatal(err)
			}
			dst := NewMLP([]int{5, 7, 3}, MLPConfig{InitConfig: InitConfig{DType: dt, Generator: dl.NewGenerator(4)}})
			if err := Load(path, dst); err != nil {
				t.Fatal(err)
			}
			for i, np := range src.NamedParameters() {
				a, b := StateDict(src)[np.Name].Data, toStored(dst.NamedParameters()[i].Tensor).Data
				if !bytes.Equal(a, b) {
					t.Errorf("%s differs after Save/Load", np.Name)
				}
			}
		})
	}
}

func TestLoadRejectsMismatchWithoutChanges(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "m.safetensors")
	if err := Save(path, NewMLP([]int{5, 7, 3}, MLPConfig{})); err != nil {
		t.Fatal(err)
	}
	dst := NewMLP([]int{5, 6, 3}, MLPConfig{})
	before := StateDict(dst)
	err := Load(path, dst)
	var sde *StateDictError
	if !errors.As(err, &sde) || len(sde.Mismatched) != 3 || !strings.Contains(err.Error(), `size mismatch for "0.weight": the checkpoint has shape [7 5], the module [6 5]`) {
		t.Errorf("Load into a different MLP: %v; want a StateDictError with 3 size mismatches", err)
	}
	for name, st := range StateDict(dst) {
		if !bytes.Equal(st.Data, before[name].Data) {
			t.Errorf("a rejected Load changed %s", name)
		}
	}
	// A truncated file: a safetensors format error, and no change either.
	b, _ := os.ReadFile(path)
	os.WriteFile(path, b[:len(b)-3], 0o644)
	same := NewMLP([]int{5, 7, 3}, MLPConfig{})
	keep := StateDict(same)
	if err := Load(path, same); !errors.Is(err, safetensors.ErrFormat) {
		t.Errorf("Load(truncated) = %v; want safetensors.ErrFormat", err)
	}
	for name, st := range StateDict(same) {
		if !bytes.Equal(st.Data, keep[name].Data) {
			t.Errorf("a failed Load changed %s", name)
		}
	}
}
