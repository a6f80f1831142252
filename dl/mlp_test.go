package dl_test

import (
	"testing"

	"github.com/dlbd/dlbd/dl"
)

// mlp is a ReLU MLP built from dl's ops alone (no nn), trained with hand-written SGD.
type mlp struct{ w, b []*dl.Tensor }

func newMLP(sizes ...int) *mlp {
	m := &mlp{}
	g := dl.NewGenerator(1)
	for i := 0; i+1 < len(sizes); i++ {
		m.w = append(m.w, dl.Options{Generator: g}.Randn(sizes[i+1], sizes[i]).MulScalar(0.03).SetRequiresGrad(true))
		m.b = append(m.b, dl.Zeros(sizes[i+1]).SetRequiresGrad(true))
	}
	return m
}

func (m *mlp) step(x, y *dl.Tensor, lr float64) float64 {
	h := x
	for i := range m.w {
		h = dl.Linear(h, m.w[i], m.b[i])
		if i+1 < len(m.w) {
			h = h.ReLU()
		}
	}
	loss := dl.CrossEntropy(h, y)
	loss.Backward()
	for _, p := range append(append([]*dl.Tensor{}, m.w...), m.b...) {
		d, g := p.Float32Data(), p.Grad().Float32Data()
		for i := range d {
			d[i] -= float32(lr) * g[i]
		}
		p.ZeroGrad()
	}
	v := loss.Item()
	loss.Release()
	return v
}

func TestMLPTrains(t *testing.T) {
	m := newMLP(20, 32, 4)
	x := dl.Options{Generator: dl.NewGenerator(3)}.Randn(64, 20)
	labels := make([]float32, 64)
	xs := x.Float32Data()
	for i := range labels { // a learnable rule: the argmax of the first 4 features
		best := 0
		for j := 1; j < 4; j++ {
			if xs[i*20+j] > xs[i*20+best] {
				best = j
			}
		}
		labels[i] = float32(best)
	}
	y := dl.FromSlice(labels)
	first := m.step(x, y, 0.5)
	before := dl.MemoryStats(dl.CPU) // count only this test's allocations
	var last float64
	for range 200 {
		last = m.step(x, y, 0.5)
	}
	if !(last < first/4) {
		t.Errorf("MLP loss %v -> %v after 200 steps; want a 4x drop", first, last)
	}
	a := dl.MemoryStats(dl.CPU)
	if fresh := (a.Allocs - before.Allocs) - (a.CacheHits - before.CacheHits); fresh > 200 {
		t.Errorf("%d fresh allocations for %d in 200 steps: the caching allocator is not reusing blocks", fresh, a.Allocs-before.Allocs)
	}
}
