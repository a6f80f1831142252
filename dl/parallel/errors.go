package parallel

import "errors"

// ErrModel is what every *ModelError unwraps to.
var ErrModel = errors.New("parallel: model cannot be split")

// ModelError reports a model that a tensor-parallel constructor cannot
// split as given: an nn.Block with dropout (the ranks' masks would have to
// agree, as Megatron-LM arranges with forked random states) or an MLP that
// is not Linear, activation, Linear.  The constructors panic with it, as
// with a size that does not divide: the calling code is wrong.
//
// Course: "Tensor Parallelism (TP)".
// Paper: Shoeybi et al. 2019, Megatron-LM (arXiv:1909.08053), Section 3.
type ModelError struct {
	Op     string // the constructor: "NewTPBlock", "NewParallelMLP"
	Reason string // what the model has that cannot be split
	Fix    string // how to build one that can
}

// Error returns "parallel: Op: reason; fix".
func (e *ModelError) Error() string { return "parallel: " + e.Op + ": " + e.Reason + "; " + e.Fix }

// Unwrap returns ErrModel.
func (e *ModelError) Unwrap() error { return ErrModel }
