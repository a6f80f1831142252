package nn

import (
	"encoding/json"
	"math"
	"os"
	"slices"
	"testing"

	"github.com/dlbd/dlbd/dl"
)

// TestConvTorchReference compares dl's Conv2d, pools, BatchNorm and a
// small LeNet-like Sequential with PyTorch's results in float64 (outputs
// and gradients to 1e-12 relative), from testdata/conv_reference.json,
// which testdata/conv_reference.py writes with torch (run it again after
// changing the cases).
func TestConvTorchReference(t *testing.T) {
	raw, err := os.ReadFile("testdata/conv_reference.json")
	if err != nil {
		t.Fatal(err)
	}
	var ref struct {
		Torch string
		Cases []torchCase
	}
	if err := json.Unmarshal(raw, &ref); err != nil {
		t.Fatal(err)
	}
	if len(ref.Cases) == 0 {
		t.Fatal("no cases in testdata/conv_reference.json")
	}
	for _, c := range ref.Cases {
		t.Run(c.Name, func(t *testing.T) {
			for _, dev := range []dl.Device{dl.CPU, dl.Sim(0)} {
				c.check(t, dev)
			}
		})
	}
}

// refTensor is a tensor of the JSON file.
type refTensor struct {
	Shape []int
	Data  []float64
}

func (r *refTensor) on(dev dl.Device) *dl.Tensor {
	if r == nil {
		return nil
	}
	return dl.Options{DType: dl.Float64, Device: dev}.FromFloat64s(r.Data, r.Shape...)
}

type torchCase struct {
	Name, Op                          string
	X, W, B, Y, GY, GX, GW, GB        *refTensor
	Stride, Padding, Dilation, Kernel [2]int
	Output                            [2]int
	Groups                            int
	Training                          bool
	RunningMean                       *refTensor `json:"running_mean"`
	RunningVar                        *refTensor `json:"running_var"`
	RunningMeanAfter                  *refTensor `json:"running_mean_after"`
	RunningVarAfter                   *refTensor `json:"running_var_after"`
	// the model case
	Keys         []string
	State        map[string]*refTensor
	Grads        map[string]*refTensor
	BuffersAfter map[string]*refTensor `json:"buffers_after"`
	YEval        *refTensor            `json:"y_eval"`
}

// near fails unless got has want's shape and values to 1e-12 relative to
// the largest value.
func near(t *testing.T, name string, got *dl.Tensor, want *refTensor) {
	t.Helper()
	if !slices.Equal(got.Shape(), want.Shape) {
		t.Fatalf("%s has shape %v; torch %v", name, got.Shape(), want.Shape)
	}
	scale := 1.0
	for _, v := range want.Data {
		scale = math.Max(scale, math.Abs(v))
	}
	for i, v := range got.Float64s() {
		if d := math.Abs(v - want.Data[i]); !(d <= 1e-12*scale) {
			t.Fatalf("%s[%d] = %v; torch %v (difference %.3g)", name, i, v, want.Data[i], d)
		}
	}
}

func (c *torchCase) check(t *testing.T, dev dl.Device) {
	if c.Op == "model" {
		c.checkModel(t, dev)
		return
	}
	x := c.X.on(dev).SetRequiresGrad(true)
	var w, b, y *dl.Tensor
	if c.W != nil {
		w = c.W.on(dev).SetRequiresGrad(true)
	}
	if c.B != nil {
		b = c.B.on(dev).SetRequiresGrad(true)
	}
	var rm, rv *dl.Tensor
	switch c.Op {
	case "conv2d":
		y = dl.Conv2d(x, w, b, dl.Conv2dOptions{Stride: c.Stride, Padding: c.Padding, Dilation: c.Dilation, Groups: c.Groups})
	case "max_pool2d":
		y = dl.MaxPool2d(x, c.Kernel, dl.Pool2dOptions{Stride: c.Stride, Padding: c.Padding})
	case "avg_pool2d":
		y = dl.AvgPool2d(x, c.Kernel, dl.Pool2dOptions{Stride: c.Stride, Padding: c.Padding})
	case "adaptive_avg_pool2d":
		y = dl.AdaptiveAvgPool2d(x, c.Output)
	case "batch_norm":
		rm, rv = c.RunningMean.on(dev), c.RunningVar.on(dev)
		y = dl.BatchNorm(x, rm, rv, w, b, c.Training, 0.1, 1e-5)
	default:
		t.Fatalf("unknown op %q", c.Op)
	}
	near(t, "y", y, c.Y)
	y.BackwardWith(dl.BackwardOptions{Grad: c.GY.on(dev)})
	near(t, "dx", x.Grad(), c.GX)
	if w != nil {
		near(t, "dW", w.Grad(), c.GW)
	}
	if b != nil {
		near(t, "db", b.Grad(), c.GB)
	}
	if rm != nil {
		near(t, "running mean", rm, c.RunningMeanAfter)
		near(t, "running var", rv, c.RunningVarAfter)
	}
}

// checkModel builds the torch model's twin, loads torch's state dict into
// it by name (parameters and buffers, which must be exactly torch's
// keys), and compares a training step and an evaluation.
func (c *torchCase) checkModel(t *testing.T, dev dl.Device) {
	cfg := InitConfig{DType: dl.Float64, Device: dev}
	m := NewSequential(
		NewConv2d(1, 4, [2]int{3, 3}, Conv2dConfig{InitConfig: cfg, Padding: [2]int{1, 1}}),
		NewBatchNorm2d(4, BatchNormConfig{InitConfig: cfg}),
		ReLU(),
		NewMaxPool2d([2]int{2, 2}, dl.Pool2dOptions{}),
		NewConv2d(4, 6, [2]int{3, 3}, Conv2dConfig{InitConfig: cfg, Groups: 2}),
		NewAvgPool2d([2]int{2, 2}, dl.Pool2dOptions{Stride: [2]int{1, 1}}),
		NewAdaptiveAvgPool2d([2]int{1, 1}),
		Flatten{},
		NewLinear(6, 3, LinearConfig{InitConfig: cfg}),
	)
	entries := append(m.NamedParameters(), NamedBuffers(m)...)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name)
		st, ok := c.State[e.Name]
		if !ok {
			t.Fatalf("torch's state dict has no %q", e.Name)
		}
		src := st.on(dev)
		if e.Tensor.DType() == dl.Int64 {
			src = src.AsType(dl.Int64)
		}
		dl.NoGrad(func() { e.Tensor.CopyInPlace(src) })
	}
	if !slices.Equal(slices.Sorted(slices.Values(names)), slices.Sorted(slices.Values(c.Keys))) {
		t.Fatalf("parameters and buffers %v; torch's state dict %v", names, c.Keys)
	}
	Train(m)
	y := m.Forward(c.X.on(dev))
	near(t, "y (train)", y, c.Y)
	y.BackwardWith(dl.BackwardOptions{Grad: c.GY.on(dev)})
	for _, p := range m.NamedParameters() {
		near(t, "grad of "+p.Name, p.Tensor.Grad(), c.Grads[p.Name])
	}
	for _, b := range NamedBuffers(m) {
		near(t, b.Name+" after a training step", b.Tensor, c.BuffersAfter[b.Name])
	}
	Eval(m)
	var ye *dl.Tensor
	dl.NoGrad(func() { ye = m.Forward(c.X.on(dev)) })
	near(t, "y (eval)", ye, c.YEval)
}
