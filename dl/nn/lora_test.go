package nn

import (
	"errors"
	"strings"
	"testing"

	"github.com/dlbd/dlbd/dl"
	"github.com/dlbd/dlbd/dl/dltest"
	"github.com/dlbd/dlbd/dl/optim"
)

// TestLoRAStartsAsBase checks that a fresh adapter (B = 0) leaves the
// layer's output unchanged, in training and without grad, and that the
// base is frozen.
func TestLoRAStartsAsBase(t *testing.T) {
	g := dl.NewGenerator(1)
	base := NewLinear(12, 7, LinearConfig{InitConfig: InitConfig{DType: dl.Float64, Generator: g}})
	x := dl.Options{DType: dl.Float64, Generator: g}.Randn(5, 12)
	want := base.Forward(x).Float64s()
	l := NewLoRA(base, LoRAConfig{Rank: 3, Alpha: 6, Generator: g})
	if base.Weight.RequiresGrad() || base.Bias.RequiresGrad() {
		t.Fatal("NewLoRA left the base weight or bias requiring grad")
	}
	if got := l.Forward(x).Float64s(); dltest.MaxAbsDiff(got, want) != 0 {
		t.Errorf("fresh LoRA output differs from the base by %g", dltest.MaxAbsDiff(got, want))
	}
	dl.NoGrad(func() {
		if got := l.Forward(x).Float64s(); dltest.MaxAbsDiff(got, want) != 0 {
			t.Errorf("fresh LoRA output without grad differs from the base by %g", dltest.MaxAbsDiff(got, want))
		}
	})
	if l.Scale != 2 || l.A.Shape()[0] != 3 || l.A.Shape()[1] != 12 || l.B.Shape()[0] != 7 || l.B.Shape()[1] != 3 {
		t.Errorf("scale %v, A %v, B %v; want 2, [3 12], [7 3]", l.Scale, l.A.Shape(), l.B.Shape())
	}
	names := []string{}
	for _, p := range l.NamedParameters() {
		names = append(names, p.Name)
	}
	if strings.Join(names, ",") != "lora_A.weight,lora_B.weight" {
		t.Errorf("NamedParameters = %v; want PEFT's lora_A.weight, lora_B.weight", names)
	}
	if f, want := l.TrainableFraction(), float64(3*(12+7))/float64(12*7+7); f != want {
		t.Errorf("TrainableFraction = %v; want %v", f, want)
	}
}

// TestLoRAGradients compares the adapter with the layer written out,
// x·(W + (α/r)·B·A)ᵀ + b: the same output, the same gradients of A and B,
// no gradient for the frozen weight; and Merged gives that layer.
func TestLoRAGradients(t *testing.T) {
	g := dl.NewGenerator(2)
	o := dl.Options{DType: dl.Float64, Generator: g}
	base := NewLinear(9, 6, LinearConfig{InitConfig: InitConfig{DType: dl.Float64, Generator: g}})
	l := NewLoRA(base, LoRAConfig{Rank: 2, Alpha: 8, Generator: g})
	dl.NoGrad(func() { l.B.CopyInPlace(o.Randn(6, 2)) }) // a trained-looking B
	x, gy := o.Randn(4, 9), o.Randn(4, 6)

	y := l.Forward(x)
	y.BackwardWith(dl.BackwardOptions{Grad: gy})
	gotA, gotB := l.A.Grad().Float64s(), l.B.Grad().Float64s()
	if base.Weight.Grad() != nil {
		t.Error("the frozen base weight got a gradient")
	}

	a, b := l.A.Detach().Clone().SetRequiresGrad(true), l.B.Detach().Clone().SetRequiresGrad(true)
	w := base.Weight.Add(b.MatMul(a).MulScalar(4))
	ref := dl.Linear(x, w, base.Bias)
	ref.BackwardWith(dl.BackwardOptions{Grad: gy})
	if d := dltest.MaxAbsDiff(y.Float64s(), ref.Float64s()); d > 1e-13 {
		t.Errorf("LoRA output differs from x·(W + 4·B·A)ᵀ + b by %g", d)
	}
	if d := dltest.MaxAbsDiff(gotA, a.Grad().Float64s()); d > 1e-13 {
		t.Errorf("grad of A differs by %g", d)
	}
	if d := dltest.MaxAbsDiff(gotB, b.Grad().Float64s()); d > 1e-13 {
		t.Errorf("grad of B differs by %g", d)
	}
	m := l.Merged()
	if m.Weight.RequiresGrad() {
		t.Error("Merged weight requires grad")
	}
	if d := dltest.MaxAbsDiff(m.Forward(x).Float64s(), ref.Float64s()); d > 1e-13 {
		t.Errorf("Merged layer differs from the adapter by %g", d)
	}
}

// TestLoRATrainingMemory trains a 1024→1024 layer with Adam on a Sim
// device, adapted (rank 8) and fully, and checks dl's accounting: the
// adapter's gradients and Adam moments are 3·r·(in+out) floats, full
// fine-tuning's 3·(in·out + out), and the frozen weight does not change.
func TestLoRATrainingMemory(t *testing.T) {
	const in, out, r = 1024, 1024, 8
	dev := dl.Sim(7)
	ic := InitConfig{Device: dev, Generator: dl.NewGenerator(3)}
	x := dl.Options{Device: dev, Generator: dl.NewGenerator(4)}.Randn(16, in)
	step := func(m Module, opt *optim.Adam) {
		y := m.Forward(x)
		loss := y.Mul(y).Mean()
		loss.Backward()
		opt.Step()
		loss.Release()
		y.Release()
	}
	growth := func(m Module) int64 {
		opt := optim.NewAdam(Parameters(m), optim.AdamConfig{})
		step(m, opt) // grads and moments allocated
		before := dl.MemoryStats(dev).Allocated
		step(m, opt)
		if after := dl.MemoryStats(dev).Allocated; after != before {
			t.Fatalf("a second step changed the allocation by %d bytes", after-before)
		}
		var state int64
		for _, p := range Parameters(m) {
			state += 3 * 4 * int64(p.Numel()) // gradient, exp_avg, exp_avg_sq
		}
		return state
	}
	full := NewLinear(in, out, LinearConfig{InitConfig: ic})
	base := NewLinear(in, out, LinearConfig{InitConfig: ic})
	w0 := base.Weight.Float64s()
	lora := NewLoRA(base, LoRAConfig{Rank: r, Generator: dl.NewGenerator(5)})

	startFull := dl.MemoryStats(dev).Allocated
	fullState := growth(full)
	if got := dl.MemoryStats(dev).Allocated - startFull; got != fullState {
		t.Errorf("full fine-tuning keeps %d bytes of training state; want %d (3 × 4 bytes × %d parameters)", got, fullState, in*out+out)
	}
	startLoRA := dl.MemoryStats(dev).Allocated
	loraState := growth(lora)
	if got := dl.MemoryStats(dev).Allocated - startLoRA; got != loraState || loraState != 3*4*r*(in+out) {
		t.Errorf("LoRA keeps %d bytes of training state; want %d (3 × 4 bytes × r·(in+out))", got, 3*4*r*(in+out))
	}
	if dltest.MaxAbsDiff(base.Weight.Float64s(), w0) != 0 {
		t.Error("training the adapter changed the frozen weight")
	}
	if lora.B.Float64s()[0] == 0 && dltest.MaxAbsDiff(lora.B.Float64s(), make([]float64, out*r)) == 0 {
		t.Error("B did not train")
	}
}

func TestLoRAErrors(t *testing.T) {
	base := NewLinear(4, 3, LinearConfig{})
	for _, r := range []int{0, 4} {
		err := dl.Catch(func() { NewLoRA(base, LoRAConfig{Rank: r}) })
		var ve *dl.ValueError
		if !errors.As(err, &ve) || !strings.Contains(err.Error(), "nn.NewLoRA") || !strings.Contains(err.Error(), "from 1 to 3") {
			t.Errorf("rank %d: error %v; want a *dl.ValueError naming nn.NewLoRA and the ranks 1 to 3", r, err)
		}
	}
}
