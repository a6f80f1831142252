package nn

import (
	"strconv"

	"github.com/dlbd/dlbd/dl"
)

// Module is a layer or a model, like torch.nn.Module: a Forward function and
// named parameters.
type Module interface {
	// Forward computes the module's output for input x.
	Forward(x *dl.Tensor) *dl.Tensor
	// NamedParameters returns the parameters with PyTorch's names ("weight",
	// "0.bias", "layers.1.weight"), always in the same order (registration
	// order, children after their parent's own parameters).
	NamedParameters() []NamedParameter
	// SetTraining switches training mode (Dropout active, BatchNorm2d on the
	// batch's statistics) on or off for the module and its children, like
	// torch's module.train(mode).
	SetTraining(training bool)
}

// NamedParameter is a parameter with its state-dict name.
type NamedParameter struct {
	Name   string
	Tensor *dl.Tensor
}

// Parameters returns m's parameter tensors in NamedParameters order, like
// torch's module.parameters().
func Parameters(m Module) []*dl.Tensor {
	nps := m.NamedParameters()
	ps := make([]*dl.Tensor, len(nps))
	for i, np := range nps {
		ps[i] = np.Tensor
	}
	return ps
}

// NumParams returns the number of scalar parameters of m.
func NumParams(m Module) int {
	n := 0
	for _, np := range m.NamedParameters() {
		n += np.Tensor.Numel()
	}
	return n
}

// Train puts m in training mode (module.train()).
func Train(m Module) { m.SetTraining(true) }

// Eval puts m in evaluation mode (module.eval()): Dropout becomes the identity.
func Eval(m Module) { m.SetTraining(false) }

// ZeroGrad clears the gradients of m's parameters (module.zero_grad()).
func ZeroGrad(m Module) {
	for _, np := range m.NamedParameters() {
		np.Tensor.ZeroGrad()
	}
}

// prefixed returns ps with "prefix." in front of each name.
func prefixed(prefix string, ps []NamedParameter) []NamedParameter {
	out := make([]NamedParameter, len(ps))
	for i, p := range ps {
		out[i] = NamedParameter{Name: prefix + "." + p.Name, Tensor: p.Tensor}
	}
	return out
}

// childParameters names the parameters of children by their index, as
// torch.nn.Sequential and ModuleList do ("0.weight", "1.bias").
func childParameters(prefix string, children []Module) []NamedParameter {
	var out []NamedParameter
	for i, c := range children {
		name := strconv.Itoa(i)
		if prefix != "" {
			name = prefix + "." + name
		}
		out = append(out, prefixed(name, c.NamedParameters())...)
	}
	return out
}

// InitConfig says where and how modules create their parameters; the zero
// value is Float32 on CPU from dl.DefaultGenerator.
type InitConfig struct {
	DType     dl.DType      // parameter dtype; default Float32
	Device    dl.Device     // parameter device; default CPU
	Generator *dl.Generator // random numbers for the initialisation; default dl.DefaultGenerator
}

func (c InitConfig) options() dl.Options {
	return dl.Options{DType: c.DType, Device: c.Device, Generator: c.Generator}
}

// uniformParam returns a new leaf parameter drawn from U(−bound, bound),
// as torch.nn.init.uniform_ does.
func (c InitConfig) uniformParam(bound float64, dims ...int) *dl.Tensor {
	var p *dl.Tensor
	dl.NoGrad(func() {
		r := c.options().Rand(dims...)
		s := r.MulScalar(2 * bound)
		p = s.AddScalar(-bound)
		r.Release()
		s.Release() // not left to the garbage collector: memory figures stay exact
	})
	return p.SetRequiresGrad(true)
}

// stateless gives a module without parameters, which behaves the same in
// training and evaluation (activations, pooling, Flatten), its
// NamedParameters and SetTraining.
type stateless struct{}

// NamedParameters returns nothing: the module has no parameters.
func (stateless) NamedParameters() []NamedParameter { return nil }

// SetTraining does nothing: the module behaves the same in both modes.
func (stateless) SetTraining(bool) {}
