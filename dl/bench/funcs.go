package bench

import (
	"fmt"
	"time"
)

// FuncsConfig describes a comparison of functions, typically ways of
// computing the same thing (a convolution's seven loops, im2col and
// MatMul written in a notebook cell, dl.Conv2d), timed the way MatMul
// times its kernels: warmed up, sampled round-robin, reported as medians.
// The zero value is not valid: Funcs must name at least one function.
type FuncsConfig struct {
	// Funcs are the functions to time, in the order of the results.
	Funcs []Func
	// Reps is the number of timed samples per function; 0 means 5.
	Reps int
	// Budget is the time the samples of one function may take: a
	// function whose samples are long gets fewer of them (at least one).
	// The warm-up call and the calibration call come on top.  0 means 2 s.
	Budget time.Duration
}

// Func is one function of a Funcs comparison.
type Func struct {
	Name string
	// FLOPs is the floating-point operations of one call (a multiply-add
	// counts two), or 0 if they are not counted (GFLOPS is then 0).
	FLOPs float64
	// Run makes one call; the work must be finished when it returns (on a
	// GPU, read a value of the result back).
	Run func()
}

// FuncResult is the timing of one function of a Funcs comparison.  Its
// fields are exported plain values, so a notebook can keep results with
// kernel.Cache.
type FuncResult struct {
	Name  string
	FLOPs float64 // as given in the Func
	// Seconds is the median time of one call over the samples; GFLOPS =
	// FLOPs / Seconds / 1e9 (0 when FLOPs is 0).
	Seconds float64
	GFLOPS  float64
	// Samples holds the seconds per call of each timed sample, in the
	// order taken; each sample repeats the call Inner times (so that it
	// lasts at least 10 ms).
	Samples []float64
	Inner   int
}

// Funcs times the functions of cfg.  It calls each once to warm it up
// (first touch of memory, code paths, caches), times one more call to
// calibrate the calls per sample, then takes the samples round-robin
// (function 1, function 2, ..., function 1, ...), so that a slow moment
// of a shared machine falls on every function alike, and reports
// medians.  A call that lasts 10 ms or more makes a sample by itself, so
// its calibration call is kept as the first sample (a function of several
// seconds is not called once more than it needs).  It returns an error
// for a bad config; a panic in a function propagates.
//
// Course: "De bucles for a operaciones vectorizadas".
func Funcs(cfg FuncsConfig) ([]FuncResult, error) {
	if len(cfg.Funcs) == 0 {
		return nil, fmt.Errorf("bench: Funcs: no functions to time; pass at least one Func")
	}
	for i, f := range cfg.Funcs {
		if f.Run == nil {
			return nil, fmt.Errorf("bench: Funcs: function %d (%q) has no Run", i, f.Name)
		}
		if !(f.FLOPs >= 0) {
			return nil, fmt.Errorf("bench: Funcs: function %d (%q) has FLOPs = %g; pass a count >= 0 (0 if not counted)", i, f.Name, f.FLOPs)
		}
	}
	reps, budget, err := repsAndBudget("Funcs", cfg.Reps, cfg.Budget)
	if err != nil {
		return nil, err
	}
	out := make([]FuncResult, len(cfg.Funcs))
	want := make([]int, len(cfg.Funcs)) // samples each function takes
	for i, f := range cfg.Funcs {
		f.Run()
		inner, one := calibrate(f.Run)
		out[i] = FuncResult{Name: f.Name, FLOPs: f.FLOPs, Inner: inner}
		want[i] = repsFor(budget, one*float64(inner), reps)
		if inner == 1 {
			out[i].Samples = append(out[i].Samples, one)
		}
	}
	for range reps {
		for i, f := range cfg.Funcs {
			if len(out[i].Samples) < want[i] {
				out[i].Samples = append(out[i].Samples, sample(f.Run, out[i].Inner))
			}
		}
	}
	for i := range out {
		r := &out[i]
		r.Seconds = median(r.Samples)
		if r.FLOPs > 0 {
			r.GFLOPS = r.FLOPs / r.Seconds / 1e9
		}
	}
	return out, nil
}
