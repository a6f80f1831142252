package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/dlbd/dlbd/kernel/jupyter"
	"github.com/dlbd/dlbd/kernel/kernelspec"
)

// latencyCells are the cells cell-latency times: the same trivial body with nothing, a
// pure-Go big-data package (Arrow/Parquet), the gRPC Spark client, and DuckDB (cgo) linked.
var latencyCells = []struct{ name, imports, body string }{
	{"fmt only", "", `fmt.Println("run", %d)`},
	{"bigdata/columnar (arrow-go, pure Go)", `import "github.com/dlbd/dlbd/bigdata/columnar"`,
		`fmt.Println("run", %d, len(columnar.Regions))`},
	{"bigdata/spark (Spark Connect client, gRPC)", `import "github.com/dlbd/dlbd/bigdata/spark"`,
		`fmt.Println("run", %d, spark.DefaultPort)`},
	{"bigdata/duck (DuckDB, cgo) + SELECT 42", `import (
	"context"
	"github.com/dlbd/dlbd/bigdata/duck"
	"github.com/dlbd/dlbd/kernel"
)`, `db := kernel.Must(duck.Open(1))
res := kernel.Must(db.Query(context.Background(), "SELECT 42"))
fmt.Println("run", %d, res.Rows[0][0])`},
}

// cellLatency starts the kernel kernelName and, in each mode (the kernel's default, stateful,
// then %mode process), times each cell once (first run) and runs more times, each with a
// changed body (so the cell is compiled and linked again, as when a student edits it), and
// prints the medians.
func cellLatency(ctx context.Context, kernelName string, runs int, modes []string) error {
	repo, err := kernelspec.FindRepo(".")
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
			var samples []time.Duration
			failed := ""
			for i := 0; i <= runs; i++ {
				code := cell.imports + "\n%%\n" + fmt.Sprintf(cell.body, i)
				ex, err := c.Execute(ctx, code)
				if err != nil {
					failed = fmt.Sprintf("%.110s", strings.ReplaceAll(err.Error(), "\n", " "))
					break
				}
				samples = append(samples, ex.Elapsed)
			}
			if failed != "" {
				fmt.Printf("| %s | %s | fails: %s | |\n", mode, cell.name, failed)
				continue
			}
			first, rest := samples[0], slices.Sorted(slices.Values(samples[1:]))
			fmt.Printf("| %s | %s | %v | %v (%v–%v) |\n", mode, cell.name, first.Round(time.Millisecond),
				rest[len(rest)/2].Round(time.Millisecond), rest[0].Round(time.Millisecond), rest[len(rest)-1].Round(time.Millisecond))
		}
	}
	return nil
}
