package bench

import (
	"fmt"
	"runtime"
	"slices"
	"time"

	"github.com/dlbd/dlbd/dl"
)

// MatMulConfig describes a sweep of square matrix products C = A·B
// (n×n times n×n).  The zero value measures every host kernel at the
// default sizes on the CPU in float32.
type MatMulConfig struct {
	// Sizes are the n of the n×n×n products, measured in increasing order.
	// nil means 64, 128, 256 and 512.
	Sizes []int
	// Kernels are the host kernels to compare (dl.MatMulNaive, ...).  nil
	// means dl.MatMulKernels(): every kernel available on this machine.
	// On a CUDA device the only kernel is cuBLAS: leave Kernels nil.
	Kernels []dl.MatMulKernel
	// Device holds the operands and runs the products: CPU (the zero
	// value), a Sim device (host memory, same kernels as CPU) or a CUDA
	// device (cuBLAS).
	Device dl.Device
	// DType is the operands' element type; the zero value is Float32.
	// Float16 and BFloat16 multiply with float32 accumulation (tensor
	// cores on a GPU; decoded to float32 on the host).
	DType dl.DType
	// Threads is the number of goroutines a host product may use
	// (dl.SetNumThreads, and runtime.GOMAXPROCS during the sweep so that
	// gonum's BLAS, which picks its own, obeys it too).  0 means the
	// current default.
	Threads int
	// Reps is the number of timed samples per point; 0 means 5.
	Reps int
	// Budget is the time one point (a kernel at a size) may take.  A point
	// whose products are predicted (from the kernel's previous size, as
	// n³) to exceed it is skipped with the reason, and so are the larger
	// sizes of that kernel; a point whose samples are long gets fewer of
	// them (at least one).  0 means 2 s.
	Budget time.Duration
	// Seed seeds the random operands (standard normal).  0 means 1.
	Seed uint64
}

// MatMulResult is one measured point of a MatMul sweep.  Its fields are
// exported plain values, so a notebook can keep results with kernel.Cache.
type MatMulResult struct {
	Kernel  string // "naive", "blocked", "blas", "simd" or "cublas"
	Size    int    // n of the n×n×n product
	DType   string // "float32", "bfloat16", ...
	Device  string // "cpu", "sim:0", "cuda:0", ...
	Threads int    // goroutines of host kernels (0 on a GPU)

	// Seconds is the median time of one product over the samples;
	// GFLOPS = 2n³ / Seconds / 1e9 (one multiply and one add per term).
	Seconds float64
	GFLOPS  float64
	// Samples holds the seconds per product of each timed sample, in the
	// order taken; each sample repeats the product Inner times.
	Samples []float64
	Inner   int
	// RelErr is the largest error of 64 sampled entries of C, relative to
	// Σ_p |A_ip·B_pj| of the entry, against a float64 product on the host:
	// the check that the kernel computed the right thing.
	RelErr float64
	// Skipped says why the point was not measured ("" if it was), and
	// Estimated is the predicted seconds per product that put it over the
	// budget (0 when a smaller size was skipped already).
	Skipped   string
	Estimated float64
}

// FLOPs returns the floating-point operations of an n×n×n product: n³
// multiply-adds, 2n³ operations.
func FLOPs(n int) float64 { return 2 * float64(n) * float64(n) * float64(n) }

// MatMul measures the products of cfg, interleaved: for each size it
// warms every kernel up, then takes the samples round-robin (kernel 1,
// kernel 2, ..., kernel 1, ...), so that a slow moment of a shared machine
// falls on every kernel alike, and reports medians.  Results are in order
// of size, then of cfg.Kernels.  It returns an error for a bad config or a
// device that cannot be used (a CUDA device without a GPU).
//
// Course: "De bucles for a operaciones vectorizadas".
func MatMul(cfg MatMulConfig) ([]MatMulResult, error) {
	kernels, err := cfg.kernels()
	if err != nil {
		return nil, err
	}
	sizes := orDefaultSlice(cfg.Sizes, []int{64, 128, 256, 512})
	for _, n := range sizes {
		if n <= 0 {
			return nil, fmt.Errorf("bench: MatMul: size %d; sizes must be positive", n)
		}
	}
	sizes = slices.Clone(sizes)
	slices.Sort(sizes)
	sizes = slices.Compact(sizes)
	if cfg.Reps < 0 || cfg.Threads < 0 || cfg.Budget < 0 {
		return nil, fmt.Errorf("bench: MatMul: negative Reps (%d), Threads (%d) or Budget (%v)", cfg.Reps, cfg.Threads, cfg.Budget)
	}
	reps, budget := orDefault(cfg.Reps, defaultReps), orDefault(cfg.Budget, defaultBudget)
	host := cfg.Device.IsHost()
	threads := 0
	if host {
		if cfg.Threads > 0 {
			procs, before := runtime.GOMAXPROCS(cfg.Threads), dl.SetNumThreads(cfg.Threads)
			defer func() { runtime.GOMAXPROCS(procs); dl.SetNumThreads(before) }()
		}
		threads = dl.NumThreads()
	}
	gen := dl.NewGenerator(orDefault(cfg.Seed, 1))
	var out []MatMulResult
	lastTime := make([]float64, len(kernels)) // seconds per product at lastSize
	lastSize := make([]int, len(kernels))
	for _, n := range sizes {
		p := newProblem(gen, n, cfg.DType, cfg.Device, true)
		results := make([]MatMulResult, len(kernels)) // stable addresses for the points
		points := make([]*point, len(kernels))
		for i, k := range kernels {
			r := &results[i]
			*r = MatMulResult{Kernel: kernelName(k, host), Size: n, DType: cfg.DType.String(),
				Device: cfg.Device.String(), Threads: threads}
			if lastSize[i] < 0 {
				r.Skipped = "a smaller size was already skipped"
			} else if lastSize[i] > 0 {
				if est := lastTime[i] * FLOPs(n) / FLOPs(lastSize[i]); est > budget.Seconds() {
					r.Skipped = fmt.Sprintf("estimated %.3g s per product, over the budget of %v", est, budget)
					r.Estimated = est
				}
			}
			if r.Skipped != "" {
				lastSize[i] = -1
				continue
			}
			points[i] = p.warmUp(k, r, budget, reps)
		}
		for round := range reps {
			for _, pt := range points {
				if pt != nil && round < pt.reps {
					pt.res.Samples = append(pt.res.Samples, sample(pt.call, pt.res.Inner))
				}
			}
		}
		for i, pt := range points {
			if pt == nil {
				continue
			}
			pt.res.Seconds = median(pt.res.Samples)
			pt.res.GFLOPS = FLOPs(n) / pt.res.Seconds / 1e9
			lastTime[i], lastSize[i] = pt.res.Seconds, n
		}
		out = append(out, results...)
		p.release()
	}
	return out, nil
}

// kernels checks cfg's kernels against its device and returns them.
func (cfg MatMulConfig) kernels() ([]dl.MatMulKernel, error) {
	if err := checkDevice("MatMul", cfg.Device); err != nil {
		return nil, err
	}
	if cfg.DType > dl.BFloat16 {
		return nil, fmt.Errorf("bench: MatMul: unknown dtype %v", cfg.DType)
	}
	if !cfg.Device.IsHost() {
		if len(cfg.Kernels) > 0 && (len(cfg.Kernels) > 1 || cfg.Kernels[0] != dl.MatMulAuto) {
			return nil, fmt.Errorf("bench: MatMul on %v: kernel %v runs on host devices only; leave Kernels nil on a GPU (cuBLAS)",
				cfg.Device, cfg.Kernels[0])
		}
		return []dl.MatMulKernel{dl.MatMulAuto}, nil
	}
	if len(cfg.Kernels) == 0 {
		return dl.MatMulKernels(), nil
	}
	for _, k := range cfg.Kernels {
		if !k.Available() {
			return nil, fmt.Errorf("bench: MatMul: kernel %v is not available on this machine (available: %v)", k, dl.MatMulKernels())
		}
	}
	return cfg.Kernels, nil
}

// kernelName is the name of kernel k in results: its String on the
// host, "cublas" on a GPU.
func kernelName(k dl.MatMulKernel, host bool) string {
	if !host {
		return "cublas"
	}
	return k.String()
}

// orDefaultSlice returns v, or def when v is empty.
func orDefaultSlice[T any](v, def []T) []T {
	if len(v) == 0 {
		return def
	}
	return v
}
