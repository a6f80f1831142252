package data

import (
	"fmt"

	"github.com/dlbd/dlbd/dl"
)

// Dataset is an indexed collection of examples, like
// torch.utils.data.Dataset. An example is a list of tensors, e.g. {x, y}.
type Dataset interface {
	// Len returns the number of examples.
	Len() int
	// Get returns example i (0 ≤ i < Len()).
	Get(i int) []*dl.Tensor
}

// BatchDataset is a Dataset that can fetch a whole batch at once, like
// PyTorch's __getitems__: one gather per tensor instead of one small tensor
// per example. The DataLoader uses it when a dataset offers it.
type BatchDataset interface {
	Dataset
	// GetBatch returns the examples at indices, stacked along a new first
	// axis.
	GetBatch(indices []int) []*dl.Tensor
}

// TensorDataset wraps tensors whose first axis indexes the examples, like
// torch.utils.data.TensorDataset: example i is {t[i] for each tensor}.
type TensorDataset struct {
	Tensors []*dl.Tensor
}

var _ BatchDataset = (*TensorDataset)(nil)

// NewTensorDataset returns a TensorDataset. It panics with *dl.ShapeError
// unless all tensors have the same, non-zero number of dimensions and the
// same first dimension.
func NewTensorDataset(tensors ...*dl.Tensor) *TensorDataset {
	var shapes [][]int
	for _, t := range tensors {
		shapes = append(shapes, t.Shape())
	}
	for _, s := range shapes {
		if len(s) == 0 || s[0] != shapes[0][0] {
			panic(&dl.ShapeError{Op: "data.NewTensorDataset", Shapes: shapes,
				Reason: "every tensor needs the same first dimension (the number of examples)",
				Fix:    "check that inputs and labels have as many rows"})
		}
	}
	return &TensorDataset{Tensors: tensors}
}

// Len returns the size of the first axis.
func (d *TensorDataset) Len() int {
	if len(d.Tensors) == 0 {
		return 0
	}
	return d.Tensors[0].Size(0)
}

// Get returns row i of every tensor (views, no copy).
func (d *TensorDataset) Get(i int) []*dl.Tensor {
	if i < 0 || i >= d.Len() {
		panic(&dl.ShapeError{Op: "data.TensorDataset.Get", Reason: fmt.Sprintf("index %d out of range [0, %d)", i, d.Len()), Fix: "use an index below Len()"})
	}
	out := make([]*dl.Tensor, len(d.Tensors))
	for k, t := range d.Tensors {
		out[k] = t.Slice(i, i+1).Squeeze(0)
	}
	return out
}

// GetBatch gathers the rows at indices from every tensor (one IndexSelect
// each).
func (d *TensorDataset) GetBatch(indices []int) []*dl.Tensor {
	idx := make([]float32, len(indices))
	for i, v := range indices {
		idx[i] = float32(v)
	}
	out := make([]*dl.Tensor, len(d.Tensors))
	for k, t := range d.Tensors {
		it := dl.FromSlice(idx, len(idx)).To(t.Device())
		out[k] = t.IndexSelect(it)
	}
	return out
}
