package plan_test

import (
	"testing"

	"github.com/dlbd/dlbd/dl"
	"github.com/dlbd/dlbd/dl/dist"
	"github.com/dlbd/dlbd/dl/dltest"
	"github.com/dlbd/dlbd/dl/nn"
	"github.com/dlbd/dlbd/dl/parallel"
	"github.com/dlbd/dlbd/dl/plan"
)

// TestValidateTPParams counts the parameters one tensor-parallel rank
// holds for a Transformer block and compares with plan's split,
// PerLayer/t. plan's documented simplification counts the norms as split;
// Megatron (and parallel.TPBlock) replicate them and the row-parallel
// biases: 2 LayerNorms (4h) and 2 biases (2h) on every rank, so the
// measured count is PerLayer/t + 6h·(1 − 1/t).
func TestValidateTPParams(t *testing.T) {
	m := tinyConfig
	h := int64(m.Hidden)
	for _, tp := range []int{1, 2} {
		b := nn.NewBlock(nn.BlockConfig{Dim: m.Hidden, Heads: m.Heads})
		got := make([]int64, tp)
		err := dist.Run(tp, func(r *dist.Rank) error {
			for _, p := range parallel.NewTPBlock(b, r).NamedParameters() {
				got[r.Rank()] += int64(p.Tensor.Numel())
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		per := m.Params().PerLayer
		if per%int64(tp) != 0 {
			t.Fatalf("PerLayer %d does not divide by %d", per, tp)
		}
		want := per/int64(tp) + 6*h - 6*h/int64(tp)
		for r, g := range got {
			if g != want {
				t.Errorf("tp=%d rank %d holds %d parameters of the block; PerLayer/t + replicated = %d", tp, r, g, want)
			}
		}
		if ps := plan.ParamsPerGPU(m, plan.Strategy{TP: tp}); tp == 1 && int64(ps) != m.Params().Total {
			t.Errorf("ParamsPerGPU without splitting = %.0f; want Params().Total = %d", ps, m.Params().Total)
		}
	}
}

// TestValidatePipelineActivations runs 4-stage pipelines of Transformer
// blocks and checks the activation memory stage 0 holds at its peak, as
// measured by its device, against plan: InFlightMicroBatches (m for GPipe,
// p for 1F1B) and hence the ratio of MemoryPerGPU's Activations.
func TestValidatePipelineActivations(t *testing.T) {
	dltest.HoldGC(t) // figures below are exact only without GC cleanups of other tests' tensors
	const p, m, d, heads, seq, mb, blocksPerStage = 4, 8, 16, 2, 8, 4, 4
	cfg := plan.Model{Name: "pipeline test", Layers: p * blocksPerStage, Hidden: d, Heads: heads, Vocab: 16, SeqLen: seq, Biases: true, Source: "this test"}
	o := dl.Options{Generator: dl.NewGenerator(2)}
	x, y := o.Randn(m*mb, seq, d), o.Randn(m*mb, seq, d)
	held := map[plan.Schedule]float64{}
	for _, sched := range []parallel.Schedule{parallel.GPipe, parallel.OneFOneB} {
		ps := plan.GPipe
		if sched == parallel.OneFOneB {
			ps = plan.OneFOneB
		}
		var per, peak int64
		err := dist.Run(p, func(r *dist.Rank) error {
			var mods []nn.Module
			for range blocksPerStage {
				mods = append(mods, nn.NewBlock(nn.BlockConfig{Dim: d, Heads: heads, InitConfig: nn.InitConfig{Generator: dl.NewGenerator(3)}}))
			}
			stage := nn.NewSequential(mods...)
			if err := parallel.ModuleTo(stage, r.Device()); err != nil {
				return err
			}
			pipe := parallel.NewPipeline(stage, r, parallel.PipelineConfig{Schedule: sched, MicroBatches: m})
			for range 2 { // the second step is measured: the gradients exist already
				if _, err := pipe.Step(x, y); err != nil {
					return err
				}
			}
			if r.Rank() == 0 {
				per, peak = pipe.ActivationBytes()
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		s := plan.Strategy{PP: p, MicroBatches: m, MicroBatch: mb, Schedule: ps}
		want := plan.InFlightMicroBatches(s)
		held[ps] = float64(peak) / float64(per)
		t.Logf("%v: stage 0 peak = %.2f micro-batches of %s", sched, held[ps], dl.FormatBytes(per))
		if int(held[ps]) != want {
			t.Errorf("%v: stage 0 held ⌊%.2f⌋ micro-batches at its peak; plan.InFlightMicroBatches = %d", sched, held[ps], want)
		}
	}
	memOf := func(s plan.Schedule) float64 {
		mem, err := plan.MemoryPerGPU(cfg, plan.Strategy{PP: p, MicroBatches: m, MicroBatch: mb, Schedule: s})
		if err != nil {
			t.Fatal(err)
		}
		return mem.Activations
	}
	wantRatio := memOf(plan.GPipe) / memOf(plan.OneFOneB)
	gotRatio := held[plan.GPipe] / held[plan.OneFOneB]
	if d := gotRatio/wantRatio - 1; d < -0.15 || d > 0.15 {
		t.Errorf("measured GPipe/1F1B activation ratio %.2f; plan's %.2f (want within 15%%: one backward's transient buffers sit on top of both)", gotRatio, wantRatio)
	}
}
