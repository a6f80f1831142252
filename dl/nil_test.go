package dl_test

import (
	"errors"
	"fmt"
	"runtime"
	"testing"

	"github.com/dlbd/dlbd/dl"
)

// TestNilTensor passes a nil *Tensor in each tensor argument of the public
// API: every call must panic with a *dl.ValueError naming the operation,
// not with the runtime's nil pointer dereference.
func TestNilTensor(t *testing.T) {
	var n *dl.Tensor
	x := func() *dl.Tensor { return dl.Ones(2, 2) }
	calls := map[string]func(){
		"Add(nil, x)": func() { n.Add(x()) }, "Add(x, nil)": func() { x().Add(n) },
		"Sub": func() { x().Sub(n) }, "Mul": func() { n.Mul(x()) }, "Div": func() { x().Div(n) },
		"Eq": func() { x().Eq(n) }, "Gt": func() { n.Gt(x()) }, "Lt": func() { x().Lt(n) },
		"AllClose": func() { dl.AllClose(x(), n, 0, 0) },
		"Neg":      func() { n.Neg() }, "AddScalar": func() { n.AddScalar(1) }, "SubScalar": func() { n.SubScalar(1) },
		"MulScalar": func() { n.MulScalar(1) }, "DivScalar": func() { n.DivScalar(1) },
		"ReLU": func() { n.ReLU() }, "Sigmoid": func() { n.Sigmoid() }, "Tanh": func() { n.Tanh() },
		"GELU": func() { n.GELU() }, "GELUTanh": func() { n.GELUTanh() }, "Exp": func() { n.Exp() },
		"Log": func() { n.Log() }, "Sqrt": func() { n.Sqrt() }, "Pow": func() { n.Pow(2) },
		"AddInPlace(nil)": func() { x().AddInPlace(n) }, "AddInPlace on nil": func() { n.AddInPlace(x()) },
		"SubInPlace": func() { x().SubInPlace(n) }, "MulInPlace": func() { x().MulInPlace(n) },
		"AddScaledInPlace": func() { x().AddScaledInPlace(2, n) },
		"ScaleInPlace":     func() { n.ScaleInPlace(2) }, "AddScalarInPlace": func() { n.AddScalarInPlace(2) },
		"FillInPlace": func() { n.FillInPlace(2) }, "ZeroInPlace": func() { n.ZeroInPlace() },
		"CopyInPlace":      func() { x().CopyInPlace(n) },
		"IndexSelect(nil)": func() { x().IndexSelect(n) }, "IndexSelect on nil": func() { n.IndexSelect(dl.Zeros(1)) },
		"OneHot": func() { dl.OneHot(n, 3) }, "Where": func() { dl.Where(x(), n, x()) },
		"MaskedFill": func() { x().MaskedFill(n, 0) }, "Max": func() { n.Max(0) }, "MaxKeepDim": func() { n.MaxKeepDim(0) },
		"ArgMax": func() { n.ArgMax(0) }, "LayerNorm": func() { dl.LayerNorm(n, x(), x(), 1e-5) },
		"Linear": func() { dl.Linear(n, x(), nil) }, "Linear weight": func() { dl.Linear(x(), n, nil) },
		"FusedLinear":          func() { dl.FusedLinear(n, x(), nil, dl.FuseReLU) },
		"CrossEntropy logits":  func() { dl.CrossEntropy(n, dl.Zeros(2)) },
		"CrossEntropy targets": func() { dl.CrossEntropy(x(), n) },
		"MSE":                  func() { dl.MSE(x(), n) }, "Dropout": func() { dl.Dropout(n, 0.5, nil) },
		"MatMul(nil)": func() { x().MatMul(n) }, "MatMul on nil": func() { n.MatMul(x()) },
		"Narrow": func() { n.Narrow(0, 0, 1) }, "Slice": func() { n.Slice(0, 1) }, "Index": func() { n.Index(0) },
		"Cat": func() { dl.Cat([]*dl.Tensor{x(), n}, 0) }, "Cat first": func() { dl.Cat([]*dl.Tensor{n, x()}, 0) },
		"Stack": func() { dl.Stack([]*dl.Tensor{x(), n}, 0) },
		"Sum":   func() { n.Sum() }, "SumKeepDim": func() { n.SumKeepDim(0) }, "Mean": func() { n.Mean() },
		"MeanKeepDim": func() { n.MeanKeepDim(0) }, "Reshape": func() { n.Reshape(4) }, "View": func() { n.View(4) },
		"Flatten": func() { n.Flatten() }, "Unsqueeze": func() { n.Unsqueeze(0) }, "Squeeze": func() { n.Squeeze() },
		"Permute": func() { n.Permute(1, 0) }, "Transpose": func() { n.Transpose(0, 1) }, "T": func() { n.T() },
		"Softmax": func() { n.Softmax(0) }, "LogSoftmax": func() { n.LogSoftmax(0) },
		"Shape": func() { n.Shape() }, "Dims": func() { n.Dims() }, "Size": func() { n.Size(0) },
		"Numel": func() { n.Numel() }, "DType": func() { n.DType() }, "Device": func() { n.Device() },
		"Bytes": func() { n.Bytes() }, "Released": func() { n.Released() }, "Retain": func() { n.Retain() },
		"Float32s": func() { n.Float32s() }, "Float64s": func() { n.Float64s() }, "Item": func() { n.Item() },
		"Float32Data": func() { n.Float32Data() }, "Float64Data": func() { n.Float64Data() },
		"Uint16Data": func() { n.Uint16Data() }, "To": func() { n.To(dl.CPU) }, "AsType": func() { n.AsType(dl.Float64) },
		"Clone": func() { n.Clone() }, "ZerosLike": func() { dl.ZerosLike(n) }, "OnesLike": func() { dl.OnesLike(n) },
		"Backward":        func() { n.Backward() },
		"SetRequiresGrad": func() { n.SetRequiresGrad(true) }, "RequiresGrad": func() { n.RequiresGrad() },
		"IsLeaf": func() { n.IsLeaf() }, "Grad": func() { n.Grad() }, "SetGrad on nil": func() { n.SetGrad(x()) },
		"ZeroGrad": func() { n.ZeroGrad() }, "Detach": func() { n.Detach() },
		"RegisterPostAccumulateGradHook": func() { n.RegisterPostAccumulateGradHook(func(*dl.Tensor) {}) },
	}
	for name, call := range calls {
		t.Run(name, func(t *testing.T) {
			defer func() {
				r := recover()
				if _, isRuntime := r.(runtime.Error); isRuntime {
					t.Fatalf("%s with a nil *Tensor: runtime panic %v; want a *dl.ValueError", name, r)
				}
				err, _ := r.(error)
				if !errors.Is(err, dl.ErrValue) {
					t.Fatalf("%s with a nil *Tensor: panic %v; want a *dl.ValueError", name, r)
				}
			}()
			call()
			t.Fatalf("%s with a nil *Tensor did not panic", name)
		})
	}
	n.Release() // a no-op, so that `defer t.Release()` is safe
	if got := fmt.Sprint(n); got != "<nil>" {
		t.Errorf("fmt.Sprint(nil *Tensor) = %q; want <nil>", got)
	}
}
