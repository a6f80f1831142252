package dl_test

import (
	"slices"
	"testing"

	"github.com/dlbd/dlbd/dl"
	"github.com/dlbd/dlbd/dl/amp"
)

// TestAutocastPolicy runs every op of dl.AutocastOps under autocast and
// checks the dtype of its result and of the gradients that reach the
// float32 leaves.  An op added to the lists without a case here fails.
func TestAutocastPolicy(t *testing.T) {
	o := dl.Options{Generator: dl.NewGenerator(1)}
	x := o.Rand(4, 6).AddScalar(0.5).Detach().SetRequiresGrad(true) // positive, for Log and Pow
	w := o.Randn(3, 6).SetRequiresGrad(true)
	b := o.Randn(3).SetRequiresGrad(true)
	targets := dl.FromSlice([]float32{0, 2, 1, 2})
	half := func() *dl.Tensor { return x.AsType(dl.BFloat16) } // a half activation
	ops := map[string]func() *dl.Tensor{
		"MatMul":       func() *dl.Tensor { return x.MatMul(w.Reshape(6, 3)) },
		"MatMulWith":   func() *dl.Tensor { return dl.MatMulWith(dl.MatMulNaive, x, w.Reshape(6, 3)) },
		"Linear":       func() *dl.Tensor { return dl.Linear(x, w, b) },
		"FusedLinear":  func() *dl.Tensor { return dl.FusedLinear(x, w, b, dl.FuseReLU) },
		"Conv2d":       func() *dl.Tensor { return conv2dAutocastCase(x, w, b) },
		"Softmax":      func() *dl.Tensor { return half().Softmax(-1) },
		"LogSoftmax":   func() *dl.Tensor { return half().LogSoftmax(-1) },
		"LayerNorm":    func() *dl.Tensor { return dl.LayerNorm(half(), nil, nil, 1e-5) },
		"Sum":          func() *dl.Tensor { return half().Sum(1) },
		"SumKeepDim":   func() *dl.Tensor { return half().SumKeepDim(1) },
		"Mean":         func() *dl.Tensor { return half().Mean() },
		"MeanKeepDim":  func() *dl.Tensor { return half().MeanKeepDim(0) },
		"Exp":          func() *dl.Tensor { return half().Exp() },
		"Log":          func() *dl.Tensor { return half().Log() },
		"Pow":          func() *dl.Tensor { return half().Pow(3) },
		"CrossEntropy": func() *dl.Tensor { return dl.CrossEntropy(dl.Linear(x, w, b), targets) },
		"MSE":          func() *dl.Tensor { return dl.MSE(half(), x) },
		"Add":          func() *dl.Tensor { return half().Add(x) },
		"Sub":          func() *dl.Tensor { return x.Sub(half()) },
		"Mul":          func() *dl.Tensor { return half().Mul(x) },
		"Div":          func() *dl.Tensor { return x.Div(half()) },
	}
	pol := dl.AutocastOps()
	for _, list := range []struct {
		name  string
		ops   []string
		dtype dl.DType // of the result under BFloat16 autocast
	}{{"LowPrecision", pol.LowPrecision, dl.BFloat16}, {"Float32", pol.Float32, dl.Float32}, {"Promote", pol.Promote, dl.Float32}} {
		for _, name := range list.ops {
			t.Run(list.name+"/"+name, func(t *testing.T) {
				f, ok := ops[name]
				if !ok {
					t.Fatalf("no test case for %s", name)
				}
				var y *dl.Tensor
				amp.Autocast(dl.BFloat16, func() { y = f() })
				if y.DType() != list.dtype {
					t.Fatalf("%s under bfloat16 autocast returned %v; want %v", name, y.DType(), list.dtype)
				}
				for _, p := range []*dl.Tensor{x, w, b} {
					p.ZeroGrad()
				}
				y.AsType(dl.Float32).Sum().Backward() // outside the scope, as in torch
				for _, p := range []*dl.Tensor{x, w, b} {
					if g := p.Grad(); g != nil && g.DType() != dl.Float32 {
						t.Errorf("gradient of a float32 leaf has dtype %v; want float32", g.DType())
					}
				}
				if x.Grad() == nil {
					t.Errorf("no gradient reached the input through %s", name)
				}
			})
		}
	}
}

// dtypeProbe is an identity Function that records the dtype of the
// gradient it receives: what flows back through an activation.
type dtypeProbe struct{ got *dl.DType }

func (p dtypeProbe) Forward(_ *dl.FunctionContext, in ...*dl.Tensor) []*dl.Tensor {
	return []*dl.Tensor{in[0]}
}

func (p dtypeProbe) Backward(_ *dl.FunctionContext, g ...*dl.Tensor) []*dl.Tensor {
	*p.got = g[0].DType()
	return []*dl.Tensor{g[0]}
}

// TestAutocastGradientDType checks that the gradient of a half activation
// is half (the backward runs in the forward's dtype), while float32
// master weights get float32 gradients.
func TestAutocastGradientDType(t *testing.T) {
	for _, dt := range []dl.DType{dl.Float16, dl.BFloat16} {
		o := dl.Options{Generator: dl.NewGenerator(2)}
		x := o.Randn(8, 5)
		w1 := o.Randn(4, 5).SetRequiresGrad(true)
		w2 := o.Randn(2, 4).SetRequiresGrad(true)
		var got dl.DType
		var loss *dl.Tensor
		amp.Autocast(dt, func() {
			h := dl.Apply(dtypeProbe{&got}, dl.Linear(x, w1, nil).ReLU())[0]
			loss = dl.CrossEntropy(dl.Linear(h, w2, nil), dl.Zeros(8))
		})
		if loss.DType() != dl.Float32 {
			t.Errorf("%v: loss dtype %v; want float32", dt, loss.DType())
		}
		loss.Backward()
		if got != dt {
			t.Errorf("%v: the gradient of the hidden activation has dtype %v; want %v", dt, got, dt)
		}
		if !slices.Equal([]dl.DType{w1.Grad().DType(), w2.Grad().DType()}, []dl.DType{dl.Float32, dl.Float32}) {
			t.Errorf("%v: weight gradients %v, %v; want float32", dt, w1.Grad().DType(), w2.Grad().DType())
		}
	}
}

// TestAutocastIsGoroutineLocal checks that a goroutine started inside an
// autocast scope computes in float32, like a thread under torch.autocast.
func TestAutocastIsGoroutineLocal(t *testing.T) {
	a, b := dl.Ones(2, 2), dl.Ones(2, 2)
	var inside, other dl.DType
	amp.Autocast(dl.Float16, func() {
		inside = a.MatMul(b).DType()
		done := make(chan struct{})
		go func() { other = a.MatMul(b).DType(); close(done) }()
		<-done
	})
	if inside != dl.Float16 || other != dl.Float32 {
		t.Errorf("MatMul dtypes: in scope %v, in a goroutine started in it %v; want float16 and float32", inside, other)
	}
}
