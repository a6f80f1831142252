package plan_test

import (
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/dlbd/dlbd/dl"
	"github.com/dlbd/dlbd/dl/dist"
	"github.com/dlbd/dlbd/dl/dltest"
	"github.com/dlbd/dlbd/dl/nn"
	"github.com/dlbd/dlbd/dl/parallel"
	"github.com/dlbd/dlbd/dl/plan"
)

// tinyGPT is a GPT-2/3-shaped decoder (learned positions, LayerNorm with
// biases, output head tied to the token embedding): the layout of
// plan.Model with Biases, LearnedPositions and TiedEmbeddings, small
// enough to train here.
type tinyGPT struct {
	Tok, Pos *nn.Embedding
	Blocks   []*nn.Block
	LN       *nn.LayerNorm
}

func newTinyGPT(m plan.Model, seed uint64) *tinyGPT {
	ic := nn.InitConfig{Generator: dl.NewGenerator(seed)}
	g := &tinyGPT{Tok: nn.NewEmbedding(m.Vocab, m.Hidden, ic), Pos: nn.NewEmbedding(m.SeqLen, m.Hidden, ic), LN: nn.NewLayerNorm(m.Hidden, ic)}
	for range m.Layers {
		g.Blocks = append(g.Blocks, nn.NewBlock(nn.BlockConfig{Dim: m.Hidden, Heads: m.Heads, InitConfig: ic}))
	}
	return g
}

// Forward maps token ids [B, T] to logits [B, T, V].
func (g *tinyGPT) Forward(ids *dl.Tensor) *dl.Tensor {
	t := ids.Size(1)
	x := g.Tok.Forward(ids).Add(g.Pos.Weight.Narrow(0, 0, t))
	for _, b := range g.Blocks {
		x = b.Forward(x)
	}
	return g.LN.Forward(x).MatMul(g.Tok.Weight.T())
}

func (g *tinyGPT) NamedParameters() []nn.NamedParameter {
	ps := []nn.NamedParameter{{Name: "tok.weight", Tensor: g.Tok.Weight}, {Name: "pos.weight", Tensor: g.Pos.Weight}}
	for i, b := range g.Blocks {
		for _, p := range b.NamedParameters() {
			ps = append(ps, nn.NamedParameter{Name: fmt.Sprintf("blocks.%d.%s", i, p.Name), Tensor: p.Tensor})
		}
	}
	return append(ps, nn.NamedParameter{Name: "ln.weight", Tensor: g.LN.Weight}, nn.NamedParameter{Name: "ln.bias", Tensor: g.LN.Bias})
}

func (g *tinyGPT) SetTraining(bool) {}

// tinyConfig is the plan.Model of tinyGPT: Ψ = 1,920 = 8·240, so it shards
// over 4 ranks without padding.
var tinyConfig = plan.Model{Name: "tiny GPT", Layers: 2, Hidden: 8, Heads: 2, Vocab: 16, SeqLen: 4,
	Biases: true, LearnedPositions: true, TiedEmbeddings: true, Source: "this test"}

// settled returns dev's allocated bytes once the garbage collector has
// freed tensors that were dropped without Release (nn.Block drops its
// causal mask each forward; runtime cleanups free such tensors after a
// GC, asynchronously): the bytes of the live tensors.
func settled(dev dl.Device) int64 {
	last, same := int64(-1), 0
	for same < 3 {
		runtime.GC()
		time.Sleep(time.Millisecond)
		if a := dl.MemoryStats(dev).Allocated; a == last {
			same++
		} else {
			last, same = a, 0
		}
	}
	return last
}

func TestValidateParamCount(t *testing.T) {
	if got, want := nn.NumParams(newTinyGPT(tinyConfig, 1)), tinyConfig.Params().Total; int64(got) != want {
		t.Fatalf("the nn model has %d parameters; plan.Model.Params counts %d", got, want)
	}
}

// TestValidateZeROMemory trains the tiny GPT with ZeRO stages 0–3 on 4
// simulated devices and compares each rank's measured model states
// (device accounting) with plan.MemoryPerGPU for the same strategy.
func TestValidateZeROMemory(t *testing.T) {
	dltest.HoldGC(t) // figures below are exact only without GC cleanups of other tests' tensors
	const n = 4
	if err := dl.ConfigureSim(40+4*n-1, dl.SimConfig{}); err != nil {
		t.Fatal(err)
	}
	for stage := range 4 {
		t.Run(fmt.Sprintf("zero=%d", stage), func(t *testing.T) {
			devs := make([]dl.Device, n)
			for i := range devs {
				devs[i] = dl.Sim(40 + 4*stage + i) // fresh devices: no other test's tensors
			}
			g, err := dist.New(dist.Config{WorldSize: n, Devices: devs})
			if err != nil {
				t.Fatal(err)
			}
			got := make([]int64, n)
			err = g.Run(func(r *dist.Rank) error {
				dev := r.Device()
				m := newTinyGPT(tinyConfig, 1)
				if err := parallel.ModuleTo(m, dev); err != nil {
					return err
				}
				base := settled(dev) - int64(4*nn.NumParams(m)) // NewZeRO releases these
				z, err := parallel.NewZeRO(m, r, parallel.ZeROConfig{Stage: stage})
				if err != nil {
					return err
				}
				o := dl.Options{Device: dev}
				ids := o.FromFloat64s([]float64{1, 2, 3, 4, 5, 6, 7, 8}, 2, 4)
				next := o.FromFloat64s([]float64{2, 3, 4, 5, 6, 7, 8, 9}, 8)
				logits := z.Forward(ids)
				flat := logits.Reshape(8, tinyConfig.Vocab)
				loss := dl.CrossEntropy(flat, next)
				loss.Backward()
				for _, t := range []*dl.Tensor{loss, flat, ids, next} {
					t.Release()
				}
				if err := z.Step(); err != nil {
					return err
				}
				got[r.Rank()] = settled(dev) - base
				runtime.KeepAlive(z) // z's tensors must stay reachable while settled runs the GC
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			mem, err := plan.MemoryPerGPU(tinyConfig, plan.Strategy{DP: n, ZeRO: plan.ZeROStage(stage), Precision: plan.FP32Adam})
			if err != nil {
				t.Fatal(err)
			}
			want := mem.Weights + mem.Gradients + mem.Optimizer
			for r, b := range got {
				if float64(b) != want {
					t.Errorf("rank %d: measured %d bytes of model states; plan.MemoryPerGPU says %.0f (weights %.0f, gradients %.0f, optimizer %.0f)",
						r, b, want, mem.Weights, mem.Gradients, mem.Optimizer)
				}
			}
		})
	}
}
