package dl_test

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"testing"

	"github.com/dlbd/dlbd/dl"
	"github.com/dlbd/dlbd/dl/data"
	"github.com/dlbd/dlbd/dl/nn"
	"github.com/dlbd/dlbd/dl/optim"
)

// badInput is one case of issue 18's probe of dl with bad input: either
// the typed error it must panic with (want), or a check of its right
// answer (ok).
type badInput struct {
	name string
	fn   func() any     // the call; its result goes to ok
	want error          // the sentinel of the typed error, or nil
	ok   func(any) bool // the right answer, when want is nil
}

func shapeIs(dims ...int) func(any) bool {
	return func(r any) bool { t, _ := r.(*dl.Tensor); return t != nil && fmt.Sprint(t.Shape()) == fmt.Sprint(dims) }
}

func isNaN(r any) bool { f, _ := r.(float64); return math.IsNaN(f) }

// badInputs holds the cases.  Before the fixes, 8 of them were silently
// wrong, 5 runtime panics, 3 fatal crashes of the whole process (Zeros,
// Rand and Ones beyond the machine's memory), 4+ untyped string panics and
// 3 accepted what PyTorch refuses.
var badInputs = []badInput{
	// element counts: overflow, negative, beyond the machine
	{name: "Zeros(1<<32, 1<<32) overflows", fn: func() any { return dl.Zeros(1<<32, 1<<32) }, want: dl.ErrShape},
	{name: "Zeros(1<<32, 1<<32) on a capped Sim", fn: func() any {
		if err := dl.ConfigureSim(7, dl.SimConfig{Capacity: 1 << 30}); err != nil {
			return err
		}
		defer dl.ConfigureSim(7, dl.SimConfig{})
		return dl.Options{Device: dl.Sim(7)}.Zeros(1<<32, 1<<32)
	}, want: dl.ErrShape},
	{name: "Zeros(3, 1<<62) negative count", fn: func() any { return dl.Zeros(3, 1<<62) }, want: dl.ErrShape},
	{name: "Zeros(1<<31, 1<<31) bytes overflow", fn: func() any { return dl.Zeros(1<<31, 1<<31) }, want: dl.ErrShape},
	{name: "FromSlice(nil, 1<<32, 1<<32)", fn: func() any { return dl.FromSlice([]float32{}, 1<<32, 1<<32) }, want: dl.ErrShape},
	{name: "Reshape(1<<32, 1<<32) of an empty tensor", fn: func() any { return dl.Zeros(0).Reshape(1<<32, 1<<32) }, want: dl.ErrShape},
	{name: "Reshape(1<<32, 1<<32, 0) of an empty tensor", fn: func() any { return dl.Zeros(0).Reshape(1<<32, 1<<32, 0) }, ok: shapeIs(1<<32, 1<<32, 0)},
	{name: "Zeros(-1)", fn: func() any { return dl.Zeros(-1) }, want: dl.ErrShape},
	{name: "Rand(-1)", fn: func() any { return dl.Rand(-1) }, want: dl.ErrShape},
	{name: "Randn(-2, 3)", fn: func() any { return dl.Randn(-2, 3) }, want: dl.ErrShape},
	{name: "Zeros(1<<40) beyond the machine", fn: func() any { return dl.Zeros(1 << 40) }, want: dl.ErrOutOfMemory},
	{name: "Rand(1<<40) beyond the machine", fn: func() any { return dl.Rand(1 << 40) }, want: dl.ErrOutOfMemory},
	{name: "Ones(1<<20, 1<<20) beyond the machine", fn: func() any { return dl.Ones(1<<20, 1<<20) }, want: dl.ErrOutOfMemory},
	{name: "Zeros(1<<40) on an uncapped Sim", fn: func() any { return dl.Options{Device: dl.Sim(6)}.Zeros(1 << 40) }, want: dl.ErrOutOfMemory},
	{name: "Zeros(0, 5)", fn: func() any { return dl.Zeros(0, 5) }, ok: shapeIs(0, 5)},
	// ranges
	{name: "Arange(0, 1e15, 1)", fn: func() any { return dl.Arange(0, 1e15, 1) }, want: dl.ErrOutOfMemory},
	{name: "Arange(0, 1e300, 1e-300)", fn: func() any { return dl.Arange(0, 1e300, 1e-300) }, want: dl.ErrShape},
	{name: "Arange(0, Inf, 1)", fn: func() any { return dl.Arange(0, math.Inf(1), 1) }, want: dl.ErrValue},
	{name: "Arange(0, NaN, 1)", fn: func() any { return dl.Arange(0, math.NaN(), 1) }, want: dl.ErrValue},
	{name: "Arange(0, 10, -1) (PyTorch refuses)", fn: func() any { return dl.Arange(0, 10, -1) }, want: dl.ErrValue},
	{name: "Arange(0, 10, 0)", fn: func() any { return dl.Arange(0, 10, 0) }, want: dl.ErrValue},
	{name: "Arange(3, 3, 1) is empty", fn: func() any { return dl.Arange(3, 3, 1) }, ok: shapeIs(0)},
	{name: "Arange(10, 0, -3)", fn: func() any { return dl.Arange(10, 0, -3).Float32s() }, ok: func(r any) bool { return fmt.Sprint(r) == "[10 7 4 1]" }},
	{name: "Narrow with a huge start", fn: func() any { return dl.Zeros(4).Narrow(0, math.MaxInt-1, 4) }, want: dl.ErrShape},
	{name: "Narrow with a huge length", fn: func() any { return dl.Zeros(4).Narrow(0, 2, math.MaxInt) }, want: dl.ErrShape},
	{name: "Index(MaxInt)", fn: func() any { return dl.Zeros(4).Index(math.MaxInt) }, want: dl.ErrShape},
	{name: "Narrow(0, 4, 0) is empty", fn: func() any { return dl.Zeros(4).Narrow(0, 4, 0) }, ok: shapeIs(0)},
	// reductions
	{name: "Max of an empty tensor", fn: func() any { return dl.Zeros(0).Max(0) }, want: dl.ErrShape},
	{name: "ArgMax of an empty tensor", fn: func() any { return dl.Zeros(0).ArgMax(0) }, want: dl.ErrShape},
	{name: "Max over an empty axis", fn: func() any { return dl.Zeros(3, 0).Max(1) }, want: dl.ErrShape},
	{name: "Max of 0x3 over axis 1", fn: func() any { return dl.Zeros(0, 3).Max(1) }, ok: shapeIs(0)},
	{name: "Sum of an empty tensor is 0", fn: func() any { return dl.Zeros(0).Sum().Item() }, ok: func(r any) bool { return r == 0.0 }},
	{name: "Mean of an empty tensor is NaN", fn: func() any { return dl.Zeros(0).Mean().Item() }, ok: isNaN},
	{name: "Sum(0, 0) (PyTorch refuses)", fn: func() any { return dl.Zeros(2, 3).Sum(0, 0) }, want: dl.ErrShape},
	{name: "Sum(0, -2) names axis 0 twice", fn: func() any { return dl.Zeros(2, 3).Sum(0, -2) }, want: dl.ErrShape},
	// class indices
	{name: "float16 class target 2049 of 4096", fn: func() any {
		o := dl.Options{DType: dl.Float16}
		return dl.CrossEntropy(o.Zeros(1, 4096), o.FromFloat64s([]float64{2049}, 1))
	}, want: dl.ErrDType},
	{name: "bfloat16 class target of 512", fn: func() any {
		o := dl.Options{DType: dl.BFloat16}
		return dl.CrossEntropy(o.Zeros(1, 512), o.FromFloat64s([]float64{3}, 1))
	}, want: dl.ErrDType},
	{name: "float16 class target of 2049 classes", fn: func() any {
		o := dl.Options{DType: dl.Float16}
		return dl.CrossEntropy(o.Zeros(1, 2049), o.FromFloat64s([]float64{2048}, 1)).Item()
	}, ok: func(r any) bool { f, _ := r.(float64); return math.Abs(f-math.Log(2049)) < 1e-2 }},
	{name: "float16 embedding id of 4096 rows", fn: func() any {
		return nn.NewEmbedding(4096, 2, nn.InitConfig{}).Forward(dl.Options{DType: dl.Float16}.FromFloat64s([]float64{7}, 1))
	}, want: dl.ErrDType},
	{name: "CrossEntropy target 1.5", fn: func() any { return dl.CrossEntropy(dl.Zeros(1, 10), dl.FromSlice([]float32{1.5})) }, want: dl.ErrShape},
	{name: "CrossEntropy target NaN", fn: func() any {
		return dl.CrossEntropy(dl.Zeros(1, 10), dl.FromSlice([]float32{float32(math.NaN())}))
	}, want: dl.ErrShape},
	{name: "CrossEntropy target 10 of 10", fn: func() any { return dl.CrossEntropy(dl.Zeros(1, 10), dl.FromSlice([]float32{10})) }, want: dl.ErrShape},
	{name: "CrossEntropy with every target ignored is NaN", fn: func() any {
		return dl.CrossEntropy(dl.Zeros(1, 10), dl.FromSlice([]float32{-100})).Item()
	}, ok: isNaN},
	// nil tensors
	{name: "nil.Add(x)", fn: func() any { var n *dl.Tensor; return n.Add(dl.Zeros(2)) }, want: dl.ErrValue},
	{name: "x.Add(nil)", fn: func() any { return dl.Zeros(2).Add(nil) }, want: dl.ErrValue},
	{name: "nil.Shape()", fn: func() any { var n *dl.Tensor; return n.Shape() }, want: dl.ErrValue},
	{name: "x.MatMul(nil)", fn: func() any { return dl.Zeros(2, 2).MatMul(nil) }, want: dl.ErrValue},
	{name: "CrossEntropy(nil, y)", fn: func() any { return dl.CrossEntropy(nil, dl.Zeros(2)) }, want: dl.ErrValue},
	{name: "Cat with a nil", fn: func() any { return dl.Cat([]*dl.Tensor{dl.Zeros(2), nil}, 0) }, want: dl.ErrValue},
	{name: "nil.Release() is a no-op", fn: func() any { var n *dl.Tensor; n.Release(); return true }, ok: func(r any) bool { return r == true }},
	// constructors above dl
	{name: "nn.NewLinear(0, 3)", fn: func() any { return nn.NewLinear(0, 3, nn.LinearConfig{}) }, want: dl.ErrValue},
	{name: "nn.NewMLP([5])", fn: func() any { return nn.NewMLP([]int{5}, nn.MLPConfig{}) }, want: dl.ErrValue},
	{name: "nn.NewEmbedding(0, 3)", fn: func() any { return nn.NewEmbedding(0, 3, nn.InitConfig{}) }, want: dl.ErrValue},
	{name: "optim.NewSGD with LR -1", fn: func() any { return optim.NewSGD(nil, optim.SGDConfig{LR: -1}) }, want: dl.ErrValue},
	{name: "optim.NewSGD Nesterov without momentum", fn: func() any {
		return optim.NewSGD(nil, optim.SGDConfig{LR: 0.1, Nesterov: true})
	}, want: dl.ErrValue},
	{name: "optim.NewSGD of a non-leaf (PyTorch refuses)", fn: func() any {
		w := dl.Ones(2).SetRequiresGrad(true)
		return optim.NewSGD([]*dl.Tensor{w.Mul(w)}, optim.SGDConfig{LR: 0.1})
	}, want: dl.ErrValue},
	{name: "optim.WarmupCosine with Warmup >= Total", fn: func() any { return optim.WarmupCosine{Warmup: 10, Total: 5}.LR(0) }, want: dl.ErrValue},
	{name: "data.TensorDataset.Get(10) of 4", fn: func() any { return data.NewTensorDataset(dl.Zeros(4)).Get(10) }, want: dl.ErrShape},
	{name: "data.DistributedSampler Rank 2 of 2", fn: func() any {
		return data.DistributedSampler{N: 4, NumReplicas: 2, Rank: 2}.Indices(0)
	}, want: dl.ErrValue},
	// misuse that was already typed (kept so it stays so)
	{name: "Reshape(5) of 2x3", fn: func() any { return dl.Zeros(2, 3).Reshape(5) }, want: dl.ErrShape},
	{name: "Add dtype mismatch", fn: func() any { return dl.Zeros(2).Add(dl.Options{DType: dl.Float64}.Zeros(2)) }, want: dl.ErrDType},
	{name: "Add device mismatch", fn: func() any { return dl.Zeros(2).Add(dl.Options{Device: dl.Sim(1)}.Zeros(2)) }, want: dl.ErrDevice},
	{name: "Options{Device: Sim(100)}", fn: func() any { return dl.Options{Device: dl.Sim(100)}.Zeros(2) }, want: dl.ErrDevice},
	{name: "use after Release", fn: func() any { x := dl.Zeros(2); x.Release(); return x.Add(x) }, want: dl.ErrReleased},
	{name: "Backward of a tensor without grad", fn: func() any { dl.Ones(2).Sum().Backward(); return nil }, want: dl.ErrAutograd},
	{name: "Dropout p = 1", fn: func() any { return dl.Dropout(dl.Ones(3), 1, nil) }, want: dl.ErrShape},
	{name: "Div by zero is +Inf", fn: func() any { return dl.Ones(1).Div(dl.Zeros(1)).Float32s()[0] }, ok: func(r any) bool { return math.IsInf(float64(r.(float32)), 1) }},
}

// TestBadInput runs the table: every case either panics with its typed
// error or returns its right answer, never a runtime panic.
func TestBadInput(t *testing.T) {
	for _, tc := range badInputs {
		t.Run(tc.name, func(t *testing.T) {
			var got any
			var rec any
			func() {
				defer func() { rec = recover() }()
				got = tc.fn()
			}()
			if _, isRuntime := rec.(runtime.Error); isRuntime {
				t.Fatalf("runtime panic %v", rec)
			}
			err, _ := rec.(error)
			if rec != nil && err == nil {
				t.Fatalf("untyped panic %#v", rec)
			}
			if tc.want != nil {
				if !errors.Is(err, tc.want) || dl.Catch(func() { panic(err) }) == nil {
					t.Fatalf("got %v (panic %v); want a typed dl error wrapping %v", got, err, tc.want)
				}
				return
			}
			if err != nil || !tc.ok(got) {
				t.Fatalf("got %v (panic %v); want the right answer", got, err)
			}
		})
	}
}
