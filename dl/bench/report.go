package bench

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// Report is one row of the file `make bench` writes (build/bench.json,
// by cmd/dlbd-bench, which uses this type): the median of one of dlbd's
// benchmarks over the rounds, and of its anchor (the same computation in
// NumPy or PyTorch) measured in the same rounds on the same machine.
type Report struct {
	Name  string  `json:"name"`  // the entry, e.g. "sgemm/n=512" or "amp-step/bf16"
	Value float64 `json:"value"` // dlbd's median, in Unit
	Unit  string  `json:"unit"`  // "GFLOP/s", "ms", ...
	// Anchor says what the anchor ran ("" for an entry without one).
	Anchor string `json:"anchor"`
	// AnchorValue is the anchor's median in Unit, and Ratio is Value ÷
	// AnchorValue for throughputs and AnchorValue ÷ Value for times
	// (above 1, dlbd is faster); both are nil when the entry has no
	// anchor or the anchor could not run.
	AnchorValue *float64 `json:"anchor_value"`
	Ratio       *float64 `json:"ratio"`
	// Load is the number of competing busy processes that ran during the
	// measurements (dlbd-bench -load; 0 on a machine left to itself).
	Load int `json:"load"`
}

// ReportFile is the rows of one report file.
type ReportFile struct {
	Path    string
	Reports []Report
}

// ReadReports reads the report files in dir: bench.json and its variants
// bench*.json (another machine's, a GPU run's), in name order.  A dir
// without any is no error (nil: `make bench` has not run); a file that
// cannot be read or is not a list of Reports is an error naming it.
func ReadReports(dir string) ([]ReportFile, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "bench*.json"))
	if err != nil {
		return nil, fmt.Errorf("bench: reports in %s: %w", dir, err)
	}
	var out []ReportFile
	for _, p := range paths { // Glob sorts them
		data, err := os.ReadFile(p)
		if err != nil {
			return nil, fmt.Errorf("bench: %w", err)
		}
		f := ReportFile{Path: p}
		if err := json.Unmarshal(data, &f.Reports); err != nil {
			return nil, fmt.Errorf("bench: %s is not a bench report: %w", p, err)
		}
		out = append(out, f)
	}
	return out, nil
}
