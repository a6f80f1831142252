package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/dlbd/dlbd/internal/checkout"
	"github.com/dlbd/dlbd/kernel/jupyter"
)

// latencyCells are the cells cell-latency times: the same trivial body with nothing, a
// pure-Go big-data package (Arrow/Parquet), the gRPC Spark client, and DuckDB (cgo)
// linked. Each code is a format whose %d is the run's number, so every run is a changed
// cell ("%%%%" is the cell's "%%" line).
var latencyCells = []struct{ name, code string }{
	{"fmt only", "\n%%%%\n" + `fmt.Println("run", %d)`},
	{"bigdata/columnar (arrow-go, pure Go)", `import "github.com/dlbd/dlbd/bigdata/columnar"
%%%%
fmt.Println("run", %d, len(columnar.Regions))`},
	{"bigdata/spark (Spark Connect client, gRPC)", `import "github.com/dlbd/dlbd/bigdata/spark"
%%%%
fmt.Println("run", %d, spark.DefaultPort)`},
	{"bigdata/duck (DuckDB, cgo) + SELECT 42", `import (
	"context"
	"github.com/dlbd/dlbd/bigdata/duck"
	"github.com/dlbd/dlbd/kernel"
)
%%%%
db := kernel.Must(duck.Open(1))
res := kernel.Must(db.Query(context.Background(), "SELECT 42"))
fmt.Println("run", %d, res.Rows[0][0])`},
}

// numbered is the jupyter.LatencyOptions.Edit of latencyCells: run i fills in i.
func numbered(code string, run int) string { return fmt.Sprintf(code, run) }

func runCellLatency(ctx context.Context, args []string) error {
	fs := newFlagSet("cell-latency")
	kernelName := fs.String("kernel", "dlbd", "kernelspec to measure (e.g. the stateful mode's)")
	runs := fs.Int("runs", 9, "timed runs of each cell after the first")
	modes := fs.String("modes", "stateful,process", "kernel modes to measure, in order (%mode names)")
	timeout := fs.Duration("timeout", 10*time.Minute, "time limit of the whole measurement")
	if err := fs.Parse(args); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()
	return cellLatency(ctx, *kernelName, *runs, strings.Split(*modes, ","))
}

// cellLatency starts the kernel kernelName and, in each of modes (set by %mode; the
// default is stateful, then process), times each cell once (first run) and measures runs more runs, each
// with a changed body (so the cell is compiled and linked again, as when a student edits
// it), and prints the medians as a Markdown table.
func cellLatency(ctx context.Context, kernelName string, runs int, modes []string) error {
	repo, err := checkout.Find(".")
	if err != nil {
		return err
	}
	c, err := jupyter.Start(ctx, jupyter.Options{KernelName: kernelName,
		Path: append([]string{filepath.Join(repo, ".jupyter")}, jupyter.DataPath()...), Dir: repo})
	if err != nil {
		return fmt.Errorf("start kernel %s: %w (run `make kernel` first)", kernelName, err)
	}
	defer c.Close()
	host, _ := os.Hostname()
	fmt.Printf("cell latency, kernel %s on %s, %d changed runs per cell after the first\n\n", kernelName, host, runs)
	fmt.Printf("| mode | cell | first run | median of %d (min–max) |\n|---|---|---|---|\n", runs)
	for _, mode := range modes {
		if ex, err := c.Execute(ctx, "%mode "+mode); err != nil {
			return fmt.Errorf("%%mode %s: %w\n%s", mode, err, ex.Stderr())
		}
		for _, cell := range latencyCells {
			first, err := c.Execute(ctx, numbered(cell.code, -1))
			var l jupyter.Latency
			if err == nil {
				l, err = c.MeasureLatency(ctx, cell.code, jupyter.LatencyOptions{Runs: runs, Edit: numbered})
			}
			if err != nil {
				fmt.Printf("| %s | %s | fails: %.110s | |\n", mode, cell.name, strings.ReplaceAll(err.Error(), "\n", " "))
				continue
			}
			ms := func(d time.Duration) time.Duration { return d.Round(time.Millisecond) }
			fmt.Printf("| %s | %s | %v | %v (%v–%v) |\n", mode, cell.name, ms(first.Elapsed), ms(l.Median), ms(l.Min), ms(l.Max))
		}
	}
	return nil
}
