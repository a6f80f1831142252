package dl_test

import (
	"fmt"

	"github.com/dlbd/dlbd/dl"
)

// ExampleFusedLinear compares the fused layer with Linear followed by
// ReLU: the same values, one buffer instead of two.
func ExampleFusedLinear() {
	dev := dl.Sim(2)
	o := dl.Options{Device: dev, Generator: dl.NewGenerator(0)}
	x, w := o.Randn(1000, 64), o.Randn(256, 64).SetRequiresGrad(true)
	held := func(f func() *dl.Tensor) (*dl.Tensor, int64) {
		before := dl.MemoryStats(dev).Allocated
		y := f()
		return y, dl.MemoryStats(dev).Allocated - before
	}
	fused, nf := held(func() *dl.Tensor { return dl.FusedLinear(x, w, nil, dl.FuseReLU) })
	plain, np := held(func() *dl.Tensor { return dl.Linear(x, w, nil).ReLU() })
	fmt.Println("equal:", dl.AllClose(fused, plain, 0, 0))
	fmt.Println("kept until backward:", dl.FormatBytes(nf), "fused,", dl.FormatBytes(np), "unfused")
	// Output:
	// equal: true
	// kept until backward: 1000.00 KiB fused, 1.95 MiB unfused
}

// ExampleWithoutFusion runs CrossEntropy's unfused reference path.
func ExampleWithoutFusion() {
	logits := dl.FromSlice([]float64{2, 1, 0, 0, 3, 1}, 2, 3)
	targets := dl.FromSlice([]float64{0, 1})
	fused := dl.CrossEntropy(logits, targets).Item()
	var unfused float64
	dl.WithoutFusion(func() { unfused = dl.CrossEntropy(logits, targets).Item() })
	fmt.Printf("fused %.12f, unfused %.12f, fusion on: %v\n", fused, unfused, dl.FusionEnabled())
	// Output: fused 0.288725992000, unfused 0.288725992000, fusion on: true
}
