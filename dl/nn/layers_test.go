package nn

import (
	"math"
	"slices"
	"testing"

	"github.com/dlbd/dlbd/dl"
	"github.com/dlbd/dlbd/dl/dltest"
)

func TestEmbedding(t *testing.T) {
	e := NewEmbedding(4, 2, InitConfig{})
	dl.NoGrad(func() { e.Weight.CopyInPlace(dl.FromSlice([]float32{0, 1, 10, 11, 20, 21, 30, 31}, 4, 2)) })
	y := e.Forward(dl.FromSlice([]float32{3, 0, 3, 1, 2, 2}, 2, 3))
	if !slices.Equal(y.Shape(), []int{2, 3, 2}) || !slices.Equal(y.Float32s(), []float32{30, 31, 0, 1, 30, 31, 10, 11, 20, 21, 20, 21}) {
		t.Errorf("Embedding lookup = %v %v", y.Shape(), y.Float32s())
	}
	big := NewEmbedding(1000, 100, InitConfig{Generator: dl.NewGenerator(2)}).Weight.Float32s()
	var m, v float64
	for _, x := range big {
		m += float64(x) / 1e5
	}
	for _, x := range big {
		v += (float64(x) - m) * (float64(x) - m) / 1e5
	}
	if math.Abs(m) > 0.02 || math.Abs(v-1) > 0.02 {
		t.Errorf("Embedding init mean %v var %v; want N(0, 1)", m, v)
	}
}

func TestLayerNormModule(t *testing.T) {
	l := NewLayerNorm(3, InitConfig{})
	if !slices.Equal(l.Weight.Float32s(), []float32{1, 1, 1}) || !slices.Equal(l.Bias.Float32s(), []float32{0, 0, 0}) {
		t.Error("LayerNorm init is not ones/zeros")
	}
	y := l.Forward(dl.FromSlice([]float32{1, 2, 3}, 1, 3)).Float32s()
	s := float32(math.Sqrt(2.0/3 + 1e-5)) // population variance of (1, 2, 3) is 2/3
	for i, want := range []float32{-1 / s, 0, 1 / s} {
		if math.Abs(float64(y[i]-want)) > 1e-5 {
			t.Errorf("LayerNorm(1, 2, 3)[%d] = %v; want %v", i, y[i], want)
		}
	}
}

func TestDropoutModes(t *testing.T) {
	d := NewDropout(0.5, dl.NewGenerator(1))
	x := dl.Ones(10000)
	y := d.Forward(x).Float32s()
	zeros := 0
	for _, v := range y {
		if v == 0 {
			zeros++
		} else if v != 2 {
			t.Fatalf("kept value %v; want 1/(1−p) = 2", v)
		}
	}
	if zeros < 4800 || zeros > 5200 {
		t.Errorf("dropped %d of 10000; want about 5000", zeros)
	}
	seq := NewSequential(NewLinear(2, 2, LinearConfig{}), d)
	Eval(seq)
	if d.Forward(x) != x {
		t.Error("Dropout in eval mode is not the identity")
	}
	Train(seq)
	if d.Forward(x) == x {
		t.Error("Train did not switch Dropout back on")
	}
}

func TestBlock(t *testing.T) {
	f64 := InitConfig{DType: dl.Float64, Generator: dl.NewGenerator(5)}
	b := NewBlock(BlockConfig{InitConfig: f64, Dim: 4, Heads: 2})
	names := []string{}
	for _, np := range b.NamedParameters() {
		names = append(names, np.Name)
	}
	want := []string{"ln1.weight", "ln1.bias", "attn.qkv.weight", "attn.qkv.bias", "attn.proj.weight", "attn.proj.bias",
		"ln2.weight", "ln2.bias", "mlp.0.weight", "mlp.0.bias", "mlp.2.weight", "mlp.2.bias"}
	if !slices.Equal(names, want) {
		t.Errorf("Block names = %v; want %v", names, want)
	}
	x := dl.Options{DType: dl.Float64, Generator: dl.NewGenerator(6)}.Randn(2, 5, 4)
	y := b.Forward(x)
	if !slices.Equal(y.Shape(), []int{2, 5, 4}) {
		t.Fatalf("Block output shape %v; want [2 5 4]", y.Shape())
	}
	// Causality: changing the last position changes no earlier output.
	xs := x.Float64s()
	for i := 4 * 4; i < 5*4; i++ { // batch 0, position 4
		xs[i] += 1
	}
	y2 := b.Forward(dl.FromSlice(xs, 2, 5, 4)).Float64s()
	y1 := y.Float64s()
	for i := range 4 * 4 { // batch 0, positions 0..3
		if y1[i] != y2[i] {
			t.Fatalf("output %d changed when only a later position changed: not causal", i)
		}
	}
	if y1[4*4] == y2[4*4] {
		t.Error("the changed position's own output did not change")
	}
	// One position attends only to itself: attention = Proj(V).
	x1 := dl.Options{DType: dl.Float64}.Randn(1, 1, 4)
	h := b.LN1.Forward(x1)
	v := b.QKV.Forward(h).Narrow(2, 8, 4)
	a := x1.Add(b.Proj.Forward(v))
	manual := a.Add(b.MLP.Forward(b.LN2.Forward(a))).Float64s()
	for i, got := range b.Forward(x1).Float64s() {
		if math.Abs(got-manual[i]) > 1e-12 {
			t.Errorf("T=1 block output[%d] = %v; want %v", i, got, manual[i])
		}
	}
	dltest.GradCheck(t, func(xs ...*dl.Tensor) *dl.Tensor { return b.Forward(xs[0]) },
		dl.Options{DType: dl.Float64, Generator: dl.NewGenerator(7)}.Randn(1, 3, 4))
}

// TestBlockNoGradReleases checks the grad-free forward of a Block: the
// same output as with grad, bit for bit (fused and unfused), the input
// left alive, and every intermediate released, so that the memory
// allocated after releasing the output is what it was before.
func TestBlockNoGradReleases(t *testing.T) {
	b := NewBlock(BlockConfig{InitConfig: InitConfig{Generator: dl.NewGenerator(7)}, Dim: 8, Heads: 2})
	x := dl.Options{Generator: dl.NewGenerator(8)}.Randn(2, 5, 8)
	for _, fused := range []bool{true, false} {
		run := func(f func()) {
			if fused {
				f()
				return
			}
			dl.WithoutFusion(f)
		}
		var want []float32
		run(func() { want = b.Forward(x).Float32s() })
		before := dl.MemoryStats(dl.CPU).Allocated
		var got []float32
		run(func() {
			dl.NoGrad(func() {
				y := b.Forward(x)
				got = y.Float32s()
				y.Release()
			})
		})
		if after := dl.MemoryStats(dl.CPU).Allocated; after != before {
			t.Errorf("fused=%v: %d bytes allocated after a grad-free forward and releasing its output, %d before: intermediates were left to the garbage collector", fused, after, before)
		}
		if x.Released() {
			t.Fatalf("fused=%v: the grad-free forward released its input", fused)
		}
		if !slices.Equal(got, want) {
			t.Errorf("fused=%v: grad-free forward = %v; with grad %v", fused, got, want)
		}
	}
}
