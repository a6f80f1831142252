package dl_test

import (
	"sync"
	"testing"

	"github.com/dlbd/dlbd/dl"
)

// TestConcurrentRanks trains one replica per goroutine on its own Sim
// device, as data-parallel ranks do, some of them evaluating under
// NoGrad meanwhile: every rank must get the single-goroutine gradient.
func TestConcurrentRanks(t *testing.T) {
	grad := func(dev dl.Device, evalToo bool) []float64 {
		o := dl.Options{Device: dev, DType: dl.Float64, Generator: dl.NewGenerator(4)}
		w := o.Randn(8, 5).SetRequiresGrad(true)
		x := o.Randn(16, 5)
		if evalToo {
			dl.NoGrad(func() { _ = dl.Linear(x, w, nil).Sum() })
		}
		loss := dl.Linear(x, w, nil).Tanh().Mean()
		loss.Backward()
		return w.Grad().Float64s()
	}
	want := grad(dl.CPU, false)
	var wg sync.WaitGroup
	got := make([][]float64, 4)
	for r := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 20 {
				got[r] = grad(dl.Sim(r), r%2 == 0)
			}
		}()
	}
	wg.Wait()
	for r, g := range got {
		if !dl.AllClose(dl.FromSlice(g), dl.FromSlice(want), 0, 0) {
			t.Errorf("rank %d gradient differs from the single-goroutine one", r)
		}
	}
}
