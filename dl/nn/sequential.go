package nn

import "github.com/dlbd/dlbd/dl"

// Sequential applies its modules in order, like torch.nn.Sequential. Its
// parameters are named by position: "0.weight", "2.bias".
type Sequential struct {
	Modules []Module
}

var _ Module = (*Sequential)(nil)

// NewSequential returns a Sequential of the given modules.
func NewSequential(modules ...Module) *Sequential { return &Sequential{Modules: modules} }

// Forward feeds x through every module in turn; a Linear followed by
// ReLU, Tanh or Sigmoid runs as one fused op (see Fuse) unless inside
// dl.WithoutFusion.
func (s *Sequential) Forward(x *dl.Tensor) *dl.Tensor {
	mods := s.Modules
	if dl.FusionEnabled() {
		mods = Fuse(mods)
	}
	for _, m := range mods {
		x = m.Forward(x)
	}
	return x
}

// NamedParameters returns the children's parameters prefixed by index.
func (s *Sequential) NamedParameters() []NamedParameter { return childParameters("", s.Modules) }

// SetTraining sets the mode of every child.
func (s *Sequential) SetTraining(training bool) {
	for _, m := range s.Modules {
		m.SetTraining(training)
	}
}
