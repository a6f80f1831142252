package dl

import "fmt"

// FusedActivation names the activation FusedLinear applies to its GEMM's
// output.  Only activations whose gradient is a function of their output
// are fusable in place: y = f(z) overwrites z, and backward needs only y.
type FusedActivation uint8

// The fusable activations.
const (
	FuseReLU    FusedActivation = iota + 1 // max(z, 0); f′ = 1 where y > 0
	FuseTanh                               // tanh(z); f′ = 1 − y²
	FuseSigmoid                            // 1/(1+e^−z); f′ = y(1 − y)
)

// String returns the activation's name as a Go method: "ReLU", "Tanh",
// "Sigmoid".
func (a FusedActivation) String() string {
	switch a {
	case FuseReLU:
		return "ReLU"
	case FuseTanh:
		return "Tanh"
	case FuseSigmoid:
		return "Sigmoid"
	}
	return fmt.Sprintf("FusedActivation(%d)", uint8(a))
}

// kernels returns the forward op and the gradient-from-output op.
func (a FusedActivation) kernels() (unaryOp, binaryOp) {
	switch a {
	case FuseReLU:
		return opReLU, opReLUGrad
	case FuseTanh:
		return opTanh, opTanhGrad
	case FuseSigmoid:
		return opSigmoid, opSigmoidGrad
	}
	panic(&ValueError{Op: "FusedLinear", Reason: fmt.Sprintf("unknown activation %v", a), Fix: "use dl.FuseReLU, dl.FuseTanh or dl.FuseSigmoid"})
}

// FusedLinear returns act(x·wᵀ + b) with the bias and the activation in
// the GEMM's epilogue: Linear writes the bias and accumulates the product
// into one output buffer, and the activation then overwrites that buffer
// in place, so the layer keeps one [rows, out] tensor instead of two
// (Linear's output and the activation's).  Backward computes
// g·f′(y) from the output alone and then Linear's backward, which never
// reads its own output; that is why only ReLU, Tanh and Sigmoid are
// fusable (GELU's derivative needs its input).  Results are bitwise
// identical to act(Linear(x, w, b)): the same kernels run on the same
// values.
//
// Simplification: a compiler (torch.compile, XLA) applies the activation
// to each tile while it is still in registers; here it is a second pass
// over the output, which saves the allocation and the fresh-memory writes
// of a second buffer but not that pass.
//
// Inside WithoutFusion it is act(Linear(x, w, b)) with two buffers.
// Under autocast it computes like Linear (half inputs, float32
// accumulation).  It panics like Linear on mismatched shapes, devices or
// dtypes, and with a message on an unknown activation.
func FusedLinear(x, w, b *Tensor, act FusedActivation) *Tensor {
	const op = "FusedLinear"
	fwd, grad := act.kernels()
	z := Linear(x, w, b)
	if !FusionEnabled() {
		y := unaryRaw(op, fwd, z)
		return unaryGrad(act.String(), y, z, grad, false)
	}
	y := z // inference: overwrite z itself
	if needsGrad(z) {
		y = z.alias() // the same memory, with a node of its own after z's
	}
	z32 := compute32(z)
	if z.n > 0 {
		z.k(op).unary(fwd, z32.v(op), z32.v(op))
		if z32 != z { // half: round the float32 result back into z's memory
			z.k(op).cast(z.v(op), z32.v(op))
			z32.Release()
		}
	}
	if y != z {
		record(op, y, []*Tensor{z}, nil, func(g *Tensor) []*Tensor {
			return []*Tensor{binaryRaw(op+" backward", grad, g, y)}
		})
	}
	return y
}
