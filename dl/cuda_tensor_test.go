package dl

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestCUDATensorMatchesCPU runs a small MLP step (MatMul, broadcast bias,
// ReLU, Exp, Sum, Mean, Backward) on the CPU and on the GPU from the same
// fresh random inputs, and compares the loss, the output and the weight
// gradient (float32: relative error 1e-5), and checks that the GPU's
// memory accounting saw real allocations.
func TestCUDATensorMatchesCPU(t *testing.T) {
	dev := needCUDA(t)
	seed := rand.Uint64()
	run := func(d Device) (loss float64, out, gw []float32) {
		o := Options{Generator: NewGenerator(seed)} // same numbers for both devices
		x := o.Randn(64, 33).To(d)
		w := o.Randn(33, 17).MulScalar(0.1).To(d).SetRequiresGrad(true) // small: Exp magnifies differences
		b := o.Randn(17).To(d)
		y := x.MatMul(w).Add(b).ReLU().Exp().Sum(1)
		l := y.Mean()
		l.Backward()
		return l.Item(), y.To(CPU).Float32s(), w.Grad().To(CPU).Float32s()
	}
	before := MemoryStats(dev)
	lc, oc, gc := run(CPU)
	lg, og, gg := run(dev)
	if e := relErr(lg, lc); !(e < 1e-5) {
		t.Errorf("loss on %v = %v; CPU %v", dev, lg, lc)
	}
	for _, cmp := range []struct {
		what      string
		gpu, host []float32
	}{{"output", og, oc}, {"weight gradient", gg, gc}} {
		if len(cmp.gpu) != len(cmp.host) {
			t.Fatalf("%s: %d elements on the GPU, %d on the CPU", cmp.what, len(cmp.gpu), len(cmp.host))
		}
		for i := range cmp.host {
			if e := relErr(float64(cmp.gpu[i]), float64(cmp.host[i])); !(e < 1e-5) || math.IsNaN(float64(cmp.gpu[i])) {
				t.Fatalf("%s[%d] = %v on %v; CPU %v", cmp.what, i, cmp.gpu[i], dev, cmp.host[i])
			}
		}
	}
	after := MemoryStats(dev)
	t.Logf("%v memory: before %+v, after %+v", dev, before, after)
	if after.Peak <= before.Allocated {
		t.Error("the GPU step shows no allocation in MemoryStats")
	}
}
