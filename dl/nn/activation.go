package nn

import "github.com/dlbd/dlbd/dl"

// activation is a parameter-free module applying an elementwise function.
type activation struct {
	stateless
	f    func(*dl.Tensor) *dl.Tensor
	fuse dl.FusedActivation // nonzero: Fuse may merge it into the Linear before it
}

func (a activation) Forward(x *dl.Tensor) *dl.Tensor { return a.f(x) }

// ReLU returns the module max(x, 0) (torch.nn.ReLU).
func ReLU() Module { return activation{f: (*dl.Tensor).ReLU, fuse: dl.FuseReLU} }

// GELU returns the module x·Φ(x) with the exact erf form (torch.nn.GELU()).
func GELU() Module { return activation{f: (*dl.Tensor).GELU, fuse: 0} }

// Tanh returns the module tanh(x) (torch.nn.Tanh).
func Tanh() Module { return activation{f: (*dl.Tensor).Tanh, fuse: dl.FuseTanh} }

// Sigmoid returns the module 1/(1+e^−x) (torch.nn.Sigmoid).
func Sigmoid() Module { return activation{f: (*dl.Tensor).Sigmoid, fuse: dl.FuseSigmoid} }
