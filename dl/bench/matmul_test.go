package bench

import (
	"math"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dlbd/dlbd/dl"
)

// checkMatMulResult asserts what every measured point must satisfy.
func checkMatMulResult(t *testing.T, r MatMulResult, maxReps int, tol float64) {
	t.Helper()
	if r.Skipped != "" {
		t.Errorf("%s n=%d skipped: %s", r.Kernel, r.Size, r.Skipped)
		return
	}
	if len(r.Samples) < 1 || len(r.Samples) > maxReps {
		t.Errorf("%s n=%d: %d samples; want 1..%d", r.Kernel, r.Size, len(r.Samples), maxReps)
	}
	if r.Seconds <= 0 || r.Seconds < slices.Min(r.Samples) || r.Seconds > slices.Max(r.Samples) {
		t.Errorf("%s n=%d: median %g outside the samples %v", r.Kernel, r.Size, r.Seconds, r.Samples)
	}
	if want := FLOPs(r.Size) / r.Seconds / 1e9; math.Abs(r.GFLOPS-want) > 1e-9*want {
		t.Errorf("%s n=%d: GFLOPS = %g; want 2n³/Seconds/1e9 = %g", r.Kernel, r.Size, r.GFLOPS, want)
	}
	if r.Inner < 1 {
		t.Errorf("%s n=%d: Inner = %d", r.Kernel, r.Size, r.Inner)
	}
	if !(r.RelErr < tol) {
		t.Errorf("%s n=%d: RelErr = %g; want < %g", r.Kernel, r.Size, r.RelErr, tol)
	}
}

func TestMatMulResults(t *testing.T) {
	kernels := dl.MatMulKernels()
	rs, err := MatMul(MatMulConfig{Sizes: []int{48, 16, 48}, Reps: 3, Budget: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 2*len(kernels) {
		t.Fatalf("MatMul returned %d results; want 2 sizes × %d kernels", len(rs), len(kernels))
	}
	for i, r := range rs {
		wantSize, wantKernel := []int{16, 48}[i/len(kernels)], kernels[i%len(kernels)].String()
		if r.Size != wantSize || r.Kernel != wantKernel || r.Device != "cpu" || r.DType != "float32" || r.Threads != dl.NumThreads() {
			t.Errorf("result %d = %s n=%d %s %s threads=%d; want %s n=%d cpu float32 threads=%d",
				i, r.Kernel, r.Size, r.Device, r.DType, r.Threads, wantKernel, wantSize, dl.NumThreads())
		}
		checkMatMulResult(t, r, 3, 1e-5)
	}
}

func TestMatMulDTypesAndDevices(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  MatMulConfig
		tol  float64 // relative to Σ|a·b|
	}{
		// bf16 output keeps 8 significant bits: rounding ≤ 2^-9 |c|.
		{name: "dtype=bfloat16/dev=sim:1", cfg: MatMulConfig{DType: dl.BFloat16, Device: dl.Sim(1)}, tol: 0x1p-8},
		{name: "dtype=float16/dev=cpu", cfg: MatMulConfig{DType: dl.Float16}, tol: 0x1p-10},
		{name: "dtype=float64/dev=cpu", cfg: MatMulConfig{DType: dl.Float64}, tol: 1e-13},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := tc.cfg
			cfg.Sizes, cfg.Kernels, cfg.Reps = []int{40}, []dl.MatMulKernel{dl.MatMulNaive, dl.MatMulAuto}, 2
			rs, err := MatMul(cfg)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range rs {
				if r.DType != cfg.DType.String() || r.Device != cfg.Device.String() {
					t.Errorf("result on %s %s; want %v %v", r.Device, r.DType, cfg.Device, cfg.DType)
				}
				checkMatMulResult(t, r, 2, tc.tol)
			}
		})
	}
}

func TestMatMulBudgetSkips(t *testing.T) {
	// The naive loop at n=16 takes microseconds; predicted for n=1024 it
	// takes 2^18 times longer, far over a 1 ms budget.
	rs, err := MatMul(MatMulConfig{Sizes: []int{16, 1024, 2048}, Kernels: []dl.MatMulKernel{dl.MatMulNaive}, Budget: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 3 {
		t.Fatalf("got %d results; want 3 (skipped points are reported)", len(rs))
	}
	// A 10 ms sample is over the budget: one sample, not Reps.
	checkMatMulResult(t, rs[0], 1, 1e-5)
	if !strings.Contains(rs[1].Skipped, "over the budget of 1ms") || rs[1].GFLOPS != 0 || len(rs[1].Samples) != 0 {
		t.Errorf("n=1024: Skipped = %q, GFLOPS = %g, %d samples; want skipped over the budget, no figures", rs[1].Skipped, rs[1].GFLOPS, len(rs[1].Samples))
	}
	if want := rs[0].Seconds * FLOPs(1024) / FLOPs(16); math.Abs(rs[1].Estimated-want) > 1e-9*want || rs[1].Estimated <= 1e-3 {
		t.Errorf("n=1024: Estimated = %g s; want the n=16 median scaled by (1024/16)³ = %g s, over the budget", rs[1].Estimated, want)
	}
	if rs[2].Skipped != "a smaller size was already skipped" || rs[2].Estimated != 0 {
		t.Errorf("n=2048: Skipped = %q; want the smaller size's skip", rs[2].Skipped)
	}
}

func TestMatMulThreads(t *testing.T) {
	defer dl.SetDynamicThreads(dl.SetDynamicThreads(false)) // counts as set, whatever the load
	defer dl.SetNumThreads(dl.SetNumThreads(0))             // the default: follow GOMAXPROCS
	procs, threads := runtime.GOMAXPROCS(0), dl.NumThreads()
	rs, err := MatMul(MatMulConfig{Sizes: []int{32}, Kernels: []dl.MatMulKernel{dl.MatMulBlocked}, Threads: 1, Reps: 1})
	if err != nil {
		t.Fatal(err)
	}
	if rs[0].Threads != 1 {
		t.Errorf("Threads = %d; want 1", rs[0].Threads)
	}
	if runtime.GOMAXPROCS(0) != procs || dl.NumThreads() != threads {
		t.Errorf("after MatMul: GOMAXPROCS %d, NumThreads %d; want them restored to %d, %d",
			runtime.GOMAXPROCS(0), dl.NumThreads(), procs, threads)
	}
	if prev := dl.SetNumThreads(0); prev != 0 {
		t.Errorf("after MatMul the thread setting is %d; want the default 0 restored, not the count it resolved to", prev)
	}
}

func TestMatMulErrors(t *testing.T) {
	cases := []struct {
		name string
		cfg  MatMulConfig
		want string
	}{
		{name: "size=0", cfg: MatMulConfig{Sizes: []int{64, 0}}, want: "bench: MatMul: size 0; sizes must be positive"},
		{name: "reps=-1", cfg: MatMulConfig{Reps: -1}, want: "negative Reps (-1)"},
		{name: "budget<0", cfg: MatMulConfig{Budget: -time.Second}, want: "Budget (-1s)"},
		{name: "kernel=99", cfg: MatMulConfig{Kernels: []dl.MatMulKernel{99}}, want: "kernel MatMulKernel(99) is not available on this machine"},
		{name: "dtype=9", cfg: MatMulConfig{DType: 9}, want: "unknown dtype"},
		{name: "dev=sim:1000", cfg: MatMulConfig{Device: dl.Sim(1000)}, want: "bench: MatMul on sim:1000: there are"},
	}
	if dl.CUDAAvailable() != nil {
		cases = append(cases, struct {
			name string
			cfg  MatMulConfig
			want string
		}{name: "dev=cuda:0/no-gpu", cfg: MatMulConfig{Device: dl.CUDA(0)}, want: "bench: MatMul on cuda:0: no usable GPU: "})
	} else {
		cases = append(cases, struct {
			name string
			cfg  MatMulConfig
			want string
		}{name: "dev=cuda:0/kernel=naive", cfg: MatMulConfig{Device: dl.CUDA(0), Kernels: []dl.MatMulKernel{dl.MatMulNaive}},
			want: "kernel naive runs on host devices only; leave Kernels nil on a GPU"})
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rs, err := MatMul(tc.cfg)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("MatMul(%+v) = %d results, error %v; want an error containing %q", tc.cfg, len(rs), err, tc.want)
			}
		})
	}
}

func TestCheckDetectsWrongProducts(t *testing.T) {
	p := newProblem(dl.NewGenerator(3), 12, dl.Float32, dl.CPU, true)
	defer p.release()
	c := p.a.MatMul(p.b)
	vals := c.Float64s()
	c.Release()
	if e := p.check(vals); e > 1e-6 {
		t.Fatalf("check(right product) = %g; want < 1e-6", e)
	}
	i, j := p.picked[5][0], p.picked[5][1]
	vals[i*12+j] += 0.5
	if e := p.check(vals); e < 1e-3 {
		t.Errorf("check(product with a wrong entry) = %g; want it to notice", e)
	}
	vals[i*12+j] = math.NaN()
	if e := p.check(vals); !math.IsNaN(e) {
		t.Errorf("check(product with a NaN) = %g; want NaN", e)
	}
}

func TestMedian(t *testing.T) {
	for _, tc := range []struct {
		in   []float64
		want float64
	}{
		{in: nil, want: 0},
		{in: []float64{3}, want: 3},
		{in: []float64{5, 1, 4}, want: 4},
		{in: []float64{4, 1, 3, 100}, want: 3.5},
	} {
		in := slices.Clone(tc.in)
		if got := median(tc.in); got != tc.want || !slices.Equal(in, tc.in) {
			t.Errorf("median(%v) = %g (input now %v); want %g and the input unchanged", in, got, tc.in, tc.want)
		}
	}
}

func TestFLOPs(t *testing.T) {
	// The course's 4096³ = 68.7e9 multiply-adds are 137 GFLOP.
	if got := FLOPs(4096); got != 137438953472 {
		t.Errorf("FLOPs(4096) = %g; want 2·4096³ = 137438953472", got)
	}
}
