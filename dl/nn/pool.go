package nn

import (
	"fmt"

	"github.com/dlbd/dlbd/dl"
)

// MaxPool2d is the max-pooling layer, like torch.nn.MaxPool2d (without
// dilation, ceil_mode or return_indices): see dl.MaxPool2d.  It has no
// parameters.
type MaxPool2d struct {
	stateless
	Kernel  [2]int
	Options dl.Pool2dOptions // zero: stride = kernel, no padding
}

var _ Module = (*MaxPool2d)(nil)

// NewMaxPool2d returns a MaxPool2d over kernel[0]×kernel[1] windows.
func NewMaxPool2d(kernel [2]int, o dl.Pool2dOptions) *MaxPool2d {
	return &MaxPool2d{Kernel: kernel, Options: o}
}

// Forward returns dl.MaxPool2d(x, Kernel, Options).
func (p *MaxPool2d) Forward(x *dl.Tensor) *dl.Tensor { return dl.MaxPool2d(x, p.Kernel, p.Options) }

// AvgPool2d is the average-pooling layer, like torch.nn.AvgPool2d with
// its defaults (count_include_pad=True, no ceil_mode): see dl.AvgPool2d.
type AvgPool2d struct {
	stateless
	Kernel  [2]int
	Options dl.Pool2dOptions // zero: stride = kernel, no padding
}

var _ Module = (*AvgPool2d)(nil)

// NewAvgPool2d returns an AvgPool2d over kernel[0]×kernel[1] windows.
func NewAvgPool2d(kernel [2]int, o dl.Pool2dOptions) *AvgPool2d {
	return &AvgPool2d{Kernel: kernel, Options: o}
}

// Forward returns dl.AvgPool2d(x, Kernel, Options).
func (p *AvgPool2d) Forward(x *dl.Tensor) *dl.Tensor { return dl.AvgPool2d(x, p.Kernel, p.Options) }

// AdaptiveAvgPool2d averages each channel over an Output[0]×Output[1]
// grid of windows, like torch.nn.AdaptiveAvgPool2d; Output {1, 1} is the
// global average pooling of ResNet's head.  See dl.AdaptiveAvgPool2d.
type AdaptiveAvgPool2d struct {
	stateless
	Output [2]int
}

var _ Module = (*AdaptiveAvgPool2d)(nil)

// NewAdaptiveAvgPool2d returns an AdaptiveAvgPool2d with output size
// out.  It panics with a *dl.ValueError if a size is not positive.
func NewAdaptiveAvgPool2d(out [2]int) *AdaptiveAvgPool2d {
	if out[0] <= 0 || out[1] <= 0 {
		panic(&dl.ValueError{Op: "nn.NewAdaptiveAvgPool2d", Reason: fmt.Sprintf("output size %v", out), Fix: "use a positive output size ({1, 1} for global average pooling)"})
	}
	return &AdaptiveAvgPool2d{Output: out}
}

// Forward returns dl.AdaptiveAvgPool2d(x, Output).
func (p *AdaptiveAvgPool2d) Forward(x *dl.Tensor) *dl.Tensor {
	return dl.AdaptiveAvgPool2d(x, p.Output)
}

// Flatten reshapes [N, d1, d2, ...] to [N, d1·d2·...], keeping the batch
// axis, like torch.nn.Flatten() (start_dim=1, end_dim=-1): the bridge
// from convolutional feature maps to Linear layers.  It is a view (no
// copy) and differentiable.
type Flatten struct{ stateless }

var _ Module = Flatten{}

// Forward returns x reshaped to [N, rest].  It panics with a
// *dl.ShapeError for a scalar.
func (Flatten) Forward(x *dl.Tensor) *dl.Tensor {
	if x.Dims() == 0 {
		panic(&dl.ShapeError{Op: "nn.Flatten", Shapes: [][]int{x.Shape()}, Reason: "cannot flatten a scalar from axis 1",
			Fix: "pass a tensor with a batch axis"})
	}
	if x.Dims() == 1 {
		return x.Reshape(x.Size(0)) // nothing after the batch axis: torch returns the input as it is
	}
	return x.Reshape(x.Size(0), -1)
}
