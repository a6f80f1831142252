package bench

import (
	"math"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestFuncsResults(t *testing.T) {
	var slowCalls, fastCalls int
	sink := 0.0
	rs, err := Funcs(FuncsConfig{
		Funcs: []Func{
			{Name: "lenta", FLOPs: 1e6, Run: func() { slowCalls++; time.Sleep(15 * time.Millisecond) }},
			{Name: "rápida", Run: func() {
				fastCalls++
				for i := range 1000 {
					sink += math.Sqrt(float64(i))
				}
			}},
		},
		Reps:   3,
		Budget: time.Second,
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 2 || rs[0].Name != "lenta" || rs[1].Name != "rápida" {
		t.Fatalf("results %+v; want lenta then rápida", rs)
	}
	for _, r := range rs {
		if len(r.Samples) != 3 {
			t.Errorf("%s: %d samples; want Reps = 3 (they fit in the budget)", r.Name, len(r.Samples))
		}
		if r.Seconds <= 0 || r.Seconds < slices.Min(r.Samples) || r.Seconds > slices.Max(r.Samples) {
			t.Errorf("%s: median %g outside the samples %v", r.Name, r.Seconds, r.Samples)
		}
	}
	slow, fast := rs[0], rs[1]
	if slow.Inner != 1 || slow.Seconds < 0.015 {
		t.Errorf("lenta: Inner = %d, Seconds = %g; want 1 call per sample of at least 15 ms", slow.Inner, slow.Seconds)
	}
	// Warm-up, then the calibration call, kept as the first sample, then two more.
	if slowCalls != 1+3 {
		t.Errorf("lenta was called %d times; want 4 (warm-up and 3 samples, the first of them the calibration)", slowCalls)
	}
	if want := 1e6 / slow.Seconds / 1e9; math.Abs(slow.GFLOPS-want) > 1e-9*want || slow.FLOPs != 1e6 {
		t.Errorf("lenta: GFLOPS = %g, FLOPs = %g; want FLOPs/Seconds/1e9 = %g", slow.GFLOPS, slow.FLOPs, want)
	}
	if fast.Inner < 2 || fast.GFLOPS != 0 {
		t.Errorf("rápida: Inner = %d, GFLOPS = %g; want several calls per sample and no GFLOPS (FLOPs not counted)", fast.Inner, fast.GFLOPS)
	}
	if want := 2 + 3*fast.Inner; fastCalls != want {
		t.Errorf("rápida was called %d times; want %d (warm-up, calibration, 3 samples of %d)", fastCalls, want, fast.Inner)
	}
}

func TestFuncsBudgetLimitsSamples(t *testing.T) {
	calls := 0
	rs, err := Funcs(FuncsConfig{
		Funcs:  []Func{{Name: "larga", Run: func() { calls++; time.Sleep(30 * time.Millisecond) }}},
		Reps:   10,
		Budget: 50 * time.Millisecond,
	})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(rs[0].Samples); n != 1 || calls != 2 {
		t.Errorf("%d samples in %d calls; want 1 sample (the calibration call) in 2 calls: one 30 ms sample fits the 50 ms budget", n, calls)
	}
}

func TestFuncsErrors(t *testing.T) {
	run := func() {}
	for _, tc := range []struct {
		cfg  FuncsConfig
		want string
	}{
		{FuncsConfig{}, "no functions"},
		{FuncsConfig{Funcs: []Func{{Name: "a", Run: run}, {Name: "b"}}}, `function 1 ("b") has no Run`},
		{FuncsConfig{Funcs: []Func{{Name: "a", FLOPs: -1, Run: run}}}, "FLOPs = -1"},
		{FuncsConfig{Funcs: []Func{{Name: "a", FLOPs: math.NaN(), Run: run}}}, "FLOPs = NaN"},
		{FuncsConfig{Funcs: []Func{{Name: "a", Run: run}}, Reps: -1}, "negative Reps"},
		{FuncsConfig{Funcs: []Func{{Name: "a", Run: run}}, Budget: -time.Second}, "negative Reps"},
	} {
		rs, err := Funcs(tc.cfg)
		if err == nil || !strings.HasPrefix(err.Error(), "bench: Funcs: ") || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Funcs(%+v) = %v, %v; want an error containing %q", tc.cfg, rs, err, tc.want)
		}
	}
}

func TestFuncsPanicPropagates(t *testing.T) {
	defer func() {
		if r := recover(); r != "falla" {
			t.Errorf("recovered %v; want the function's panic", r)
		}
	}()
	Funcs(FuncsConfig{Funcs: []Func{{Name: "a", Run: func() { panic("falla") }}}})
	t.Error("Funcs returned; want the panic of the function")
}
