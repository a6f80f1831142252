package jupyter

import (
	"fmt"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/dlbd/dlbd/kernel/internal/kerneltest"
)

// BenchmarkCellLatencyVsBaseline times a changed cell (latencyCells) in
// the stateful mode on the installed kernel and on a baseline kernel,
// alternating between the two run by run (and which goes first), so that
// the shared machine's load falls on both alike. The baseline is the
// kernelspec directory in $DLBD_BASELINE_KERNELSPEC, e.g. the one that
// `bin/dlbd install -repo DIR` wrote in a git worktree DIR of an earlier
// commit; without it the benchmark is skipped. It reports the medians:
// ms/cell (installed) and baseline-ms/cell. b.N is the runs of each.
func BenchmarkCellLatencyVsBaseline(b *testing.B) {
	dir := os.Getenv("DLBD_BASELINE_KERNELSPEC")
	if dir == "" {
		b.Skip("set DLBD_BASELINE_KERNELSPEC to a kernelspec directory to compare with")
	}
	for _, kind := range []string{"trivial", "import"} {
		b.Run("cell="+kind, func(b *testing.B) {
			base, err := ReadKernelSpec(dir)
			if err != nil {
				b.Fatal(err)
			}
			base.Env["DLBD_MODE"] = "stateful"
			cs := []*Client{startClient(b, dlbdSpec(b, "stateful"), 2*time.Minute), startClient(b, base, 2*time.Minute)}
			ctx := kerneltest.Context(b, 30*time.Minute)
			samples := make([][]time.Duration, 2)
			for i := -1; i < b.N; i++ { // run -1 warms both up
				for j := range 2 {
					k := (i + 1 + j) % 2
					ex, err := cs[k].Execute(ctx, fmt.Sprintf(latencyCells[kind], i))
					if err != nil {
						b.Fatalf("kernel %d: %v\n%s", k, err, stderrOf(ex))
					}
					if i >= 0 {
						samples[k] = append(samples[k], ex.Elapsed)
					}
				}
			}
			for k, unit := range []string{"ms/cell", "baseline-ms/cell"} {
				slices.Sort(samples[k])
				b.ReportMetric(float64(samples[k][len(samples[k])/2].Microseconds())/1e3, unit)
			}
		})
	}
}
