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

func runCellLatency(ctx context.Context, args []string) error {
	fs := newFlagSet("cell-latency")
	kernelName := fs.String("kernel", "dlbd", "kernelspec to measure (e.g. the stateful mode's)")
	runs := fs.Int("runs", 9, "timed runs of each cell after the first")
	modes := fs.String("modes", "stateful,process", "kernel modes to measure, in order (%mode names)")
	timeout := fs.Duration("timeout", 15*time.Minute, "time limit of the whole measurement")
	if err := fs.Parse(args); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()
	return cellLatency(ctx, *kernelName, *runs, strings.Split(*modes, ","))
}

// cellLatency starts the kernel kernelName and, in each of modes (set by %mode; the
// default is stateful, then process), runs each of jupyter.LatencyCells' setup, times
// the cell once (first run) and measures runs more runs, each with a changed body (so
// the cell is compiled and linked again, as when a student edits it), and prints the
// medians as a Markdown table, with each cell's ratio to the dl cell of the same mode.
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
	fmt.Printf("| mode | cell | first run | median of %d (min–max) | / dl cell |\n|---|---|---|---|---|\n", runs)
	numbered := func(code string, run int) string { return fmt.Sprintf(code, run) }
	ms := func(d time.Duration) time.Duration { return d.Round(time.Millisecond) }
	for _, mode := range modes {
		if ex, err := c.Execute(ctx, "%mode "+mode); err != nil {
			return fmt.Errorf("%%mode %s: %w\n%s", mode, err, ex.Stderr())
		}
		var dl time.Duration
		for _, cell := range jupyter.LatencyCells {
			var first *jupyter.Execution
			var l jupyter.Latency
			var err error
			if cell.Setup != "" {
				_, err = c.Execute(ctx, cell.Setup)
			}
			if err == nil {
				first, err = c.Execute(ctx, cell.Numbered(-1))
			}
			if err == nil {
				l, err = c.MeasureLatency(ctx, cell.Code, jupyter.LatencyOptions{Runs: runs, Edit: numbered})
			}
			if err != nil {
				fmt.Printf("| %s | %s | fails: %.110s | | |\n", mode, cell.Name, strings.ReplaceAll(err.Error(), "\n", " "))
				continue
			}
			if cell.Key == "dl" {
				dl = l.Median
			}
			ratio := ""
			if dl > 0 {
				ratio = fmt.Sprintf("%.2f×", l.Median.Seconds()/dl.Seconds())
			}
			fmt.Printf("| %s | %s | %v | %v (%v–%v) | %s |\n", mode, cell.Name, ms(first.Elapsed), ms(l.Median), ms(l.Min), ms(l.Max), ratio)
		}
	}
	return nil
}
