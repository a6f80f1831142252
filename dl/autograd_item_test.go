package dl_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/dlbd/dlbd/dl"
)

// TestItemAfterBackward translates the course's mixed-precision loop: the
// loss is an intermediate of the scaled loss's graph, which Backward
// releases, yet loss.Item() after backward must work, as in PyTorch; the
// memory is still released (exact accounting), and any other use of the
// released loss says that Item still works.
func TestItemAfterBackward(t *testing.T) {
	dev := dl.Sim(3)
	o := dl.Options{Device: dev, DType: dl.Float16, Generator: dl.NewGenerator(2)}
	w := o.Randn(4, 3).SetRequiresGrad(true)
	x := o.Randn(8, 4)
	targets := dl.FromSlice([]int64{0, 1, 2, 0, 1, 2, 0, 1}).To(dev)
	before := dl.MemoryStats(dev).Allocated

	loss := dl.CrossEntropy(x.MatMul(w), targets)
	want := loss.Float64s()[0]
	scaled := loss.MulScalar(65536) // scaler.Scale(loss)
	scaled.Backward()
	if got := loss.Item(); got != want {
		t.Errorf("loss.Item() after scaled.Backward() = %v; want %v", got, want)
	}
	if !loss.Released() {
		t.Error("Backward kept the loss's memory; it must still release the graph's intermediates")
	}
	err := dl.Catch(func() { loss.Add(loss) })
	if !errors.Is(err, dl.ErrReleased) || !strings.Contains(err.Error(), "is still readable with Item()") {
		t.Errorf("loss.Add after Backward: %v; want a *ReleasedError saying Item still works", err)
	}
	scaled.Release()
	w.ZeroGrad()
	if got := dl.MemoryStats(dev).Allocated; got != before {
		t.Errorf("Allocated after the step = %d; want %d (the graph released)", got, before)
	}
	big := x.MatMul(w).Sum(1) // an intermediate with more than one element keeps nothing
	big.Sum().Backward()
	if err := dl.Catch(func() { big.Float32s() }); !errors.Is(err, dl.ErrReleased) || strings.Contains(err.Error(), "Item()") {
		t.Errorf("a released 8-element intermediate: %v; want a *ReleasedError without the Item hint", err)
	}
}
