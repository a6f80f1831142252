package nn

import (
	"fmt"
	"math"

	"github.com/dlbd/dlbd/dl"
)

// Low-rank adaptation (LoRA), Hu et al. 2021, "LoRA: Low-Rank Adaptation of
// Large Language Models" (arXiv:2106.09685): fine-tuning freezes a
// pretrained weight W [out, in] and learns a low-rank change B·A, with A
// [r, in] and B [out, r], r ≪ min(in, out):
//
//	y = x·Wᵀ + b + (α/r)·(x·Aᵀ)·Bᵀ
//
// Only A and B are trained, r·(in + out) parameters instead of in·out:
// their gradients and optimizer state are all the training keeps besides
// the activations.  B starts at zero, so the adapted layer starts as the
// pretrained one; A starts as nn.Linear's weight would (kaiming-uniform,
// a = √5), as Hugging Face PEFT initialises it.

// LoRAConfig configures NewLoRA.  A and B take the base weight's dtype
// and device.
type LoRAConfig struct {
	Rank      int           // r, the rank of the change; at least 1
	Alpha     float64       // α: the change is scaled by α/r; 0 means α = r (scale 1)
	Generator *dl.Generator // random numbers for A; default dl.DefaultGenerator
}

// LoRA is a Linear layer adapted with a low-rank change (see above): Base
// is frozen (its weight and bias stop requiring grad when NewLoRA wraps
// it), A and B are the trainable parameters.  NamedParameters returns only
// A and B, PEFT's "lora_A.weight" and "lora_B.weight": an optimizer built
// from nn.Parameters trains the adapter alone, and a state dict of it is
// the adapter, as PEFT saves it (save the base separately).
type LoRA struct {
	Base  *Linear
	A     *dl.Tensor // [r, in]
	B     *dl.Tensor // [out, r], zeros at first
	Rank  int
	Scale float64 // α/r
}

var _ Module = (*LoRA)(nil)

// NewLoRA freezes base and returns it adapted with a rank-cfg.Rank change.
// It panics with a *dl.ValueError if the rank is below 1 or above
// min(in, out) (the change would not be low-rank).
func NewLoRA(base *Linear, cfg LoRAConfig) *LoRA {
	const op = "nn.NewLoRA"
	r := cfg.Rank
	if r < 1 || r > min(base.In, base.Out) {
		panic(&dl.ValueError{Op: op, Reason: fmt.Sprintf("rank %d for a %d→%d Linear", r, base.In, base.Out),
			Fix: fmt.Sprintf("use a rank from 1 to %d (typically 4 to 64)", min(base.In, base.Out))})
	}
	alpha := cfg.Alpha
	if alpha == 0 {
		alpha = float64(r)
	}
	ic := InitConfig{DType: base.Weight.DType(), Device: base.Weight.Device(), Generator: cfg.Generator}
	base.Weight.SetRequiresGrad(false)
	if base.Bias != nil {
		base.Bias.SetRequiresGrad(false)
	}
	l := &LoRA{Base: base, Rank: r, Scale: alpha / float64(r)}
	l.A = ic.uniformParam(kaimingUniformBound(math.Sqrt(5), base.In), r, base.In)
	l.B = ic.options().Zeros(base.Out, r).SetRequiresGrad(true)
	return l
}

// Forward returns x·Wᵀ + b + (α/r)·(x·Aᵀ)·Bᵀ.  Without grad the
// adapter's intermediates are released once consumed.
func (l *LoRA) Forward(x *dl.Tensor) *dl.Tensor {
	byB := func(t *dl.Tensor) *dl.Tensor { return dl.Linear(t, l.B, nil) } // [..., r] → [..., out]
	scale := func(t *dl.Tensor) *dl.Tensor { return t.MulScalar(l.Scale) }
	if dl.IsGradEnabled() { // the graph keeps the intermediates for backward
		b := l.Base.Forward(x)
		y := b.Add(scale(byB(dl.Linear(x, l.A, nil))))
		if !b.RequiresGrad() { // frozen base, x without grad: no graph node owns it, and Add does not keep it
			b.Release()
		}
		return y
	}
	return add(l.Base.Forward(x), consume(dl.Linear(x, l.A, nil), byB, scale), true)
}

// NamedParameters returns the trainable parameters, "lora_A.weight" and
// "lora_B.weight" (the frozen base is not among them).
func (l *LoRA) NamedParameters() []NamedParameter {
	return []NamedParameter{{"lora_A.weight", l.A}, {"lora_B.weight", l.B}}
}

// SetTraining does nothing: LoRA behaves the same in both modes (it has
// no dropout on the adapter's input).
func (l *LoRA) SetTraining(bool) {}

// Merged returns a new Linear with weight W + (α/r)·B·A and the base's
// bias: the adapted layer with no extra cost at inference.  Its tensors do
// not require grad.
func (l *LoRA) Merged() *Linear {
	m := &Linear{In: l.Base.In, Out: l.Base.Out}
	dl.NoGrad(func() {
		ba := l.B.MatMul(l.A)
		change := ba.MulScalar(l.Scale)
		m.Weight = l.Base.Weight.Add(change)
		ba.Release()
		change.Release()
		if l.Base.Bias != nil {
			m.Bias = l.Base.Bias.Clone()
		}
	})
	return m
}

// TrainableFraction returns the adapter's parameter count over the base
// layer's: r·(in + out) / (in·out + out with a bias).
func (l *LoRA) TrainableFraction() float64 {
	base := l.Base.Weight.Numel()
	if l.Base.Bias != nil {
		base += l.Base.Bias.Numel()
	}
	return float64(l.A.Numel()+l.B.Numel()) / float64(base)
}
