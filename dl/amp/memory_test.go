package amp_test

import (
	"testing"

	"github.com/dlbd/dlbd/dl"
	"github.com/dlbd/dlbd/dl/amp"
	"github.com/dlbd/dlbd/dl/dltest"
	"github.com/dlbd/dlbd/dl/nn"
)

// TestAutocastHalvesActivations measures, with the device accounting, the
// memory a forward pass keeps for backward: under autocast every layer's
// output is 2 bytes per element instead of 4, so the activations take
// exactly half; autocast adds 2-byte copies of the biases and of the
// input (the casts the graph keeps).  The weights' casts are made again in
// backward (dl's autocast Linear), where torch's autocast keeps them.
func TestAutocastHalvesActivations(t *testing.T) {
	dltest.HoldGC(t) // figures below are exact only without GC cleanups of other tests' tensors
	const batch, in = 512, 64
	dev := dl.Sim(7)
	model := nn.NewMLP([]int{in, 256, 256, 256, 256}, nn.MLPConfig{InitConfig: nn.InitConfig{Device: dev, Generator: dl.NewGenerator(1)}})
	x := dl.Options{Device: dev, Generator: dl.NewGenerator(2)}.Randn(batch, in)
	held := func(dt dl.DType) int64 {
		before := dl.MemoryStats(dev).Allocated
		var y *dl.Tensor
		if dt == dl.Float32 {
			y = model.Forward(x)
		} else {
			amp.Autocast(dt, func() { y = model.Forward(x) })
		}
		n := dl.MemoryStats(dev).Allocated - before
		loss := y.AsType(dl.Float32).Sum()
		loss.Backward()
		loss.Release()
		y.Release()
		nn.ZeroGrad(model)
		if after := dl.MemoryStats(dev).Allocated; after != before { // the casts are released with the graph, not by the GC
			t.Errorf("%v: %d bytes still allocated after the step", dt, after-before)
		}
		return n
	}
	fp32 := held(dl.Float32)
	if want := int64(4 * batch * 256 * 4); fp32 != want {
		t.Fatalf("float32 forward keeps %d bytes; want %d (four [%d, 256] outputs)", fp32, want, batch)
	}
	biases := 0
	for _, p := range nn.Parameters(model) {
		if len(p.Shape()) == 1 {
			biases += p.Numel()
		}
	}
	casts := int64(2 * (biases + batch*in))
	for _, dt := range []dl.DType{dl.BFloat16, dl.Float16} {
		got := held(dt)
		t.Logf("%v: forward keeps %d bytes = %.3f × float32 (activations %d = 0.5 ×, casts %d)", dt, got, float64(got)/float64(fp32), got-casts, casts)
		if got-casts != fp32/2 {
			t.Errorf("%v: activations take %d bytes; want %d (half of float32)", dt, got-casts, fp32/2)
		}
	}
}
