package nn

import (
	"fmt"
	"math"

	"github.com/dlbd/dlbd/dl"
)

// LinearConfig configures NewLinear; the zero value is torch.nn.Linear's
// defaults (with bias, Float32 on CPU).
type LinearConfig struct {
	InitConfig
	NoBias bool // no bias term (torch bias=False); default false
}

// Linear is the affine layer y = x·Wᵀ + b, like torch.nn.Linear: Weight has
// shape [out, in], Bias [out]. Inputs are [..., in].
//
// Initialisation is PyTorch's: W from kaiming_uniform_(a=√5), which is
// U(−1/√in, 1/√in), then b from U(−1/√in, 1/√in), drawn in that order
// from the configured generator.
type Linear struct {
	Weight *dl.Tensor
	Bias   *dl.Tensor // nil with NoBias
	In     int
	Out    int
}

var _ Module = (*Linear)(nil)

// NewLinear returns a Linear layer from in to out features. It panics with
// a *dl.ValueError if in or out is not positive.
func NewLinear(in, out int, cfg LinearConfig) *Linear {
	if in <= 0 || out <= 0 {
		panic(&dl.ValueError{Op: "nn.NewLinear", Reason: fmt.Sprintf("%d inputs, %d outputs", in, out), Fix: "use positive feature counts"})
	}
	l := &Linear{In: in, Out: out}
	l.Weight = cfg.uniformParam(kaimingUniformBound(math.Sqrt(5), in), out, in)
	if !cfg.NoBias {
		l.Bias = cfg.uniformParam(1/math.Sqrt(float64(in)), out)
	}
	return l
}

// Forward returns x·Wᵀ + b (dl.Linear: one GEMM with W transposed by a
// kernel flag, bias added in the same pass).
func (l *Linear) Forward(x *dl.Tensor) *dl.Tensor { return dl.Linear(x, l.Weight, l.Bias) }

// NamedParameters returns "weight" and "bias".
func (l *Linear) NamedParameters() []NamedParameter {
	ps := []NamedParameter{{"weight", l.Weight}}
	if l.Bias != nil {
		ps = append(ps, NamedParameter{"bias", l.Bias})
	}
	return ps
}

// SetTraining does nothing: Linear behaves the same in both modes.
func (l *Linear) SetTraining(bool) {}
