package parallel_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/dlbd/dlbd/dl"
	"github.com/dlbd/dlbd/dl/dist"
	"github.com/dlbd/dlbd/dl/nn"
	"github.com/dlbd/dlbd/dl/parallel"
)

// rowBlocks returns the rows [s, s+k) of t for each s in starts,
// concatenated; colBlock the columns [s, s+k).
func rowBlocks(t *dl.Tensor, starts []int, k int) *dl.Tensor {
	parts := make([]*dl.Tensor, len(starts))
	for i, s := range starts {
		parts[i] = t.Narrow(0, s, k)
	}
	return dl.Cat(parts, 0)
}

func colBlock(t *dl.Tensor, s, k int) *dl.Tensor { return t.Narrow(1, s, k) }

// checkClose reports an error unless got ≈ want (float64 round-off).
func checkClose(t *testing.T, what string, got, want *dl.Tensor) {
	t.Helper()
	if !dl.AllClose(got.To(dl.CPU), want, 1e-10, 1e-12) {
		t.Errorf("%s: tensor-parallel result differs from the dense layer's (shapes %v, %v)", what, got.Shape(), want.Shape())
	}
}

// loss is Σ out·w for a fixed random w: every output element matters.
func loss(out *dl.Tensor) *dl.Tensor {
	w := dl.Options{DType: dl.Float64, Device: out.Device(), Generator: dl.NewGenerator(99)}.Randn(out.Shape()...)
	return out.Mul(w).Sum()
}

func TestTPLinearMatchesLinear(t *testing.T) {
	for _, tp := range []int{2, 4} {
		t.Run(fmt.Sprintf("tp=%d", tp), func(t *testing.T) {
			cfg := nn.LinearConfig{InitConfig: nn.InitConfig{DType: dl.Float64, Generator: dl.NewGenerator(1)}}
			col, row := nn.NewLinear(8, 12, cfg), nn.NewLinear(12, 8, cfg)
			x := dl.Options{DType: dl.Float64, Generator: dl.NewGenerator(2)}.Randn(5, 8).SetRequiresGrad(true)
			h := col.Forward(x).Retain()
			out := row.Forward(h).Retain()
			loss(out).Backward()
			hd := h.Detach()
			err := dist.Run(tp, func(r *dist.Rank) error {
				k := 12 / tp
				// Column-parallel with gather: the full hidden output.
				c := parallel.NewColumnParallelLinear(col, r, true)
				xr := x.Detach().Clone().To(r.Device()).SetRequiresGrad(true)
				hr := c.Forward(xr)
				checkClose(t, "column-parallel output", hr, hd)
				// Row-parallel on this rank's slice of the hidden input.
				rp := parallel.NewRowParallelLinear(row, r)
				in := colBlock(hd, r.Rank()*k, k).To(r.Device())
				checkClose(t, "row-parallel output", rp.Forward(in), out.Detach())
				loss(rp.Forward(colBlock(hr, r.Rank()*k, k))).Backward()
				checkClose(t, "input gradient", xr.Grad(), x.Grad())
				checkClose(t, "column-parallel weight gradient", c.Weight.Grad(), rowBlocks(col.Weight.Grad(), []int{r.Rank() * k}, k))
				checkClose(t, "column-parallel bias gradient", c.Bias.Grad(), rowBlocks(col.Bias.Grad(), []int{r.Rank() * k}, k))
				checkClose(t, "row-parallel weight gradient", rp.Weight.Grad(), colBlock(row.Weight.Grad(), r.Rank()*k, k))
				checkClose(t, "row-parallel bias gradient", rp.Bias.Grad(), row.Bias.Grad())
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
		})
	}
}

// allReduces counts the all-reduce records of g.
func allReduces(g *dist.Group) int {
	n := 0
	for _, rec := range g.Records() {
		if rec.Collective == "all-reduce" {
			n++
		}
	}
	return n
}

// TestTPBlockMatchesBlock compares a tensor-parallel Transformer block
// with the dense nn.Block (output, input gradient, every parameter's
// gradient) and counts its all-reduces: 2 in forward, 2 in backward.
func TestTPBlockMatchesBlock(t *testing.T) {
	const d, heads, bs, seq = 16, 4, 2, 5
	for _, tp := range []int{2, 4} {
		t.Run(fmt.Sprintf("tp=%d", tp), func(t *testing.T) {
			b := nn.NewBlock(nn.BlockConfig{Dim: d, Heads: heads, InitConfig: nn.InitConfig{DType: dl.Float64, Generator: dl.NewGenerator(4)}})
			x := dl.Options{DType: dl.Float64, Generator: dl.NewGenerator(5)}.Randn(bs, seq, d).SetRequiresGrad(true)
			out := b.Forward(x).Retain()
			loss(out).Backward()
			var fwd, bwd int
			err := dist.Run(tp, func(r *dist.Rank) error {
				tb := parallel.NewTPBlock(b, r)
				xr := x.Detach().Clone().To(r.Device()).SetRequiresGrad(true)
				if err := r.Barrier(); err != nil {
					return err
				}
				n0 := allReduces(r.Group())
				y := tb.Forward(xr).Retain()
				if err := r.Barrier(); err != nil {
					return err
				}
				n1 := allReduces(r.Group())
				loss(y).Backward()
				if err := r.Barrier(); err != nil {
					return err
				}
				if r.Rank() == 0 {
					fwd, bwd = n1-n0, allReduces(r.Group())-n1
				}
				checkClose(t, "block output", y, out.Detach())
				checkClose(t, "input gradient", xr.Grad(), x.Grad())
				k, hid := d/tp, 4*d/tp
				qkv := []int{r.Rank() * k, d + r.Rank()*k, 2*d + r.Rank()*k}
				checkClose(t, "qkv weight gradient", tb.Attn.QKV.Weight.Grad(), rowBlocks(b.QKV.Weight.Grad(), qkv, k))
				checkClose(t, "qkv bias gradient", tb.Attn.QKV.Bias.Grad(), rowBlocks(b.QKV.Bias.Grad(), qkv, k))
				checkClose(t, "proj weight gradient", tb.Attn.Proj.Weight.Grad(), colBlock(b.Proj.Weight.Grad(), r.Rank()*k, k))
				checkClose(t, "proj bias gradient", tb.Attn.Proj.Bias.Grad(), b.Proj.Bias.Grad())
				fc1, fc2 := b.MLP.Modules[0].(*nn.Linear), b.MLP.Modules[2].(*nn.Linear)
				checkClose(t, "fc1 weight gradient", tb.MLP.FC1.Weight.Grad(), rowBlocks(fc1.Weight.Grad(), []int{r.Rank() * hid}, hid))
				checkClose(t, "fc2 weight gradient", tb.MLP.FC2.Weight.Grad(), colBlock(fc2.Weight.Grad(), r.Rank()*hid, hid))
				checkClose(t, "ln1 weight gradient", tb.LN1.Weight.Grad(), b.LN1.Weight.Grad())
				checkClose(t, "ln2 bias gradient", tb.LN2.Bias.Grad(), b.LN2.Bias.Grad())
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if fwd != 2 || bwd != 2 {
				t.Errorf("a tensor-parallel block ran %d all-reduces in forward and %d in backward; want 2 and 2 (g twice, f twice)", fwd, bwd)
			}
		})
	}
}

func TestTPDegreeMustDivide(t *testing.T) {
	err := dist.Run(3, func(r *dist.Rank) error {
		l := nn.NewLinear(4, 8, nn.LinearConfig{})
		return dl.Catch(func() { parallel.NewColumnParallelLinear(l, r, false) })
	})
	if err == nil {
		t.Fatal("splitting 8 output features 3 ways did not fail")
	}
}

// TestTPModelErrors checks that the tensor-parallel constructors refuse,
// with a *parallel.ModelError, the models they cannot split (before they
// touch the rank, so none is needed here).
func TestTPModelErrors(t *testing.T) {
	lin := func() *nn.Linear { return nn.NewLinear(4, 4, nn.LinearConfig{}) }
	for _, tc := range []struct {
		name string
		fn   func()
	}{
		{name: "block-with-dropout", fn: func() {
			parallel.NewTPBlock(nn.NewBlock(nn.BlockConfig{Dim: 8, Heads: 2, Dropout: 0.1}), nil)
		}},
		{name: "mlp-of-2", fn: func() { parallel.NewParallelMLP(nn.NewSequential(lin(), lin()), nil) }},
		{name: "mlp-empty", fn: func() { parallel.NewParallelMLP(nn.NewSequential(), nil) }},
		{name: "mlp-first-not-linear", fn: func() {
			parallel.NewParallelMLP(nn.NewSequential(nn.NewSequential(), lin(), lin()), nil)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				var me *parallel.ModelError
				e, _ := recover().(error)
				if !errors.As(e, &me) || !errors.Is(e, parallel.ErrModel) {
					t.Errorf("panicked with %v; want a *parallel.ModelError", e)
				}
			}()
			tc.fn()
		})
	}
}
