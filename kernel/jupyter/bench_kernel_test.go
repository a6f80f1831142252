package jupyter

import (
	"fmt"
	"testing"
	"time"

	"github.com/dlbd/dlbd/kernel/internal/kerneltest"
)

// The cells of the latency benchmarks. Each run changes the cell (a new
// constant), so that every run compiles and links it: the case a student
// hits, not the rerun of an unchanged cell.
var latencyCells = map[string]string{
	"trivial": "%%%%\nfmt.Println(%d)",
	"import": `import (
	"github.com/dlbd/dlbd/dl"
	"github.com/dlbd/dlbd/kernel"
	"github.com/dlbd/dlbd/viz"
)
%%%%
_, _ = kernel.Context, viz.Init
fmt.Println(dl.Ones(2, 2).Sum().Item(), %d)`,
}

// BenchmarkCellLatency times a changed cell on the installed kernel in
// each mode: the stateful mode builds it as a plugin and loads it into the
// session's process, the process mode (GoNB) builds and runs a program.
// ms/cell is the time from execute_request to the idle status.
func BenchmarkCellLatency(b *testing.B) {
	for _, mode := range []string{"stateful", "process"} {
		for _, kind := range []string{"trivial", "import"} {
			b.Run(fmt.Sprintf("mode=%s/cell=%s", mode, kind), func(b *testing.B) {
				c := startClient(b, dlbdSpec(b, mode), 2*time.Minute)
				ctx := kerneltest.Context(b, 30*time.Minute)
				if _, err := c.Execute(ctx, fmt.Sprintf(latencyCells[kind], -1)); err != nil {
					b.Fatal(err) // warm-up: the session's first cell
				}
				var total time.Duration
				b.ResetTimer()
				for i := range b.N {
					ex, err := c.Execute(ctx, fmt.Sprintf(latencyCells[kind], i))
					if err != nil {
						b.Fatal(err)
					}
					total += ex.Elapsed
				}
				b.ReportMetric(float64(total.Microseconds())/1e3/float64(b.N), "ms/cell")
			})
		}
	}
}

// reuseSetup declares a small training run: an MLP fitted to a random
// regression task for 300 Adam steps.
const reuseSetup = `import (
	"github.com/dlbd/dlbd/dl"
	"github.com/dlbd/dlbd/dl/data"
	"github.com/dlbd/dlbd/dl/nn"
	"github.com/dlbd/dlbd/dl/optim"
	"github.com/dlbd/dlbd/kernel"
)

func entrenar() *nn.MLP {
	x, y, _, _ := data.Regression(data.RegressionConfig{N: 512, Dim: 16, Seed: 1})
	m := nn.NewMLP([]int{16, 64, 64, 1}, nn.MLPConfig{})
	opt := optim.NewAdam(nn.Parameters(m), optim.AdamConfig{LR: 1e-3})
	for range 300 {
		opt.ZeroGrad()
		dl.MSE(m.Forward(x), y.Reshape(-1, 1)).Backward()
		opt.Step()
	}
	return m
}

// Pesos are a model's parameters, for kernel.Cache (gob).
type Pesos struct{ W [][]float32 }

func desdeCache() *nn.MLP {
	p := kernel.Must(kernel.Cache("bench-modelo", func() (Pesos, error) {
		var p Pesos
		for _, t := range nn.Parameters(entrenar()) {
			p.W = append(p.W, t.Float32s())
		}
		return p, nil
	}))
	m := nn.NewMLP([]int{16, 64, 64, 1}, nn.MLPConfig{})
	for i, t := range nn.Parameters(m) {
		t.CopyInPlace(dl.FromSlice(p.W[i], t.Shape()...))
	}
	return m
}

var consulta = dl.Ones(4, 16)`

// BenchmarkValueReuse times a cell that uses a trained model: kept in the
// stateful session's memory (how=stateful), trained again as the process
// mode's "var m = entrenar()" does in every cell (how=retrain), and loaded
// from kernel.Cache in the process mode (how=cache).
func BenchmarkValueReuse(b *testing.B) {
	cells := map[string]struct{ mode, before, cell string }{
		"stateful": {"stateful", "%%\nmodelo := entrenar()", "%%%%\nfmt.Println(modelo.Forward(consulta).Shape(), %d)"},
		"retrain":  {"process", "", "%%%%\nmodelo := entrenar()\nfmt.Println(modelo.Forward(consulta).Shape(), %d)"},
		"cache":    {"process", "%%\n_ = desdeCache()", "%%%%\nmodelo := desdeCache()\nfmt.Println(modelo.Forward(consulta).Shape(), %d)"},
	}
	for _, how := range []string{"stateful", "retrain", "cache"} {
		b.Run("how="+how, func(b *testing.B) {
			tc := cells[how]
			c := startClient(b, dlbdSpec(b, tc.mode), 2*time.Minute)
			ctx := kerneltest.Context(b, 30*time.Minute)
			for _, code := range []string{reuseSetup, tc.before, fmt.Sprintf(tc.cell, -1)} {
				if code == "" {
					continue
				}
				if ex, err := c.Execute(ctx, code); err != nil {
					b.Fatalf("%v\n%s", err, stderrOf(ex))
				}
			}
			var total time.Duration
			b.ResetTimer()
			for i := range b.N {
				ex, err := c.Execute(ctx, fmt.Sprintf(tc.cell, i))
				if err != nil {
					b.Fatal(err)
				}
				total += ex.Elapsed
			}
			b.ReportMetric(float64(total.Microseconds())/1e3/float64(b.N), "ms/cell")
		})
	}
}
