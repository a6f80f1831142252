package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// manifest is one file of scripts/bench/entries: the benchmarks of one area
// (see scripts/bench/README.md for the format).
type manifest struct {
	About   string      `json:"about"`
	Entries []entrySpec `json:"entries"`
}

// entrySpec is an entry as written, before its matrix is expanded.
type entrySpec struct {
	Name   string           `json:"name"`
	Matrix map[string][]any `json:"matrix"`
	Unit   string           `json:"unit"`
	Better string           `json:"better"` // "higher" (throughput) or "lower" (time)
	Ours   measureSpec      `json:"ours"`
	Anchor *measureSpec     `json:"anchor"`
}

// measureSpec says how to obtain one value: a Go benchmark or a case of a
// Python anchor script.
type measureSpec struct {
	Label string `json:"label"` // shown as "anchor" in the table and bench.json

	Go     string `json:"go"`     // package directory, e.g. "./dl/internal/kernels/f32"
	Bench  string `json:"bench"`  // full benchmark name, e.g. "BenchmarkGemm/impl=simd/n=512/threads=1"
	Metric string `json:"metric"` // unit in the benchmark output: "GFLOP/s", "ns/op", "MB/s", ...

	Python      string         `json:"python"`       // script path from the repo root
	Case        string         `json:"case"`         // case name the script registered
	Args        map[string]any `json:"args"`         // case arguments
	OpenBLASEnv bool           `json:"openblas_env"` // also measure with OPENBLAS_CORETYPE/L2_SIZE unset; keep the faster
}

// entry is one expanded benchmark: a row of the table and of bench.json.
type entry struct {
	Name   string
	Unit   string
	Higher bool
	Ours   measureSpec
	Anchor *measureSpec
	File   string
}

// loadEntries reads every *.json manifest in dir and expands the matrices.
func loadEntries(dir string) ([]entry, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("dlbd-bench: no manifests (*.json) in %s", dir)
	}
	sort.Strings(files)
	var out []entry
	seen := map[string]string{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		var m manifest
		dec := json.NewDecoder(strings.NewReader(string(data)))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&m); err != nil {
			return nil, fmt.Errorf("dlbd-bench: %s: %w", f, err)
		}
		for _, s := range m.Entries {
			es, err := s.expand(f)
			if err != nil {
				return nil, fmt.Errorf("dlbd-bench: %s: entry %q: %w", f, s.Name, err)
			}
			for _, e := range es {
				if prev, dup := seen[e.Name]; dup {
					return nil, fmt.Errorf("dlbd-bench: entry %q defined in %s and %s; names must be unique", e.Name, prev, f)
				}
				seen[e.Name] = f
				out = append(out, e)
			}
		}
	}
	return out, nil
}

// expand returns one entry per combination of the matrix values, with
// "{key}" replaced in names, benchmark names and args.
func (s entrySpec) expand(file string) ([]entry, error) {
	if s.Better != "higher" && s.Better != "lower" {
		return nil, fmt.Errorf(`better = %q; want "higher" or "lower"`, s.Better)
	}
	if s.Unit == "" {
		return nil, fmt.Errorf("unit is empty")
	}
	keys := make([]string, 0, len(s.Matrix))
	for k := range s.Matrix {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	combos := []map[string]any{{}}
	for _, k := range keys {
		var next []map[string]any
		for _, c := range combos {
			for _, v := range s.Matrix[k] {
				n := map[string]any{k: v}
				for kk, vv := range c {
					n[kk] = vv
				}
				next = append(next, n)
			}
		}
		combos = next
	}
	var out []entry
	for _, c := range combos {
		e := entry{Name: subst(s.Name, c), Unit: s.Unit, Higher: s.Better == "higher", Ours: s.Ours.subst(c), File: file}
		if s.Anchor != nil {
			a := s.Anchor.subst(c)
			e.Anchor = &a
		}
		if err := e.Ours.validate(); err != nil {
			return nil, fmt.Errorf("ours: %w", err)
		}
		if e.Anchor != nil {
			if err := e.Anchor.validate(); err != nil {
				return nil, fmt.Errorf("anchor: %w", err)
			}
		}
		out = append(out, e)
	}
	return out, nil
}

func (m measureSpec) validate() error {
	switch {
	case m.Go != "" && m.Python != "":
		return fmt.Errorf("set either go or python, not both")
	case m.Go != "" && (m.Bench == "" || m.Metric == ""):
		return fmt.Errorf("a Go measure needs bench and metric")
	case m.Python != "" && m.Case == "":
		return fmt.Errorf("a Python measure needs case")
	case m.Go == "" && m.Python == "":
		return fmt.Errorf("set go (a package) or python (a script)")
	}
	return nil
}

func (m measureSpec) subst(c map[string]any) measureSpec {
	m.Label, m.Bench = subst(m.Label, c), subst(m.Bench, c)
	if m.Args != nil {
		args := make(map[string]any, len(m.Args))
		for k, v := range m.Args {
			if s, ok := v.(string); ok {
				// A value that is exactly "{key}" takes the matrix value
				// with its JSON type (a number stays a number).
				if len(s) > 2 && s[0] == '{' && s[len(s)-1] == '}' {
					if mv, ok := flatten(c)[s[1:len(s)-1]]; ok {
						args[k] = mv
						continue
					}
				}
				v = subst(s, c)
			}
			args[k] = v
		}
		m.Args = args
	}
	return m
}

// subst replaces "{key}" by the matrix value of key and, when that value
// is an object, "{key.field}" by its fields.
func subst(s string, c map[string]any) string {
	for k, v := range flatten(c) {
		s = strings.ReplaceAll(s, "{"+k+"}", fmt.Sprint(v))
	}
	return s
}

// flatten returns c with object values also listed as "key.field".
func flatten(c map[string]any) map[string]any {
	out := make(map[string]any, len(c))
	for k, v := range c {
		out[k] = v
		if obj, ok := v.(map[string]any); ok {
			for f, fv := range obj {
				out[k+"."+f] = fv
			}
		}
	}
	return out
}
