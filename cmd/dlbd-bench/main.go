// Command dlbd-bench runs dlbd's benchmarks next to their anchors (NumPy /
// OpenBLAS, PyTorch CPU) and writes build/bench.json; `make bench` runs it.
//
// The entries come from the JSON manifests in scripts/bench/entries (one
// file per area; scripts/bench/README.md documents the format and how to
// add one).  Each entry names how to measure ours (a Go benchmark) and,
// optionally, its anchor (a case of a Python anchor script).  The machine
// is shared and noisy, so every round measures each entry's ours and
// anchor back to back (alternating which goes first) and the report keeps
// the median over rounds.  ratio = ours ÷ anchor for throughputs and
// anchor ÷ ours for times: higher is better either way.
//
// Usage (from the repository root):
//
//	go run ./cmd/dlbd-bench [-rounds 5] [-budget 200ms] [-run REGEXP] [-load N] [-out build/bench.json]
//
// With -load N the driver starts N processes that each keep a core busy
// (a laptop's other programs) before the first round and stops them after
// the last: ours and the anchors are measured under the same load.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"time"
)

func main() {
	if len(os.Args) == 2 && os.Args[1] == spinFlag {
		spin()
	}
	rounds := flag.Int("rounds", 5, "interleaved rounds; the report keeps the median")
	budget := flag.Duration("budget", 200*time.Millisecond, "time per measurement (Go -benchtime and the anchors' budget)")
	settle := flag.Duration("settle", 100*time.Millisecond, "pause after each anchor measurement (OpenBLAS/OpenMP workers spin after a call)")
	run := flag.String("run", "", "only entries whose name matches this regexp")
	dir := flag.String("entries", "scripts/bench/entries", "directory of entry manifests")
	out := flag.String("out", "build/bench.json", "JSON output")
	python := flag.String("python", "/usr/bin/python3", "Python with the anchors' packages (scripts/bench/run.sh: Debian's NumPy and PyPI's torch in a venv)")
	list := flag.Bool("list", false, "list the entries and exit")
	deadline := flag.Duration("deadline", 9*time.Minute, "start no new round (after the first two) that would end after this")
	load := flag.Int("load", 0, "competing busy processes (one core each) running during the measurements")
	flag.Parse()
	if *load < 0 {
		fmt.Fprintf(os.Stderr, "dlbd-bench: -load %d: the number of competing processes cannot be negative\n", *load)
		os.Exit(2)
	}
	if err := mainErr(*rounds, *budget, *settle, *deadline, *load, *run, *dir, *out, *python, *list); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func mainErr(rounds int, budget, settle, deadline time.Duration, load int, run, dir, out, python string, list bool) error {
	entries, err := loadEntries(dir)
	if err != nil {
		return err
	}
	if run != "" {
		re, err := regexp.Compile(run)
		if err != nil {
			return fmt.Errorf("dlbd-bench: -run: %w", err)
		}
		var keep []entry
		for _, e := range entries {
			if re.MatchString(e.Name) {
				keep = append(keep, e)
			}
		}
		entries = keep
	}
	if list {
		for _, e := range entries {
			fmt.Println(e.Name)
		}
		return nil
	}
	if len(entries) == 0 {
		return errors.New("dlbd-bench: no entries selected")
	}
	if _, err := exec.LookPath(python); err != nil {
		fmt.Fprintf(os.Stderr, "dlbd-bench: %s not found: anchors are skipped (scripts/bench/run.sh installs them)\n", python)
		python = ""
	}
	root, err := os.Getwd()
	if err != nil {
		return err
	}
	ctx := context.Background()
	r := newRunner(ctx, root, python, budget, settle)
	defer r.close()
	comp, err := startCompetitors(ctx, load)
	if err != nil {
		return err
	}
	defer comp.stop()
	start := time.Now()
	load0 := loadAverage()
	done := 0
	for i := 0; i < rounds; i++ {
		if el := time.Since(start); i >= 2 && el+el/time.Duration(i) > deadline {
			fmt.Fprintf(os.Stderr, "dlbd-bench: stopping after %d rounds: another would end after -deadline %s\n", i, deadline)
			break
		}
		done++
		for _, e := range entries {
			r.measureEntry(e, i%2 == 1)
		}
		fmt.Fprintf(os.Stderr, "dlbd-bench: round %d/%d done (%s)\n", i+1, rounds, time.Since(start).Round(time.Second))
	}
	comp.stop()
	results := r.results(entries)
	for i := range results {
		results[i].Load = load
	}
	printTable(os.Stdout, results, r.anchorInfo())
	if load > 0 {
		fmt.Printf("measured with %d competing busy process(es) (-load %d)\n", load, load)
	}
	if err := writeJSON(out, results); err != nil {
		return err
	}
	fmt.Printf("load average (1 min) before: %s, after: %s (2 cores: above ~0.5 other work competed; prefer the paired ratios)\n", load0, loadAverage())
	fmt.Printf("\nwrote %s (%d entries, %d rounds, %s)\n", out, len(results), done, time.Since(start).Round(time.Second))
	return nil
}

// loadAverage returns the 1-minute load average from /proc/loadavg, or "?".
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(b)); err == nil && len(f) > 0 {
		return f[0]
	}
	return "?"
}
