package nn

import (
	"fmt"

	"github.com/dlbd/dlbd/dl"
)

// Embedding maps integer token ids to rows of a [Num, Dim] table, like
// torch.nn.Embedding. Forward takes a tensor of ids of any shape (Int64,
// like PyTorch's, or Int32, Uint8, or floats holding integers) and
// returns shape ids.shape + [Dim].
// Initialisation is PyTorch's: N(0, 1).
type Embedding struct {
	Weight   *dl.Tensor
	Num, Dim int
}

var _ Module = (*Embedding)(nil)

// NewEmbedding returns an embedding table of num rows of dim features. It
// panics with a *dl.ValueError if num or dim is not positive.
func NewEmbedding(num, dim int, cfg InitConfig) *Embedding {
	if num <= 0 || dim <= 0 {
		panic(&dl.ValueError{Op: "nn.NewEmbedding", Reason: fmt.Sprintf("%d rows of %d features", num, dim), Fix: "use positive sizes"})
	}
	var w *dl.Tensor
	dl.NoGrad(func() { w = cfg.options().Randn(num, dim) })
	return &Embedding{Weight: w.SetRequiresGrad(true), Num: num, Dim: dim}
}

// Forward looks up the rows named by ids.
func (e *Embedding) Forward(ids *dl.Tensor) *dl.Tensor { return e.Weight.IndexSelect(ids) }

// NamedParameters returns "weight".
func (e *Embedding) NamedParameters() []NamedParameter { return []NamedParameter{{"weight", e.Weight}} }

// SetTraining does nothing: Embedding behaves the same in both modes.
func (e *Embedding) SetTraining(bool) {}

// LayerNorm normalises the last axis to mean 0, variance 1 and applies a
// learned affine map, like torch.nn.LayerNorm(dim) (eps 1e-5, weight ones,
// bias zeros).
type LayerNorm struct {
	Weight, Bias *dl.Tensor
	Eps          float64
}

var _ Module = (*LayerNorm)(nil)

// NewLayerNorm returns a LayerNorm over a last axis of size dim.
func NewLayerNorm(dim int, cfg InitConfig) *LayerNorm {
	o := cfg.options()
	return &LayerNorm{Weight: o.Ones(dim).SetRequiresGrad(true), Bias: o.Zeros(dim).SetRequiresGrad(true), Eps: 1e-5}
}

// Forward normalises x over its last axis.
func (l *LayerNorm) Forward(x *dl.Tensor) *dl.Tensor { return dl.LayerNorm(x, l.Weight, l.Bias, l.Eps) }

// NamedParameters returns "weight" and "bias".
func (l *LayerNorm) NamedParameters() []NamedParameter {
	return []NamedParameter{{"weight", l.Weight}, {"bias", l.Bias}}
}

// SetTraining does nothing: LayerNorm behaves the same in both modes.
func (l *LayerNorm) SetTraining(bool) {}

// Dropout zeroes each element with probability P in training mode and
// scales the rest by 1/(1−P); in evaluation mode it is the identity, like
// torch.nn.Dropout. Modules start in training mode, as in PyTorch.
type Dropout struct {
	P         float64
	Generator *dl.Generator // source of the masks; nil: dl.DefaultGenerator
	eval      bool
}

var _ Module = (*Dropout)(nil)

// NewDropout returns a Dropout layer with drop probability p in [0, 1).
func NewDropout(p float64, gen *dl.Generator) *Dropout { return &Dropout{P: p, Generator: gen} }

// Forward applies dropout in training mode and returns x in eval mode.
func (d *Dropout) Forward(x *dl.Tensor) *dl.Tensor {
	if d.eval || d.P == 0 {
		return x
	}
	return dl.Dropout(x, d.P, d.Generator)
}

// NamedParameters returns nothing: Dropout has no parameters.
func (d *Dropout) NamedParameters() []NamedParameter { return nil }

// SetTraining switches between training (masks) and evaluation (identity).
func (d *Dropout) SetTraining(training bool) { d.eval = !training }
