package main

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// goBench runs benchmarks of Go packages through test binaries built once
// (go test -c), one benchmark per run, so they can be interleaved with the
// anchors.
type goBench struct {
	root, binDir string
	bins         map[string]string  // package dir -> test binary
	nsPerOp      map[string]float64 // benchmark -> ns/op of its last run
}

func newGoBench(root, binDir string) *goBench {
	return &goBench{root: root, binDir: binDir, bins: map[string]string{}, nsPerOp: map[string]float64{}}
}

// benchtime is the -test.benchtime of the next run of bench: the budget
// the first time; afterwards the iteration count that fills the budget at
// the last run's speed ("Nx"), which spares testing.B its ramp-up (it
// calls the benchmark with growing b.N, setup included, until one run
// lasts the budget).
func (g *goBench) benchtime(bench string, budget time.Duration) string {
	ns, ok := g.nsPerOp[bench]
	if !ok || ns <= 0 {
		return budget.String()
	}
	return strconv.Itoa(max(1, int(float64(budget.Nanoseconds())/ns))) + "x"
}

// build compiles the test binary of pkg (a directory relative to root).
func (g *goBench) build(ctx context.Context, pkg string) (string, error) {
	if bin, ok := g.bins[pkg]; ok {
		return bin, nil
	}
	name := strings.Trim(strings.ReplaceAll(filepath.Clean(pkg), string(filepath.Separator), "_"), "._") + ".test"
	bin := filepath.Join(g.binDir, name)
	cmd := exec.CommandContext(ctx, "go", "test", "-c", "-o", bin, pkg)
	cmd.Dir = g.root
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("dlbd-bench: go test -c %s: %w\n%s", pkg, err, out)
	}
	g.bins[pkg] = bin
	return bin, nil
}

// benchPattern turns "BenchmarkGemm/impl=simd/n=512" into the -test.bench
// pattern that selects exactly that (sub-)benchmark.
func benchPattern(name string) string {
	parts := strings.Split(name, "/")
	for i, p := range parts {
		parts[i] = "^" + regexp.QuoteMeta(p) + "$"
	}
	return strings.Join(parts, "/")
}

// run measures one benchmark for about budget and returns its metric.
func (g *goBench) run(ctx context.Context, m measureSpec, budget time.Duration) (float64, error) {
	bin, err := g.build(ctx, m.Go)
	if err != nil {
		return 0, err
	}
	key := m.Go + " " + m.Bench
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "-test.run=^$", "-test.bench="+benchPattern(m.Bench),
		"-test.benchtime="+g.benchtime(key, budget), "-test.count=1")
	cmd.Dir = filepath.Join(g.root, m.Go) // as go test does
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return 0, fmt.Errorf("dlbd-bench: %s %s: %w\n%s", m.Go, m.Bench, err, out.String())
	}
	v, err := parseBench(out.String(), m.Bench, m.Metric)
	if err != nil {
		return 0, fmt.Errorf("dlbd-bench: %s: %w\n%s", m.Go, err, out.String())
	}
	if ns, err := parseBench(out.String(), m.Bench, "ns/op"); err == nil {
		g.nsPerOp[key] = ns
	}
	return v, nil
}

// parseBench finds the result line of bench in go test output, e.g.
//
//	BenchmarkGemm/impl=simd/n=512/threads=1-2   100   3699058 ns/op   72.57 GFLOP/s
//
// and returns the value whose unit is metric.
func parseBench(out, bench, metric string) (float64, error) {
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		if len(f) < 4 || !sameBench(f[0], bench) {
			continue
		}
		for i := 2; i+1 < len(f); i += 2 {
			if f[i+1] == metric {
				return strconv.ParseFloat(f[i], 64)
			}
		}
		return 0, fmt.Errorf("benchmark %s reported no %q metric: %s", bench, metric, line)
	}
	return 0, fmt.Errorf("benchmark %s did not run (check the name; skipped benchmarks print SKIP)", bench)
}

// sameBench compares a result name, which carries a -GOMAXPROCS suffix
// unless GOMAXPROCS is 1, with the requested name.
func sameBench(got, want string) bool {
	if got == want {
		return true
	}
	i := strings.LastIndexByte(got, '-')
	if i < 0 || got[:i] != want {
		return false
	}
	_, err := strconv.Atoi(got[i+1:])
	return err == nil
}
