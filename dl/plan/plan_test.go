package plan

import (
	"math"
	"strings"
	"testing"

	"github.com/dlbd/dlbd/facts"
)

func near(got, want, rel float64) bool { return math.Abs(got-want) <= rel*math.Abs(want) }

func TestParamsOfPublishedModels(t *testing.T) {
	// Exact counts reported by Hugging Face for these checkpoints, and the paper's 175B.
	for _, tc := range []struct {
		m    Model
		want int64
	}{
		{Llama2_7B, 6_738_415_616},
		{Llama3_8B, 8_030_261_248},
		{Llama3_70B, 70_553_706_496},
		{Llama31_70B, 70_553_706_496},
	} {
		if got := tc.m.Params().Total; got != tc.want {
			t.Errorf("%s: Params = %d; want %d", tc.m.Name, got, tc.want)
		}
	}
	if got := float64(GPT3_175B.Params().Total); !near(got, 175e9, 0.01) {
		t.Errorf("GPT-3: Params = %.4g; want 175B within 1%%", got)
	}
	if got := float64(Llama31_405B.Params().Total); !near(got, 405e9, 0.01) {
		t.Errorf("Llama 3.1 405B: Params = %.4g; want 405B within 1%%", got)
	}
}

func TestParamsSmallByHand(t *testing.T) {
	// L=1, h=4, a=2, V=10, s=3, GPT-style: attention 4·16+4+4+4+4 = 80 (Wq,Wk,Wv,Wo + biases),
	// MLP (ffn 16) 2·4·16 + 16 + 4 = 148, norms 2·(2·4) = 16 → 244 per layer;
	// embeddings 10·4 + 3·4 = 52; final norm 8; tied head 0. Total 304.
	m := Model{Name: "tiny", Layers: 1, Hidden: 4, Heads: 2, Vocab: 10, SeqLen: 3, Biases: true, LearnedPositions: true, TiedEmbeddings: true}
	p := m.Params()
	if p.PerLayer != 244 || p.Embedding != 52 || p.FinalNorm != 8 || p.Total != 304 {
		t.Errorf("Params(tiny) = %+v; want per-layer 244, embedding 52, final norm 8, total 304", p)
	}
}

func TestModelStatesMatchZeROPaper(t *testing.T) {
	// Rajbhandari et al. 2020, Figure 1: Ψ = 7.5B, N = 64, K = 12.
	psi, n := 7.5e9, 64
	for _, tc := range []struct {
		zero ZeROStage
		want float64 // GB
	}{{NoShard, 120}, {ZeRO1, 31.4}, {ZeRO2, 16.6}, {ZeRO3, 1.9}} {
		m := ModelStates(psi, MixedPrecisionAdam, tc.zero, n)
		got := (m.Weights + m.Gradients + m.Optimizer) / 1e9
		if math.Abs(got-tc.want) > 0.05 {
			t.Errorf("ZeRO stage %d: %.2f GB; want %.1f GB (ZeRO paper, Figure 1)", tc.zero, got, tc.want)
		}
	}
	// The closed forms 16Ψ, 4Ψ+12Ψ/N, 2Ψ+14Ψ/N, 16Ψ/N.
	forms := []float64{16 * psi, 4*psi + 12*psi/64, 2*psi + 14*psi/64, 16 * psi / 64}
	for stage, want := range forms {
		if got := ModelStates(psi, Precision{}, ZeROStage(stage), n).Total(); !near(got, want, 1e-12) {
			t.Errorf("stage %d: %g bytes; want %g", stage, got, want)
		}
	}
}

func TestActivationsPerLayerFormulas(t *testing.T) {
	m := Model{Name: "m", Layers: 4, Hidden: 1024, Heads: 16, Vocab: 1000, SeqLen: 2048}
	sbh := 2048.0 * 2 * 1024
	as := 5 * 16 * 2048.0 / 1024 // 5as/h = 160
	cases := []struct {
		s    Strategy
		want float64
	}{
		{Strategy{MicroBatch: 2}, sbh * (34 + as)},
		{Strategy{MicroBatch: 2, TP: 4}, sbh * (10 + 24.0/4 + as/4)},
		{Strategy{MicroBatch: 2, TP: 4, SequenceParallel: true}, sbh * (34 + as) / 4},
		{Strategy{MicroBatch: 2, TP: 4, SequenceParallel: true, Recompute: SelectiveRecompute}, sbh * 34 / 4},
		{Strategy{MicroBatch: 2, TP: 4, Recompute: FullRecompute}, 2 * sbh},
		{Strategy{MicroBatch: 2, TP: 4, SequenceParallel: true, Recompute: FullRecompute}, 2 * sbh / 4},
	}
	for _, tc := range cases {
		if got := ActivationsPerLayer(m, tc.s); !near(got, tc.want, 1e-12) {
			t.Errorf("%v: %g bytes; want %g (Korthikanti et al. Table 2)", tc.s, got, tc.want)
		}
	}
}

func TestInFlightMicroBatches(t *testing.T) {
	for _, tc := range []struct {
		s    Strategy
		want int
	}{
		{Strategy{MicroBatches: 8}, 1},
		{Strategy{PP: 4, MicroBatches: 8}, 4},
		{Strategy{PP: 4, MicroBatches: 2}, 2},
		{Strategy{PP: 4, MicroBatches: 8, Schedule: GPipe}, 8},
	} {
		if got := InFlightMicroBatches(tc.s); got != tc.want {
			t.Errorf("InFlightMicroBatches(%v) = %d; want %d", tc.s, got, tc.want)
		}
	}
}

func TestDoesA70BFitOnEightH100(t *testing.T) {
	h100, err := facts.AcceleratorByName("H100")
	if err != nil {
		t.Fatal(err)
	}
	// Training with mixed-precision Adam: 16 bytes per parameter ≈ 1.13 TB of model
	// states, more than the 640 GB of 8 GPUs together; even ZeRO-3 leaves 141 GB per GPU.
	for _, s := range []Strategy{{DP: 8}, {DP: 8, ZeRO: ZeRO3}, {TP: 8, SequenceParallel: true, Recompute: FullRecompute}} {
		mem, err := MemoryPerGPU(Llama3_70B, s)
		if err != nil {
			t.Fatal(err)
		}
		if f := FitsOn(mem, h100); f.Fits {
			t.Errorf("training Llama 3 70B with %v: %v; want it not to fit", s, f)
		}
	}
	// Serving the bf16 weights split 8 ways (TP=8): 141 GB / 8 ≈ 17.6 GB per GPU.
	w := 2 * ParamsPerGPU(Llama3_70B, Strategy{TP: 8})
	if f := FitsOn(Memory{Weights: w}, h100); !f.Fits || !near(w/1e9, 17.6, 0.01) {
		t.Errorf("bf16 weights over TP=8: %.1f GB per GPU (%v); want ≈17.6 GB and a fit", w/1e9, f)
	}
}

func TestCourseClaimOf2048H100For30Days(t *testing.T) {
	// The Llama 3 model card gives 6.4M H100 GPU-hours for Llama 3 70B (clusters.csv).
	var gpuHours float64
	for _, c := range facts.Clusters() {
		if strings.Contains(c.Attribute, "GPU-hours, Llama 3 70B") {
			gpuHours = c.ValueNum
		}
	}
	if gpuHours != 6.4e6 {
		t.Fatalf("clusters.csv: Llama 3 70B GPU-hours = %g; want 6.4e6", gpuHours)
	}
	if d := DaysOn(gpuHours, 2048); !near(d, 130.2, 0.001) {
		t.Errorf("6.4M GPU-hours on 2,048 GPUs = %.1f days; want 130.2 (not the course's ~30)", d)
	}
	if y := gpuHours / 24 / 365; !near(y, 730, 0.001) {
		t.Errorf("6.4M GPU-hours on one GPU = %.0f years; want 730 (the course is right here)", y)
	}
}

// llama70BRun is Llama 3 70B on 2,048 H100 (DP 64 × TP 8 × PP 4, ZeRO-1,
// sequence parallelism, selective recomputation, 1F1B with 32 micro-batches).
func llama70BRun(t *testing.T) Run {
	t.Helper()
	c, err := NewCluster("H100", 8, "NVLink 4.0", "NDR")
	if err != nil {
		t.Fatal(err)
	}
	return Run{Model: Llama3_70B, Cluster: c, Tokens: 15e12,
		Strategy: Strategy{DP: 64, TP: 8, PP: 4, ZeRO: ZeRO1, SequenceParallel: true, Recompute: SelectiveRecompute, MicroBatches: 32}}
}

func TestEstimateIsConsistent(t *testing.T) {
	base := llama70BRun(t)
	e, err := base.Estimate()
	if err != nil {
		t.Fatal(err)
	}
	if e.TokensPerStep != 64*32*8192 {
		t.Errorf("TokensPerStep = %g; want DP·m·b·s = %d", e.TokensPerStep, 64*32*8192)
	}
	if !(e.MFU > 0 && e.MFU < 0.55) {
		t.Errorf("MFU = %.3f; want below the assumed kernel efficiency 0.55", e.MFU)
	}
	if !near(e.GPUHours, e.Seconds*2048/3600, 1e-12) || !near(e.Bubble, e.Compute*3/32, 1e-12) {
		t.Errorf("inconsistent estimate: %+v", e)
	}
	// More micro-batches shrink the bubble; overlap hides DP communication.
	more := base
	more.Strategy.MicroBatches = 64
	e2, _ := more.Estimate()
	if e2.Bubble/e2.Compute >= e.Bubble/e.Compute {
		t.Errorf("bubble share with m=64 (%.3f) not below m=32 (%.3f)", e2.Bubble/e2.Compute, e.Bubble/e.Compute)
	}
	over := base
	over.Overlap = 1
	e3, _ := over.Estimate()
	if !near(e.Step-e3.Step, e.DPComm, 1e-9) {
		t.Errorf("full overlap saved %g s; want the DP communication %g s", e.Step-e3.Step, e.DPComm)
	}
	z3 := base
	z3.Strategy.ZeRO = ZeRO3
	e4, _ := z3.Estimate()
	if !near(e4.DPComm, 1.5*e.DPComm, 1e-9) {
		t.Errorf("ZeRO-3 communication %g; want 1.5× DDP's %g", e4.DPComm, e.DPComm)
	}
}

func TestValidateNamesTheProblem(t *testing.T) {
	for _, tc := range []struct {
		s    Strategy
		want string
	}{
		{Strategy{TP: 3}, "TP=3 must divide the 64 attention heads"},
		{Strategy{PP: 3}, "PP=3 must divide the 80 layers"},
		{Strategy{ZeRO: 4}, "ZeRO stage 4 does not exist"},
		{Strategy{DP: -1}, "must be ≥ 0"},
	} {
		_, err := MemoryPerGPU(Llama3_70B, tc.s)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("MemoryPerGPU(%+v) err = %v; want %q", tc.s, err, tc.want)
		}
	}
	if err := (Model{Name: "bad", Layers: 2, Hidden: 10, Heads: 3, Vocab: 5, SeqLen: 4}).Validate(); err == nil || !strings.Contains(err.Error(), "multiple of Heads") {
		t.Errorf("Validate(h=10, a=3) = %v", err)
	}
	if _, err := NewCluster("H100", 8, "NVLink 4.0", "no such link"); err == nil {
		t.Error("NewCluster with an unknown link succeeded")
	}
}

// TestCalibrateEfficiency finds the efficiency that reproduces a reported
// figure: its own estimate's GPU-hours at 0.4 give back 0.4, and Meta's
// 7.0M GPU-hours for Llama 3.1 70B give an efficiency below the assumed
// 55 % whose estimate takes those hours.
func TestCalibrateEfficiency(t *testing.T) {
	r := llama70BRun(t)
	r.ComputeEfficiency = 0.4
	want, err := r.Estimate()
	if err != nil {
		t.Fatal(err)
	}
	r.ComputeEfficiency = 0
	eff, e, err := r.CalibrateEfficiency(want.GPUHours)
	if err != nil || !near(eff, 0.4, 1e-9) || !near(e.GPUHours, want.GPUHours, 1e-9) {
		t.Errorf("CalibrateEfficiency(%.4g) = %v, %.4g GPU-hours, %v; want 0.4", want.GPUHours, eff, e.GPUHours, err)
	}
	eff, e, err = r.CalibrateEfficiency(7.0e6)
	if err != nil || !(eff > 0.2 && eff < 0.55) || !near(e.GPUHours, 7.0e6, 1e-6) {
		t.Errorf("CalibrateEfficiency(7.0M) = %v (%.4g GPU-hours), %v; want an efficiency below 0.55 giving 7.0M", eff, e.GPUHours, err)
	}
	if _, _, err := r.CalibrateEfficiency(1e3); err == nil || !strings.Contains(err.Error(), "even at 100 %") {
		t.Errorf("CalibrateEfficiency(1,000 GPU-hours) = %v; want the error that it cannot be reached", err)
	}
}
