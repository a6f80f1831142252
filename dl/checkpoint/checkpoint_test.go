package checkpoint_test

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/dlbd/dlbd/dl"
	"github.com/dlbd/dlbd/dl/amp"
	"github.com/dlbd/dlbd/dl/checkpoint"
	"github.com/dlbd/dlbd/dl/nn"
)

// dropoutNet is a float64 model with dropout drawn from both the default
// generator and a generator of its own.
func dropoutNet(gen *dl.Generator) []nn.Module {
	cfg := nn.LinearConfig{InitConfig: nn.InitConfig{DType: dl.Float64, Generator: dl.NewGenerator(1)}}
	return []nn.Module{
		nn.NewLinear(6, 8, cfg), nn.ReLU(), nn.NewDropout(0.3, nil),
		nn.NewLinear(8, 8, cfg), nn.Tanh(), nn.NewDropout(0.5, gen),
		nn.NewLinear(8, 8, cfg), nn.GELU(), nn.NewDropout(0.2, gen),
		nn.NewLinear(8, 3, cfg),
	}
}

// grads runs forward (plain or checkpointed) and backward from the same
// generator states and returns the output, the input gradient and every
// parameter gradient.
func grads(mods []nn.Module, gen *dl.Generator, forward func(x *dl.Tensor) *dl.Tensor) [][]float64 {
	dl.DefaultGenerator.ManualSeed(10)
	gen.ManualSeed(11)
	x := dl.Options{DType: dl.Float64, Generator: dl.NewGenerator(3)}.Randn(5, 6).SetRequiresGrad(true)
	for _, m := range mods {
		nn.ZeroGrad(m)
	}
	y := forward(x)
	out := [][]float64{y.Float64s()}
	y.Mul(y).Sum().Backward()
	out = append(out, x.Grad().Float64s())
	for _, m := range mods {
		for _, p := range nn.Parameters(m) {
			out = append(out, p.Grad().Float64s())
		}
	}
	out = append(out, []float64{float64(gen.Uint64() >> 12), float64(dl.DefaultGenerator.Uint64() >> 12)})
	return out
}

// TestCheckpointBitwise checks that checkpointed gradients (with dropout
// replayed) equal the plain ones bitwise in float64, and that the
// generators end where the plain run leaves them.
func TestCheckpointBitwise(t *testing.T) {
	gen := dl.NewGenerator(0)
	mods := dropoutNet(gen)
	plain := grads(mods, gen, nn.NewSequential(mods...).Forward)
	cases := map[string]func(x *dl.Tensor) *dl.Tensor{
		"CheckpointModule": func(x *dl.Tensor) *dl.Tensor { return checkpoint.CheckpointModule(nn.NewSequential(mods...), x) },
		"Checkpoint/func": func(x *dl.Tensor) *dl.Tensor {
			cfg := checkpoint.Config{Generators: []*dl.Generator{dl.DefaultGenerator, gen}}
			return checkpoint.CheckpointWith(cfg, func(in ...*dl.Tensor) []*dl.Tensor {
				return []*dl.Tensor{nn.NewSequential(mods...).Forward(in[0])}
			}, x)[0]
		},
	}
	for s := 1; s <= len(mods); s++ {
		cases[fmt.Sprintf("CheckpointSequential/segments=%d", s)] = func(x *dl.Tensor) *dl.Tensor {
			return checkpoint.CheckpointSequential(mods, s, x)
		}
	}
	for name, f := range cases {
		t.Run(name, func(t *testing.T) {
			got := grads(mods, gen, f)
			for i := range plain {
				if !slices.Equal(got[i], plain[i]) {
					t.Fatalf("result %d (0: output, 1: input gradient, then parameters, last: generators) differs:\n got %v\nwant %v", i, got[i], plain[i])
				}
			}
		})
	}
}

// TestCheckpointWithoutRNGStateDiffers shows why the generator state is
// replayed: without it the recomputed dropout masks differ.
func TestCheckpointWithoutRNGStateDiffers(t *testing.T) {
	gen := dl.NewGenerator(0)
	mods := dropoutNet(gen)
	plain := grads(mods, gen, nn.NewSequential(mods...).Forward)
	got := grads(mods, gen, func(x *dl.Tensor) *dl.Tensor {
		return checkpoint.CheckpointWith(checkpoint.Config{NoRNGState: true}, func(in ...*dl.Tensor) []*dl.Tensor {
			return []*dl.Tensor{nn.NewSequential(mods...).Forward(in[0])}
		}, x)[0]
	})
	if slices.Equal(got[1], plain[1]) {
		t.Error("with NoRNGState the input gradient still equals the plain one; dropout was not redrawn")
	}
}

// TestCheckpointSeveralInputsAndOutputs checks a Func of two tensors with
// two outputs, one of which passes an input through.
func TestCheckpointSeveralInputsAndOutputs(t *testing.T) {
	o := dl.Options{DType: dl.Float64, Generator: dl.NewGenerator(4)}
	w := o.Randn(4, 4).SetRequiresGrad(true)
	fn := func(in ...*dl.Tensor) []*dl.Tensor {
		return []*dl.Tensor{dl.Linear(in[0], w, nil).Tanh().Mul(in[1]), in[1]}
	}
	run := func(ckpt bool) [][]float64 {
		w.ZeroGrad()
		a := dl.Options{DType: dl.Float64, Generator: dl.NewGenerator(5)}.Randn(3, 4).SetRequiresGrad(true)
		b := dl.Options{DType: dl.Float64, Generator: dl.NewGenerator(6)}.Randn(3, 4).SetRequiresGrad(true)
		var outs []*dl.Tensor
		if ckpt {
			outs = checkpoint.Checkpoint(fn, a, b)
		} else {
			outs = fn(a, b)
		}
		outs[0].Sum().Add(outs[1].Pow(2).Sum()).Backward()
		return [][]float64{a.Grad().Float64s(), b.Grad().Float64s(), w.Grad().Float64s()}
	}
	plain, ckpt := run(false), run(true)
	for i := range plain {
		if !slices.Equal(plain[i], ckpt[i]) {
			t.Errorf("gradient %d: checkpointed %v; plain %v", i, ckpt[i], plain[i])
		}
	}
}

// TestCheckpointReplaysAutocast checks that the recomputation runs under
// the autocast dtype of the forward pass, even though Backward runs
// outside the scope.
func TestCheckpointReplaysAutocast(t *testing.T) {
	o := dl.Options{Generator: dl.NewGenerator(7)}
	w := o.Randn(4, 4).SetRequiresGrad(true)
	fn := func(in ...*dl.Tensor) []*dl.Tensor { return []*dl.Tensor{dl.Linear(in[0], w, nil).ReLU()} }
	run := func(ckpt bool) []float32 {
		w.ZeroGrad()
		x := o.Randn(3, 4)
		var y *dl.Tensor
		amp.Autocast(dl.BFloat16, func() {
			if ckpt {
				y = checkpoint.Checkpoint(fn, x)[0]
			} else {
				y = fn(x)[0]
			}
		})
		y.AsType(dl.Float32).Sum().Backward()
		return w.Grad().Float32s()
	}
	o.Generator.ManualSeed(1)
	plain := run(false)
	o.Generator.ManualSeed(1)
	if ckpt := run(true); !slices.Equal(plain, ckpt) {
		t.Errorf("checkpointed bfloat16 gradient %v; plain %v", ckpt, plain)
	}
}

func TestCheckpointSequentialSegmentsError(t *testing.T) {
	defer func() {
		err, _ := recover().(error)
		if want := "dl: checkpoint.CheckpointSequential: invalid value: 3 segments for 2 modules; use 1 <= segments <= 2"; !errors.Is(err, dl.ErrValue) || err.Error() != want {
			t.Errorf("panic %v; want a *dl.ValueError %q", err, want)
		}
	}()
	checkpoint.CheckpointSequential([]nn.Module{nn.ReLU(), nn.ReLU()}, 3, dl.Ones(2))
}
