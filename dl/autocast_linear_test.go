package dl_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/dlbd/dlbd/dl"
	"github.com/dlbd/dlbd/dl/amp"
)

// TestAutocastLinearMatchesCasts checks Linear and FusedLinear under
// autocast against what autocast is defined to do: cast x, w and b to the
// autocast dtype with AsType (outside any scope), multiply the casts and
// let the gradients flow back through the AsTypes.  Output and every
// gradient must be identical bit for bit, for an input that requires grad
// (an activation) and one that does not (a data batch), with and
// without a bias.
func TestAutocastLinearMatchesCasts(t *testing.T) {
	for _, dt := range []dl.DType{dl.BFloat16, dl.Float16} {
		for _, c := range []struct {
			name          string
			xGrad, bias   bool
			fused         bool
			rows, in, out int
		}{
			{"activation", true, true, false, 37, 50, 29},
			{"data", false, true, false, 64, 33, 300},
			{"nobias", true, false, false, 5, 40, 7},
			{"fused", true, true, true, 48, 70, 65},
		} {
			t.Run(fmt.Sprintf("%v/%s", dt, c.name), func(t *testing.T) {
				o := dl.Options{Generator: dl.NewGenerator(3)}
				x := o.Randn(c.rows, c.in).SetRequiresGrad(c.xGrad)
				w := o.Randn(c.out, c.in).MulScalar(0.2).Detach().SetRequiresGrad(true)
				var b *dl.Tensor
				if c.bias {
					b = o.Randn(c.out).SetRequiresGrad(true)
				}
				lin := func(x, w, b *dl.Tensor) *dl.Tensor {
					if c.fused {
						return dl.FusedLinear(x, w, b, dl.FuseReLU)
					}
					return dl.Linear(x, w, b)
				}
				weights := o.Randn(c.rows, c.out) // a loss that weighs every output
				loss := func(y *dl.Tensor) *dl.Tensor { return y.AsType(dl.Float32).Mul(weights).Sum() }
				grads := func() []*dl.Tensor {
					var gs []*dl.Tensor
					for _, p := range []*dl.Tensor{x, w, b} {
						if p != nil && p.RequiresGrad() {
							gs = append(gs, p.Grad().AsType(dl.Float32).Clone())
							p.ZeroGrad()
						}
					}
					return gs
				}

				var y *dl.Tensor
				amp.Autocast(dt, func() { y = lin(x, w, b) })
				y.Retain()
				loss(y).Backward()
				got, gotGrads := y.AsType(dl.Float32).Clone(), grads()

				var bc *dl.Tensor
				if b != nil {
					bc = b.AsType(dt)
				}
				ref := lin(x.AsType(dt), w.AsType(dt), bc)
				ref.Retain()
				loss(ref).Backward()
				want, wantGrads := ref.AsType(dl.Float32), grads()

				if y.DType() != dt {
					t.Errorf("output dtype %v; want %v", y.DType(), dt)
				}
				same(t, "output", got, want)
				for i := range wantGrads {
					same(t, fmt.Sprintf("gradient %d", i), gotGrads[i], wantGrads[i])
				}
			})
		}
	}
}

func same(t *testing.T, what string, got, want *dl.Tensor) {
	t.Helper()
	g, w := got.Float32Data(), want.Float32Data()
	for i := range w {
		if math.Float32bits(g[i]) != math.Float32bits(w[i]) {
			t.Fatalf("%s[%d] = %v; want %v (the explicit casts)", what, i, g[i], w[i])
		}
	}
}
