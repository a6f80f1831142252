package nn

import (
	"fmt"
	"math"

	"github.com/dlbd/dlbd/dl"
)

// Conv2dConfig configures NewConv2d; the zero value is torch.nn.Conv2d's
// defaults (stride 1, no padding, no dilation, one group, with bias,
// Float32 on CPU).  Pairs are (height, width).
type Conv2dConfig struct {
	InitConfig
	Stride   [2]int // {0, 0} means {1, 1}
	Padding  [2]int // zeros on both sides of each spatial axis
	Dilation [2]int // {0, 0} means {1, 1}
	Groups   int    // 0 means 1; Groups = in is a depthwise convolution
	NoBias   bool   // no bias term (torch bias=False)
}

// Conv2d is the 2-D convolution layer, like torch.nn.Conv2d: inputs
// [N, In, H, W], outputs [N, Out, Ho, Wo] (see dl.Conv2d).  Weight has
// shape [Out, In/Groups, kH, kW], Bias [Out].
//
// Initialisation is PyTorch's: W from kaiming_uniform_(a=√5), which is
// U(−1/√fan_in, 1/√fan_in) with fan_in = In/Groups·kH·kW, then b from
// U(−1/√fan_in, 1/√fan_in), drawn in that order from the configured
// generator (as Linear does).
type Conv2d struct {
	Weight  *dl.Tensor
	Bias    *dl.Tensor // nil with NoBias
	In, Out int
	Kernel  [2]int
	Options dl.Conv2dOptions
}

var _ Module = (*Conv2d)(nil)

// NewConv2d returns a Conv2d layer from in to out channels with a
// kernel[0]×kernel[1] kernel.  It panics with a *dl.ValueError if a size
// is not positive or the groups do not divide both channel counts.
func NewConv2d(in, out int, kernel [2]int, cfg Conv2dConfig) *Conv2d {
	const op = "nn.NewConv2d"
	groups := cfg.Groups
	if groups == 0 {
		groups = 1
	}
	if in <= 0 || out <= 0 || kernel[0] <= 0 || kernel[1] <= 0 {
		panic(&dl.ValueError{Op: op, Reason: fmt.Sprintf("%d input channels, %d output channels, kernel %v", in, out, kernel),
			Fix: "use positive channel counts and kernel sizes"})
	}
	if groups < 0 || in%groups != 0 || out%groups != 0 {
		panic(&dl.ValueError{Op: op, Reason: fmt.Sprintf("groups = %d for %d input and %d output channels", groups, in, out),
			Fix: "use a number of groups that divides both channel counts"})
	}
	c := &Conv2d{In: in, Out: out, Kernel: kernel,
		Options: dl.Conv2dOptions{Stride: cfg.Stride, Padding: cfg.Padding, Dilation: cfg.Dilation, Groups: groups}}
	fanIn := in / groups * kernel[0] * kernel[1]
	c.Weight = cfg.uniformParam(kaimingUniformBound(math.Sqrt(5), fanIn), out, in/groups, kernel[0], kernel[1])
	if !cfg.NoBias {
		c.Bias = cfg.uniformParam(1/math.Sqrt(float64(fanIn)), out)
	}
	return c
}

// Forward returns dl.Conv2d(x, Weight, Bias, Options).
func (c *Conv2d) Forward(x *dl.Tensor) *dl.Tensor { return dl.Conv2d(x, c.Weight, c.Bias, c.Options) }

// NamedParameters returns "weight" and "bias".
func (c *Conv2d) NamedParameters() []NamedParameter {
	ps := []NamedParameter{{"weight", c.Weight}}
	if c.Bias != nil {
		ps = append(ps, NamedParameter{"bias", c.Bias})
	}
	return ps
}

// SetTraining does nothing: Conv2d behaves the same in both modes.
func (c *Conv2d) SetTraining(bool) {}
