package nn

import (
	"slices"
	"testing"

	"github.com/dlbd/dlbd/dl"
	"github.com/dlbd/dlbd/dl/dltest"
)

// TestSequentialFusion checks that the fused Sequential computes the same
// outputs and gradients as the unfused one, bitwise, and keeps one
// activation buffer fewer per Linear+ReLU pair.
func TestSequentialFusion(t *testing.T) {
	dltest.HoldGC(t) // figures below are exact only without GC cleanups of other tests' tensors
	dev := dl.Sim(5)
	model := NewMLP([]int{8, 16, 16, 4}, MLPConfig{InitConfig: InitConfig{Device: dev, Generator: dl.NewGenerator(1)}})
	if got := len(Fuse(model.Modules)); got != 3 {
		t.Fatalf("Fuse(Linear, ReLU, Linear, ReLU, Linear) has %d modules; want 3", got)
	}
	x := dl.Options{Device: dev, Generator: dl.NewGenerator(2)}.Randn(32, 8)
	run := func() (out []float32, grads [][]float32, held int64) {
		ZeroGrad(model)
		before := dl.MemoryStats(dev).Allocated
		y := model.Forward(x)
		held = dl.MemoryStats(dev).Allocated - before
		out = y.Float32s()
		y.Sum().Backward()
		y.Release()
		for _, p := range Parameters(model) {
			grads = append(grads, p.Grad().Float32s())
		}
		return out, grads, held
	}
	fo, fg, fh := run()
	var uo []float32
	var ug [][]float32
	var uh int64
	dl.WithoutFusion(func() { uo, ug, uh = run() })
	if !slices.Equal(fo, uo) {
		t.Errorf("fused output %v; unfused %v", fo, uo)
	}
	for i := range fg {
		if !slices.Equal(fg[i], ug[i]) {
			t.Errorf("gradient %d: fused %v; unfused %v", i, fg[i], ug[i])
		}
	}
	if want := int64(2 * 32 * 16 * 4); uh-fh != want {
		t.Errorf("memory held after forward: fused %d, unfused %d bytes; want %d fewer (two ReLU outputs)", fh, uh, want)
	}
}
