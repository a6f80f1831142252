package data_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/dlbd/dlbd/dl"
	"github.com/dlbd/dlbd/dl/data"
)

// order returns the first-column values of every batch of an epoch.
func order(l *data.DataLoader, epoch int) (rows [][]float32) {
	for batch := range l.Epoch(epoch) {
		rows = append(rows, batch[1].Float32s())
	}
	return rows
}

func TestDataLoader(t *testing.T) {
	x := dl.Arange(0, 20, 1).Reshape(10, 2)
	y := dl.Arange(0, 10, 1)
	ds := data.NewTensorDataset(x, y)
	seq := data.NewDataLoader(ds, data.DataLoaderConfig{BatchSize: 4})
	if got := order(seq, 0); seq.Len() != 3 || !slices.Equal(got[0], []float32{0, 1, 2, 3}) || !slices.Equal(got[2], []float32{8, 9}) {
		t.Errorf("sequential batches = %v (Len %d); want [0 1 2 3] ... [8 9], Len 3", got, seq.Len())
	}
	drop := data.NewDataLoader(ds, data.DataLoaderConfig{BatchSize: 4, DropLast: true})
	if got := order(drop, 0); drop.Len() != 2 || len(got) != 2 {
		t.Errorf("DropLast gave %d batches (Len %d); want 2", len(got), drop.Len())
	}
	// Inputs travel with their labels.
	for batch := range drop.Epoch(0) {
		xs, ys := batch[0].Float32s(), batch[1].Float32s()
		if !slices.Equal(batch[0].Shape(), []int{4, 2}) || xs[2] != 2*ys[1] {
			t.Errorf("batch x %v does not match y %v", xs, ys)
		}
	}
	sh := func(seed uint64) *data.DataLoader {
		return data.NewDataLoader(ds, data.DataLoaderConfig{BatchSize: 3, Shuffle: true, Seed: seed})
	}
	a, b := order(sh(7), 0), order(sh(7), 0)
	if fmt.Sprint(a) != fmt.Sprint(b) {
		t.Errorf("same seed, different order: %v vs %v", a, b)
	}
	if fmt.Sprint(a) == fmt.Sprint(order(sh(7), 1)) || fmt.Sprint(a) == fmt.Sprint(order(sh(8), 0)) {
		t.Error("epochs or seeds do not change the order")
	}
	var all []float32
	for _, r := range a {
		all = append(all, r...)
	}
	slices.Sort(all)
	if !slices.Equal(all, y.Float32s()) {
		t.Errorf("a shuffled epoch visits %v; want every example once", all)
	}
}

// plain hides TensorDataset's GetBatch, so the loader must stack Get results.
type plain struct{ *data.TensorDataset }

func (p plain) Len() int               { return p.TensorDataset.Len() }
func (p plain) Get(i int) []*dl.Tensor { return p.TensorDataset.Get(i) }

func TestDataLoaderCollate(t *testing.T) {
	ds := data.NewTensorDataset(dl.Arange(0, 12, 1).Reshape(6, 2), dl.Arange(0, 6, 1))
	a := data.NewDataLoader(plain{ds}, data.DataLoaderConfig{BatchSize: 4, Shuffle: true, Seed: 1})
	b := data.NewDataLoader(ds, data.DataLoaderConfig{BatchSize: 4, Shuffle: true, Seed: 1})
	var ga, gb []string
	for batch := range a.Epoch(0) {
		ga = append(ga, fmt.Sprint(batch[0].Shape(), batch[0].Float32s(), batch[1].Float32s()))
	}
	for batch := range b.Epoch(0) {
		gb = append(gb, fmt.Sprint(batch[0].Shape(), batch[0].Float32s(), batch[1].Float32s()))
	}
	if !slices.Equal(ga, gb) {
		t.Errorf("stacked Get batches %v differ from GetBatch batches %v", ga, gb)
	}
}

func ExampleDataLoader() {
	x := dl.Arange(0, 6, 1).Reshape(3, 2) // 3 examples of 2 features
	y := dl.FromSlice([]float32{0, 1, 0}) // their labels
	loader := data.NewDataLoader(data.NewTensorDataset(x, y), data.DataLoaderConfig{BatchSize: 2})
	for batch := range loader.Epoch(0) {
		fmt.Println(batch[0].Shape(), batch[0].Float32s(), batch[1].Float32s())
	}
	// Output:
	// [2 2] [0 1 2 3] [0 1]
	// [1 2] [4 5] [0]
}
