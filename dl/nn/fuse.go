package nn

import "github.com/dlbd/dlbd/dl"

// FusedLinear is a Linear layer followed by an activation, run as one
// dl.FusedLinear op (bias and activation in the GEMM's epilogue, one
// output buffer instead of two).  Fuse builds it from a Linear and a
// ReLU, Tanh or Sigmoid module; it shares their parameters.
//
// Course: "Prácticas de eficiencia computacional" (torch.compile fuses
// such chains of ops into one kernel).
type FusedLinear struct {
	*Linear
	Act dl.FusedActivation
}

var _ Module = (*FusedLinear)(nil)

// Forward returns Act(x·Wᵀ + b) with dl.FusedLinear.
func (f *FusedLinear) Forward(x *dl.Tensor) *dl.Tensor {
	return dl.FusedLinear(x, f.Weight, f.Bias, f.Act)
}

// Fuse returns modules with each Linear that is directly followed by a
// ReLU, Tanh or Sigmoid module replaced by one *FusedLinear (which shares
// the Linear's parameters); other modules are kept as they are.  The
// result computes the same function, bitwise.  Sequential's Forward calls
// it while fusion is on (outside dl.WithoutFusion), which is how the fused
// kernel is used automatically; parameter names are not affected (they
// come from Sequential.Modules).
func Fuse(modules []Module) []Module {
	out := make([]Module, 0, len(modules))
	for i := 0; i < len(modules); i++ {
		if l, ok := modules[i].(*Linear); ok && i+1 < len(modules) {
			if a, ok := modules[i+1].(activation); ok && a.fuse != 0 {
				out = append(out, &FusedLinear{Linear: l, Act: a.fuse})
				i++
				continue
			}
		}
		out = append(out, modules[i])
	}
	return out
}
