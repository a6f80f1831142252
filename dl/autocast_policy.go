package dl

// The autocast policy: which ops compute in the autocast dtype, which in
// float32, and which promote mixed inputs, following PyTorch's autocast op
// lists (https://pytorch.org/docs/stable/amp.html#autocast-op-reference).
// The hooks are one line at the top of each op (ops_matmul.go,
// ops_linear.go, ops_conv.go, ops_softmax.go, ops_layernorm.go,
// ops_reduce.go, ops_activation.go, ops_loss.go, ops_arith.go),
// behind an atomic check, so ops outside every autocast scope pay one load.
//
// Course: "Prácticas de eficiencia computacional" (mixed precision).
// Paper: Micikevicius et al. 2018, Mixed Precision Training (arXiv:1710.03740):
// products in half precision with float32 accumulation, reductions and
// losses in float32, float32 master weights.

// AutocastPolicy lists, by dl op name, what autocast does to each op, as
// PyTorch's autocast op reference does for torch ops.
type AutocastPolicy struct {
	// LowPrecision ops cast Float32 inputs to the autocast dtype and
	// multiply with float32 accumulation (torch: the "float16"/"lower
	// precision" list: matmul, linear, bmm, conv1d/2d/3d, ...).
	LowPrecision []string
	// Float32 ops cast Float16/BFloat16 inputs to Float32 and return
	// Float32 (torch: the "float32" list: softmax, log_softmax,
	// layer_norm, sum, exp, log, pow, the losses, ...).  Their range and
	// rounding need the 8-bit exponent and 24-bit mantissa.
	Float32 []string
	// Promote ops with inputs of different float dtypes cast them all to
	// the widest one (torch: type promotion of add/mul/..., and the
	// "promote" list: cat, stack).  Outside autocast dl refuses mixed
	// dtypes with a *DTypeError instead.
	Promote []string
}

// AutocastOps returns the op lists that amp.Autocast applies.  Every other
// op runs in its inputs' dtype (ReLU, GELU, Dropout, Reshape, ...: they
// are exact or harmless in half precision).
func AutocastOps() AutocastPolicy {
	return AutocastPolicy{
		LowPrecision: []string{"MatMul", "MatMulWith", "Linear", "FusedLinear", "Conv2d"},
		Float32: []string{"Softmax", "LogSoftmax", "LayerNorm", "Sum", "SumKeepDim", "Mean", "MeanKeepDim",
			"Exp", "Log", "Pow", "CrossEntropy", "MSE"},
		Promote: []string{"Add", "Sub", "Mul", "Div"},
	}
}

// autocastFloat32 returns t cast to Float32 (a differentiable AsType, so
// the gradient flows back in t's dtype) when autocast is on in the calling
// goroutine and t is a half tensor; otherwise t itself.  Ops of the
// Float32 list call it first.
func autocastFloat32(t *Tensor) *Tensor {
	if t == nil || !t.dtype.IsHalf() || !autocastMode.Active() {
		return t
	}
	if _, on := AutocastDType(); !on {
		return t
	}
	return t.AsType(Float32)
}

// autocastPromote returns a and b in the wider of their dtypes when
// autocast is on and they differ (Float64 > Float32 > the half types, as
// torch's type promotion; Float16 with BFloat16 gives Float32).  Ops of the
// Promote list call it first.
func autocastPromote(a, b *Tensor) (*Tensor, *Tensor) {
	if a == nil || b == nil || a.dtype == b.dtype || !autocastMode.Active() { // the op reports a nil
		return a, b
	}
	if _, on := AutocastDType(); !on {
		return a, b
	}
	dt := Float32
	if a.dtype == Float64 || b.dtype == Float64 {
		dt = Float64
	}
	return a.AsType(dt), b.AsType(dt)
}

// autocastRelease hands the casts autocast made of tensors that do not
// require grad (the data batch, frozen weights) to out's node, so the
// graph releases them after Backward, or releases them at once when no
// graph was recorded; otherwise nothing would release them but the
// garbage collector, and memory figures would drift.  Casts of tensors
// that require grad are outputs of recorded AsType nodes already.
func autocastRelease(out *Tensor, orig, cast []*Tensor) *Tensor {
	for i, c := range cast {
		if c == nil || c == orig[i] || c.node != nil || c.requiresGrad {
			continue
		}
		if out.node != nil {
			out.node.saved = append(out.node.saved, c)
		} else {
			c.Release()
		}
	}
	return out
}
