package jupyter

import (
	"fmt"
	"testing"
	"time"

	"github.com/dlbd/dlbd/kernel/internal/kerneltest"
)

// BenchmarkEngineCellLatency times the changed cells of LatencyCells (dl, and
// the Big Data engines on values made by an earlier cell) in the stateful
// mode, and the DuckDB cell in the process mode too, where every cell links
// DuckDB again (and opens its database again). ms/cell is the time from
// execute_request to the idle status.
func BenchmarkEngineCellLatency(b *testing.B) {
	type run struct{ mode, key string }
	var runs []run
	for _, c := range LatencyCells {
		runs = append(runs, run{"stateful", c.Key})
	}
	runs = append(runs, run{"process", "duckdb"})
	for _, r := range runs {
		b.Run(fmt.Sprintf("mode=%s/cell=%s", r.mode, r.key), func(b *testing.B) {
			var cell LatencyCell
			for _, c := range LatencyCells {
				if c.Key == r.key {
					cell = c
				}
			}
			c := startClient(b, dlbdSpec(b, r.mode), 2*time.Minute)
			ctx := kerneltest.Context(b, 30*time.Minute)
			if cell.Setup != "" {
				if ex, err := c.Execute(ctx, cell.Setup); err != nil {
					b.Fatalf("setup: %v\n%s", err, stderrOf(ex))
				}
			}
			if ex, err := c.Execute(ctx, cell.Numbered(-1)); err != nil {
				b.Fatalf("warm-up: %v\n%s", err, stderrOf(ex))
			}
			var total time.Duration
			b.ResetTimer()
			for i := range b.N {
				ex, err := c.Execute(ctx, cell.Numbered(i))
				if err != nil {
					b.Fatalf("%v\n%s", err, stderrOf(ex))
				}
				total += ex.Elapsed
			}
			b.ReportMetric(float64(total.Microseconds())/1e3/float64(b.N), "ms/cell")
		})
	}
}
