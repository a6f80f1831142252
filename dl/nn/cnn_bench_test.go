package nn

import (
	"fmt"
	"testing"

	"github.com/dlbd/dlbd/dl"
	"github.com/dlbd/dlbd/dl/dltest"
	"github.com/dlbd/dlbd/dl/optim"
)

// The CNN benchmarks train on inputs shaped like an MNIST batch
// ([128, 1, 28, 28], 10 classes) filled with random values: the time of
// these dense kernels does not depend on the pixels.  Their PyTorch twins
// are in testdata/cnn_anchor.py.
const (
	cnnBatch   = 128
	cnnClasses = 10
)

// cnnNets are the networks of the CNN benchmarks, by name.
var cnnNets = []string{"lenet5", "resnet"}

// activationMeter adds the bytes of every output of the leaf modules it
// wraps: the sum of a forward pass's activations.
type activationMeter struct{ bytes int64 }

// meter wraps m so that its outputs are counted (nil meter: m itself).
func (a *activationMeter) meter(m Module) Module {
	if a == nil {
		return m
	}
	return metered{m, a}
}

type metered struct {
	Module
	into *activationMeter
}

func (m metered) Forward(x *dl.Tensor) *dl.Tensor {
	y := m.Module.Forward(x)
	m.into.bytes += int64(y.Numel()) * int64(y.DType().Size())
	return y
}

// newLeNet5 is LeCun et al.'s LeNet-5 as it is usually written for MNIST
// today: 5×5 convolutions with ReLU and 2×2 max pooling (6 channels with
// padding 2, then 16), and a 400-120-84-10 classifier.
func newLeNet5(ic InitConfig, a *activationMeter) *Sequential {
	cc := Conv2dConfig{InitConfig: ic}
	pad := cc
	pad.Padding = [2]int{2, 2}
	lc := LinearConfig{InitConfig: ic}
	m := a.meter
	return NewSequential(
		m(NewConv2d(1, 6, [2]int{5, 5}, pad)), m(ReLU()), m(NewMaxPool2d([2]int{2, 2}, dl.Pool2dOptions{})),
		m(NewConv2d(6, 16, [2]int{5, 5}, cc)), m(ReLU()), m(NewMaxPool2d([2]int{2, 2}, dl.Pool2dOptions{})),
		m(Flatten{}),
		m(NewLinear(400, 120, lc)), m(ReLU()),
		m(NewLinear(120, 84, lc)), m(ReLU()),
		m(NewLinear(84, cnnClasses, lc)))
}

// basicBlock is a ResNet basic block (He et al. 2016): two 3×3
// convolutions with BatchNorm, the input added back (through a 1×1
// convolution and BatchNorm where the shape changes), ReLU.
type basicBlock struct {
	main     *Sequential
	shortcut *Sequential // nil: identity
	relu     Module
}

func newBasicBlock(in, out, stride int, ic InitConfig, a *activationMeter) *basicBlock {
	conv := func(in, out, k, stride, pad int) Module {
		return a.meter(NewConv2d(in, out, [2]int{k, k}, Conv2dConfig{InitConfig: ic, Stride: [2]int{stride, stride},
			Padding: [2]int{pad, pad}, NoBias: true}))
	}
	bn := func(c int) Module { return a.meter(NewBatchNorm2d(c, BatchNormConfig{InitConfig: ic})) }
	b := &basicBlock{main: NewSequential(conv(in, out, 3, stride, 1), bn(out), a.meter(ReLU()), conv(out, out, 3, 1, 1), bn(out)),
		relu: ReLU()}
	if stride != 1 || in != out {
		b.shortcut = NewSequential(conv(in, out, 1, stride, 0), bn(out))
	}
	return b
}

func (b *basicBlock) Forward(x *dl.Tensor) *dl.Tensor {
	skip := x
	if b.shortcut != nil {
		skip = b.shortcut.Forward(x)
	}
	return b.relu.Forward(b.main.Forward(x).Add(skip))
}

func (b *basicBlock) NamedParameters() []NamedParameter {
	if b.shortcut == nil {
		return childParameters("", []Module{b.main})
	}
	return childParameters("", []Module{b.main, b.shortcut})
}

func (b *basicBlock) SetTraining(t bool) {
	b.main.SetTraining(t)
	if b.shortcut != nil {
		b.shortcut.SetTraining(t)
	}
}

// newSmallResNet is a small ResNet for 28×28 images: a 3×3 stem of 16
// channels with BatchNorm, three basic blocks (16 channels at 28×28, 32 at
// 14×14, 64 at 7×7), global average pooling and a linear classifier.
func newSmallResNet(ic InitConfig, a *activationMeter) *Sequential {
	m := a.meter
	block := func(in, out, stride int) Module {
		b := newBasicBlock(in, out, stride, ic, a)
		return m(b) // the block's output (after the addition and ReLU)
	}
	return NewSequential(
		m(NewConv2d(1, 16, [2]int{3, 3}, Conv2dConfig{InitConfig: ic, Padding: [2]int{1, 1}, NoBias: true})),
		m(NewBatchNorm2d(16, BatchNormConfig{InitConfig: ic})), m(ReLU()),
		block(16, 16, 1), block(16, 32, 2), block(32, 64, 2),
		m(NewAdaptiveAvgPool2d([2]int{1, 1})), m(Flatten{}),
		m(NewLinear(64, cnnClasses, LinearConfig{InitConfig: ic})))
}

func newCNN(name string, a *activationMeter) *Sequential {
	ic := InitConfig{Generator: dl.NewGenerator(0)}
	switch name {
	case "lenet5":
		return newLeNet5(ic, a)
	case "resnet":
		return newSmallResNet(ic, a)
	}
	panic("unknown benchmark network " + name)
}

// cnnData returns a random batch shaped like MNIST's and its labels.
func cnnData(batch int) (x, labels *dl.Tensor) {
	o := dl.Options{Generator: dl.NewGenerator(1)}
	return o.Randn(batch, 1, 28, 28), o.Randint(0, cnnClasses, batch)
}

// BenchmarkCNNStep times one training step of a CNN on a batch of 128
// MNIST-shaped images in float32: forward, cross-entropy, backward, SGD
// with momentum 0.9 (lr 0.01), the gradients released between steps as
// the anchor's zero_grad(set_to_none=True).  net=lenet5 is newLeNet5,
// net=resnet newSmallResNet (BatchNorm in training mode).  It reports
// ms/step and the step's peak memory above the resting state in MiB from
// dl's accounting (dltest.BenchTrainStep).  Its PyTorch anchor is
// testdata/cnn_anchor.py, case "cnn_step".
func BenchmarkCNNStep(b *testing.B) {
	for _, net := range cnnNets {
		for _, threads := range []int{1, 2} {
			b.Run(fmt.Sprintf("net=%s/threads=%d", net, threads), func(b *testing.B) {
				dltest.UseThreads(b, threads)
				model := newCNN(net, nil)
				params := Parameters(model)
				opt := optim.NewSGD(params, optim.SGDConfig{LR: 0.01, Momentum: 0.9})
				x, labels := cnnData(cnnBatch)
				step := func() {
					loss := dl.CrossEntropy(model.Forward(x), labels)
					loss.Backward()
					opt.Step()
					loss.Release()
				}
				dltest.BenchTrainStep(b, dl.CPU, params, step)
			})
		}
	}
}

// BenchmarkCNNInference times BenchmarkCNNStep's networks on one image
// (batch 1) in eval mode without autograd: the latency of a prediction.
// Its PyTorch anchor is testdata/cnn_anchor.py, case "cnn_infer".
func BenchmarkCNNInference(b *testing.B) {
	for _, net := range cnnNets {
		for _, threads := range []int{1, 2} {
			b.Run(fmt.Sprintf("net=%s/threads=%d", net, threads), func(b *testing.B) {
				dltest.UseThreads(b, threads)
				model := newCNN(net, nil)
				model.SetTraining(false)
				x, _ := cnnData(1)
				infer := func() { dl.NoGrad(func() { model.Forward(x).Release() }) }
				infer()
				b.ResetTimer()
				for b.Loop() {
					infer()
				}
			})
		}
	}
}

// BenchmarkCNNActivations reports, as "MiB", the sum of the outputs of
// every layer of BenchmarkCNNStep's networks in one forward pass on its
// batch: what a training step must keep for backward at most, the
// yardstick of the step's measured peak.  It times that forward pass.
func BenchmarkCNNActivations(b *testing.B) {
	for _, net := range cnnNets {
		b.Run("net="+net, func(b *testing.B) {
			a := &activationMeter{}
			model := newCNN(net, a)
			x, _ := cnnData(cnnBatch)
			var sum int64
			for b.Loop() {
				a.bytes = 0
				dl.NoGrad(func() { model.Forward(x).Release() })
				sum = a.bytes
			}
			b.ReportMetric(float64(sum)/(1<<20), "MiB")
		})
	}
}

// TestCNNBenchNets checks the benchmark networks: the output shapes, the
// parameter counts of the PyTorch twins in testdata/cnn_anchor.py, and
// that the activation meter counts every layer (LeNet-5 by hand).
func TestCNNBenchNets(t *testing.T) {
	for net, want := range map[string]int{"lenet5": 61706, "resnet": 77754} {
		model := newCNN(net, nil)
		x, _ := cnnData(2)
		if got := model.Forward(x).Shape(); len(got) != 2 || got[0] != 2 || got[1] != cnnClasses {
			t.Errorf("%s: output shape %v, want [2 10]", net, got)
		}
		n := 0
		for _, p := range Parameters(model) {
			n += p.Numel()
		}
		if n != want {
			t.Errorf("%s: %d parameters, want %d (as torch counts the anchor's twin)", net, n, want)
		}
	}
	a := &activationMeter{}
	x, _ := cnnData(1)
	dl.NoGrad(func() { newCNN("lenet5", a).Forward(x) })
	// conv1, ReLU and pool: 6·28·28 ×2 + 6·14·14; conv2, ReLU, pool:
	// 16·10·10 ×2 + 16·5·5; flatten 400; 120 ×2, 84 ×2, 10.
	want := 4 * (2*6*28*28 + 6*14*14 + 2*16*10*10 + 16*5*5 + 400 + 2*120 + 2*84 + 10)
	if a.bytes != int64(want) {
		t.Errorf("LeNet-5 activations on one image: %d bytes, want %d", a.bytes, want)
	}
}
