package dl_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/dlbd/dlbd/dl"
)

// TestHalfOpsStreamed: elementwise ops and row sums of half tensors on
// the CPU, which run band by band on float32 scratch (cpu_half.go),
// give the bits of the round trip they replace: the float32 op on the
// inputs cast to float32, cast back.  Sizes cross the bands (4096) and
// the pieces of dl's threads (32768 elements), on 1 and 3 threads.
func TestHalfOpsStreamed(t *testing.T) {
	const rows, cols = 301, 347 // 104447 elements: unary ops read their table (unaryTable)
	ops := map[string]func(a, b *dl.Tensor) *dl.Tensor{
		"GELU":      func(a, _ *dl.Tensor) *dl.Tensor { return a.GELU() },
		"GELU 4000": func(a, _ *dl.Tensor) *dl.Tensor { return a.Reshape(-1).Narrow(0, 0, 4000).GELU() }, // computed band by band
		"Sigmoid":   func(a, _ *dl.Tensor) *dl.Tensor { return a.Sigmoid() },
		"Sqrt":      func(a, _ *dl.Tensor) *dl.Tensor { return a.Sqrt() },
		"Tanh":      func(a, _ *dl.Tensor) *dl.Tensor { return a.Tanh() },
		"Exp":       func(a, _ *dl.Tensor) *dl.Tensor { return a.Exp() },
		"Add":       func(a, b *dl.Tensor) *dl.Tensor { return a.Add(b) },
		"Mul":       func(a, b *dl.Tensor) *dl.Tensor { return a.Mul(b) },
		"Div":       func(a, b *dl.Tensor) *dl.Tensor { return a.Div(b) },
		"AddScalar": func(a, _ *dl.Tensor) *dl.Tensor { return a.AddScalar(0.3) },
		"MulScalar": func(a, _ *dl.Tensor) *dl.Tensor { return a.MulScalar(-1.7) },
		"Sum(0)":    func(a, _ *dl.Tensor) *dl.Tensor { return a.Sum(0) },
		"Sum(1) 3D": func(a, _ *dl.Tensor) *dl.Tensor { return a.Reshape(7, 43, cols).Sum(1) },
		"GELU backward": func(a, _ *dl.Tensor) *dl.Tensor {
			x := a.Detach().SetRequiresGrad(true)
			x.GELU().Mul(a).Sum().Backward() // the gradient of GELU is g·GELU'(x) with g = a
			return x.Grad()
		},
	}
	for _, dt := range []dl.DType{dl.BFloat16, dl.Float16} {
		for _, threads := range []int{1, 3} {
			prev := dl.SetNumThreads(threads)
			o := dl.Options{Generator: dl.NewGenerator(5)}
			a32, b32 := o.Randn(rows, cols).MulScalar(2), o.Randn(rows, cols).AddScalar(3)
			a, b := a32.AsType(dt), b32.AsType(dt)
			for name, op := range ops {
				got := op(a, b)
				want := op(a.AsType(dl.Float32), b.AsType(dl.Float32)).AsType(dt)
				if got.DType() != dt {
					t.Fatalf("%s %v: result dtype %v; want %v", name, dt, got.DType(), dt)
				}
				g, w := got.Float32s(), want.Float32s()
				if len(g) != len(w) {
					t.Fatalf("%s %v: %d elements; want %d", name, dt, len(g), len(w))
				}
				for i := range w {
					if math.Float32bits(g[i]) != math.Float32bits(w[i]) && !(g[i] != g[i] && w[i] != w[i]) {
						t.Fatalf("%s %v threads=%d: element %d = %v; the float32 round trip gives %v", name, dt, threads, i, g[i], w[i])
					}
				}
			}
			dl.SetNumThreads(prev)
		}
	}
}

// ExampleTensor_GELU_bfloat16 shows a bfloat16 activation: computed in
// float32, rounded once to bfloat16.
func ExampleTensor_GELU_bfloat16() {
	x := dl.FromSlice([]float32{-1, 0, 1, 2}, 4).AsType(dl.BFloat16)
	fmt.Println(x.GELU().Float32s())
	// Output: [-0.15820312 0 0.83984375 1.953125]
}
