package main

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dlbd/dlbd/dl/bench"
)

func TestParseBench(t *testing.T) {
	out := `goos: linux
BenchmarkGemm/impl=simd/n=512/threads=1-2         	     100	   3699058 ns/op	 850.41 MB/s	        72.57 GFLOP/s
BenchmarkGemm/impl=simd/n=51/threads=1-2         	     100	   3 ns/op	 1 MB/s	        1 GFLOP/s
PASS`
	for _, tc := range []struct {
		metric string
		want   float64
	}{{"GFLOP/s", 72.57}, {"ns/op", 3699058}, {"MB/s", 850.41}} {
		got, err := parseBench(out, "BenchmarkGemm/impl=simd/n=512/threads=1", tc.metric)
		if err != nil || got != tc.want {
			t.Errorf("parseBench(%s) = %v, %v; want %v", tc.metric, got, err, tc.want)
		}
	}
	if _, err := parseBench(out, "BenchmarkGemm/impl=simd/n=512/threads=1", "allocs/op"); err == nil || !strings.Contains(err.Error(), `no "allocs/op" metric`) {
		t.Errorf("missing metric: err = %v", err)
	}
	if _, err := parseBench(out, "BenchmarkOther", "ns/op"); err == nil || !strings.Contains(err.Error(), "did not run") {
		t.Errorf("missing benchmark: err = %v", err)
	}
}

func TestBenchPattern(t *testing.T) {
	if got, want := benchPattern("BenchmarkGemm/impl=simd/n=512"), `^BenchmarkGemm$/^impl=simd$/^n=512$`; got != want {
		t.Errorf("benchPattern = %q; want %q", got, want)
	}
	if got := benchPattern("BenchmarkX/op=NT/m=1.5"); got != `^BenchmarkX$/^op=NT$/^m=1\.5$` {
		t.Errorf("benchPattern did not quote: %q", got)
	}
}

func TestConvert(t *testing.T) {
	if v, err := convert(2.5e6, "ns/op", "ms"); err != nil || v != 2.5 {
		t.Errorf("convert ns/op->ms = %v, %v", v, err)
	}
	if v, err := convert(1500, "MB/s", "GB/s"); err != nil || v != 1.5 {
		t.Errorf("convert MB/s->GB/s = %v, %v", v, err)
	}
	if _, err := convert(1, "GFLOP/s", "ms"); err == nil {
		t.Errorf("convert GFLOP/s->ms: no error")
	}
}

func TestLoadEntriesExpandsMatrix(t *testing.T) {
	dir := t.TempDir()
	manifest := `{"about": "x", "entries": [{
		"name": "g/op={s.op}/t={t}", "unit": "GFLOP/s", "better": "higher",
		"matrix": {"t": [1, 2], "s": [{"op": "NT", "m": 3}]},
		"ours": {"go": "./p", "bench": "BenchmarkG/op={s.op}/t={t}", "metric": "GFLOP/s"},
		"anchor": {"label": "np", "python": "a.py", "case": "gemm", "args": {"m": "{s.m}", "t": "{t}", "s": "x{t}"}}}]}`
	if err := os.WriteFile(filepath.Join(dir, "a.json"), []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	es, err := loadEntries(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(es) != 2 {
		t.Fatalf("got %d entries; want 2", len(es))
	}
	e := es[1]
	if e.Name != "g/op=NT/t=2" || e.Ours.Bench != "BenchmarkG/op=NT/t=2" || !e.Higher {
		t.Errorf("entry = %+v", e)
	}
	if m, ok := e.Anchor.Args["m"].(float64); !ok || m != 3 {
		t.Errorf("args m = %#v; want number 3", e.Anchor.Args["m"])
	}
	if s := e.Anchor.Args["s"]; s != "x2" {
		t.Errorf("args s = %#v; want \"x2\"", s)
	}
}

func TestLoadEntriesErrors(t *testing.T) {
	for _, tc := range []struct{ manifest, want string }{
		{`{"entries": [{"name": "a", "unit": "u", "better": "more", "ours": {"go": "p", "bench": "B", "metric": "u"}}]}`, `better = "more"`},
		{`{"entries": [{"name": "a", "unit": "u", "better": "lower", "ours": {"go": "p"}}]}`, "needs bench and metric"},
		{`{"entries": [{"name": "a", "unit": "u", "better": "lower", "ours": {"go": "p", "bench": "B", "metric": "u"}},
		               {"name": "a", "unit": "u", "better": "lower", "ours": {"go": "p", "bench": "B", "metric": "u"}}]}`, "must be unique"},
		{`{"entries": [], "extra": 1}`, "unknown field"},
	} {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, "m.json"), []byte(tc.manifest), 0o644)
		if _, err := loadEntries(dir); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("loadEntries(%s) error = %v; want %q", tc.manifest, err, tc.want)
		}
	}
}

// TestRepoManifests loads the real manifests: they must parse and expand.
func TestRepoManifests(t *testing.T) {
	es, err := loadEntries("../../scripts/bench/entries")
	if err != nil {
		t.Fatal(err)
	}
	if len(es) == 0 {
		t.Fatal("no entries")
	}
}

func TestResultsRatio(t *testing.T) {
	r := &runner{ours: map[string][]float64{"a": {1, 3, 2}, "b": {10}},
		anchors: map[string]map[string][]float64{"a": {"": {4}, "X unset": {8}}, "b": {"": {5}}}}
	es := []entry{
		{Name: "a", Unit: "GFLOP/s", Higher: true, Anchor: &measureSpec{Label: "np"}},
		{Name: "b", Unit: "ms", Higher: false, Anchor: &measureSpec{Label: "torch"}},
	}
	rs := r.results(es)
	if *rs[0].Ratio != 0.25 || rs[0].Anchor != "np [X unset]" || *rs[0].AnchorValue != 8 {
		t.Errorf("throughput result = %+v (ratio %v); want the faster anchor 8 and ratio 2/8", rs[0], *rs[0].Ratio)
	}
	if rs[1].paired != 0.5 {
		t.Errorf("paired ratio = %v; want 0.5", rs[1].paired)
	}
	if *rs[1].Ratio != 0.5 || math.IsNaN(rs[1].Value) {
		t.Errorf("time result ratio = %v; want anchor/ours = 0.5", *rs[1].Ratio)
	}
}

// What writeJSON writes is what the notebooks read back with
// bench.ReadReports.
func TestWriteJSONReadReports(t *testing.T) {
	r := &runner{ours: map[string][]float64{"a": {1, 3, 2}, "b": {10}},
		anchors: map[string]map[string][]float64{"a": {"": {4}}}}
	rs := r.results([]entry{
		{Name: "a", Unit: "GFLOP/s", Higher: true, Anchor: &measureSpec{Label: "np"}},
		{Name: "b", Unit: "ms"},
	})
	dir := t.TempDir()
	if err := writeJSON(filepath.Join(dir, "bench.json"), rs); err != nil {
		t.Fatal(err)
	}
	files, err := bench.ReadReports(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 1 || len(files[0].Reports) != 2 {
		t.Fatalf("ReadReports(%s) = %+v; want one file with 2 rows", dir, files)
	}
	for i, got := range files[0].Reports {
		want := rs[i].Report
		if got.Name != want.Name || got.Value != want.Value || got.Unit != want.Unit || got.Anchor != want.Anchor ||
			(got.AnchorValue == nil) != (want.AnchorValue == nil) || (got.Ratio == nil) != (want.Ratio == nil) {
			t.Errorf("row %d read back as %+v; want %+v", i, got, want)
		}
	}
	if a := files[0].Reports[0]; *a.AnchorValue != 4 || *a.Ratio != 0.5 {
		t.Errorf("row a: anchor %v, ratio %v; want 4 and 2/4", *a.AnchorValue, *a.Ratio)
	}
}
