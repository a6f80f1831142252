package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"
)

// runner holds the Go test binaries, the anchor servers and the samples.
type runner struct {
	ctx            context.Context
	root, python   string
	budget, settle time.Duration
	gb             *goBench
	servers        map[string]*anchorServer // script + "\x00" + env variant
	failed         map[string]error         // same keys: servers that did not start
	ours           map[string][]float64     // entry name -> one value per round
	anchors        map[string]map[string][]float64
	errs           map[string]error // entry name -> first error
}

func newRunner(ctx context.Context, root, python string, budget, settle time.Duration) *runner {
	bin := filepath.Join(root, "build", "bench-bin")
	os.MkdirAll(bin, 0o755)
	return &runner{ctx: ctx, root: root, python: python, budget: budget, settle: settle,
		gb: newGoBench(root, bin), servers: map[string]*anchorServer{}, failed: map[string]error{},
		ours: map[string][]float64{}, anchors: map[string]map[string][]float64{}, errs: map[string]error{}}
}

func (r *runner) close() {
	for _, s := range r.servers {
		s.close()
	}
}

// measureEntry takes one sample of ours and of every anchor variant.
func (r *runner) measureEntry(e entry, anchorFirst bool) {
	if r.errs[e.Name] != nil {
		return
	}
	if anchorFirst {
		r.measureAnchor(e)
	}
	v, err := r.measure(e.Ours, e.Unit)
	if err != nil {
		r.errs[e.Name] = err
		fmt.Fprintln(os.Stderr, err)
		return
	}
	r.ours[e.Name] = append(r.ours[e.Name], v)
	if !anchorFirst {
		r.measureAnchor(e)
	}
}

func (r *runner) measureAnchor(e entry) {
	if e.Anchor == nil {
		return
	}
	for _, v := range r.variants(*e.Anchor) {
		x, err := r.measureVariant(*e.Anchor, e.Unit, v)
		if err != nil {
			fmt.Fprintf(os.Stderr, "dlbd-bench: %s: anchor: %v\n", e.Name, err)
			continue
		}
		if r.anchors[e.Name] == nil {
			r.anchors[e.Name] = map[string][]float64{}
		}
		r.anchors[e.Name][v.name] = append(r.anchors[e.Name][v.name], x)
	}
}

func (r *runner) variants(m measureSpec) []envVariant {
	if m.Python == "" {
		return []envVariant{{}}
	}
	return anchorEnvs(m.OpenBLASEnv)
}

// measure takes one sample of a Go or Python measure (environment as is).
func (r *runner) measure(m measureSpec, unit string) (float64, error) {
	return r.measureVariant(m, unit, envVariant{})
}

func (r *runner) measureVariant(m measureSpec, unit string, v envVariant) (float64, error) {
	if m.Go != "" {
		x, err := r.gb.run(r.ctx, m, r.budget)
		if err != nil {
			return 0, err
		}
		return convert(x, m.Metric, unit)
	}
	s, err := r.server(m.Python, v)
	if err != nil {
		return 0, err
	}
	x, err := s.measure(m, unit, r.budget)
	time.Sleep(r.settle)
	return x, err
}

func (r *runner) server(script string, v envVariant) (*anchorServer, error) {
	key := script + "\x00" + v.name
	if s, ok := r.servers[key]; ok {
		return s, nil
	}
	if err, ok := r.failed[key]; ok {
		return nil, err
	}
	if r.python == "" {
		r.failed[key] = fmt.Errorf("no python")
		return nil, r.failed[key]
	}
	s, err := startAnchor(r.ctx, r.python, r.root, script, v)
	if err != nil {
		r.failed[key] = err
		fmt.Fprintln(os.Stderr, err)
		return nil, err
	}
	r.servers[key] = s
	return s, nil
}

// anchorInfo returns the self-description of every anchor server started.
func (r *runner) anchorInfo() []string {
	var out []string
	for key, s := range r.servers {
		script, variant := splitKey(key)
		line := script + ": " + s.describe
		if variant != "" {
			line += " [" + variant + "]"
		}
		out = append(out, line)
	}
	slices.Sort(out)
	return out
}

func splitKey(k string) (string, string) {
	for i := 0; i < len(k); i++ {
		if k[i] == 0 {
			return k[:i], k[i+1:]
		}
	}
	return k, ""
}

// convert turns a Go benchmark metric into the entry's unit.
func convert(x float64, metric, unit string) (float64, error) {
	if metric == unit {
		return x, nil
	}
	scale := map[[2]string]float64{
		{"ns/op", "s"}: 1e-9, {"ns/op", "ms"}: 1e-6, {"ns/op", "us"}: 1e-3, {"ns/op", "µs"}: 1e-3,
		{"MB/s", "GB/s"}: 1e-3,
	}
	if s, ok := scale[[2]string{metric, unit}]; ok {
		return x * s, nil
	}
	return 0, fmt.Errorf("dlbd-bench: cannot convert metric %q to unit %q", metric, unit)
}
