package bench

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadReports(t *testing.T) {
	dir := t.TempDir()
	if files, err := ReadReports(dir); err != nil || files != nil {
		t.Errorf("ReadReports(empty dir) = %v, %v; want nil, nil", files, err)
	}
	write := func(name, data string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("bench.json", `[{"name": "amp-step/bf16", "value": 12.5, "unit": "ms", "anchor": "torch", "anchor_value": 10, "ratio": 0.8},
		{"name": "sgemm/n=64", "value": 50, "unit": "GFLOP/s", "anchor": "", "anchor_value": null, "ratio": null}]`)
	write("bench-gpu.json", `[]`)
	write("other.json", `not json`) // not a report file: not read
	files, err := ReadReports(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 2 || filepath.Base(files[0].Path) != "bench-gpu.json" || filepath.Base(files[1].Path) != "bench.json" {
		t.Fatalf("ReadReports = %+v; want bench-gpu.json and bench.json, in name order", files)
	}
	rs := files[1].Reports
	if len(rs) != 2 || rs[0].Name != "amp-step/bf16" || rs[0].Value != 12.5 || rs[0].AnchorValue == nil || *rs[0].AnchorValue != 10 ||
		*rs[0].Ratio != 0.8 || rs[1].AnchorValue != nil || rs[1].Ratio != nil {
		t.Errorf("bench.json read as %+v", rs)
	}

	write("bench-bad.json", `{"name": "x"}`)
	if _, err := ReadReports(dir); err == nil || !strings.Contains(err.Error(), "bench-bad.json") || !strings.HasPrefix(err.Error(), "bench: ") {
		t.Errorf("ReadReports with a bad file: error %v; want one naming bench-bad.json", err)
	}
}
