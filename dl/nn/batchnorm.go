package nn

import (
	"fmt"

	"github.com/dlbd/dlbd/dl"
)

// BatchNormConfig configures NewBatchNorm2d; the zero value is
// torch.nn.BatchNorm2d's defaults (momentum 0.1, eps 1e-5, affine,
// tracking running statistics, Float32 on CPU).
type BatchNormConfig struct {
	InitConfig
	Momentum float64 // weight of the batch in the running statistics; 0 means 0.1
	Eps      float64 // added to the variance; 0 means 1e-5
}

// BatchNorm2d normalises each channel of [N, C, H, W] inputs, like
// torch.nn.BatchNorm2d (see dl.BatchNorm): in training mode with the
// statistics of the batch, updating RunningMean and RunningVar (momentum
// 0.1, unbiased variance) and counting NumBatchesTracked; in evaluation
// mode with the running statistics.  Modules start in training mode, as
// in PyTorch.  Weight starts at ones and Bias at zeros, RunningMean at
// zeros and RunningVar at ones.
//
// The running statistics are buffers, not parameters: NamedParameters
// returns "weight" and "bias" (what an optimiser updates), NamedBuffers
// returns "running_mean", "running_var" and "num_batches_tracked" (an
// Int64 scalar), PyTorch's names.  StateDict, Save and Load hold both, as
// torch's state_dict does.
type BatchNorm2d struct {
	Weight, Bias            *dl.Tensor // [C], trained
	RunningMean, RunningVar *dl.Tensor // [C], updated in training mode
	NumBatchesTracked       *dl.Tensor // Int64 scalar: training-mode batches seen
	Momentum, Eps           float64
	eval                    bool
}

var (
	_ Module       = (*BatchNorm2d)(nil)
	_ BufferModule = (*BatchNorm2d)(nil)
)

// NewBatchNorm2d returns a BatchNorm2d over c channels.  It panics with a
// *dl.ValueError if c is not positive or the momentum is outside [0, 1].
func NewBatchNorm2d(c int, cfg BatchNormConfig) *BatchNorm2d {
	const op = "nn.NewBatchNorm2d"
	if c <= 0 {
		panic(&dl.ValueError{Op: op, Reason: fmt.Sprintf("%d channels", c), Fix: "use a positive channel count"})
	}
	mom, eps := cfg.Momentum, cfg.Eps
	if mom == 0 {
		mom = 0.1
	}
	if eps == 0 {
		eps = 1e-5
	}
	if mom < 0 || mom > 1 || eps < 0 {
		panic(&dl.ValueError{Op: op, Reason: fmt.Sprintf("momentum %v, eps %v", mom, eps), Fix: "use a momentum in (0, 1] and a non-negative eps"})
	}
	o := cfg.options()
	return &BatchNorm2d{
		Weight: o.Ones(c).SetRequiresGrad(true), Bias: o.Zeros(c).SetRequiresGrad(true),
		RunningMean: o.Zeros(c), RunningVar: o.Ones(c),
		NumBatchesTracked: dl.Options{DType: dl.Int64, Device: cfg.Device}.Zeros(),
		Momentum:          mom, Eps: eps,
	}
}

// Forward normalises x [N, C, H, W].  In training mode it also updates
// the running statistics and NumBatchesTracked.  It panics with a
// *dl.ShapeError unless x is 4-D with C channels.
func (b *BatchNorm2d) Forward(x *dl.Tensor) *dl.Tensor {
	if x.Dims() != 4 {
		panic(&dl.ShapeError{Op: "nn.BatchNorm2d", Shapes: [][]int{x.Shape()}, Reason: fmt.Sprintf("expected a 4-D input [N, C, H, W], got shape %v", x.Shape()),
			Fix: "use BatchNorm2d on convolutional feature maps (x.Unsqueeze(0) for a single image)"})
	}
	if b.eval {
		return dl.BatchNorm(x, b.RunningMean, b.RunningVar, b.Weight, b.Bias, false, b.Momentum, b.Eps)
	}
	y := dl.BatchNorm(x, b.RunningMean, b.RunningVar, b.Weight, b.Bias, true, b.Momentum, b.Eps)
	n := b.NumBatchesTracked.Int64s()[0] + 1
	next := dl.Options{DType: dl.Int64, Device: b.NumBatchesTracked.Device()}.FromInt64s([]int64{n})
	b.NumBatchesTracked.CopyInPlace(next)
	next.Release()
	return y
}

// NamedParameters returns "weight" and "bias".
func (b *BatchNorm2d) NamedParameters() []NamedParameter {
	return []NamedParameter{{"weight", b.Weight}, {"bias", b.Bias}}
}

// NamedBuffers returns "running_mean", "running_var" and
// "num_batches_tracked".
func (b *BatchNorm2d) NamedBuffers() []NamedParameter {
	return []NamedParameter{{"running_mean", b.RunningMean}, {"running_var", b.RunningVar}, {"num_batches_tracked", b.NumBatchesTracked}}
}

// SetTraining switches between batch statistics (training) and running
// statistics (evaluation).
func (b *BatchNorm2d) SetTraining(training bool) { b.eval = !training }
