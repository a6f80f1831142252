package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/dlbd/dlbd/internal/checkout"
	"github.com/dlbd/dlbd/kernel/kernelspec"
	"github.com/dlbd/dlbd/kernel/nbexec"
)

func runNotebooks(ctx context.Context, args []string) error {
	fs := newFlagSet("notebooks")
	jupyter := fs.String("jupyter", "", "jupyter executable (default <repo>/.venv/bin/jupyter, else jupyter on PATH)")
	out := fs.String("out", "build/notebooks", "directory for the executed copies")
	html := fs.String("html", "", "if set, also export each executed notebook to HTML into this directory (with the ECharts library inlined, so charts draw offline)")
	timeout := fs.Duration("cell-timeout", 10*time.Minute, "time limit of one cell")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return fmt.Errorf("notebooks: name the notebooks to execute")
	}
	repo, err := checkout.Find(".")
	if err != nil {
		return err
	}
	if *jupyter == "" {
		*jupyter = filepath.Join(repo, ".venv", "bin", "jupyter")
		if _, err := os.Stat(*jupyter); err != nil {
			if *jupyter, err = exec.LookPath("jupyter"); err != nil {
				return fmt.Errorf("notebooks: no Jupyter in %s/.venv nor on PATH; run `make kernel`", repo)
			}
		}
	}
	env := append(os.Environ(), "JUPYTER_PATH="+joinPath(filepath.Join(repo, ".jupyter"), os.Getenv("JUPYTER_PATH")))
	o := nbexec.Options{Jupyter: *jupyter, KernelName: kernelspec.Name, OutDir: *out, CellTimeout: *timeout, Env: env}
	var exporter *htmlExporter
	if *html != "" {
		// Executed notebooks do not carry the ECharts library: the export
		// inlines it (see htmlexport.go). Checked before any notebook runs.
		if exporter, err = newHTMLExporter(*jupyter, env, repo); err != nil {
			return err
		}
		defer exporter.close()
	}
	passed, failed := 0, 0
	// A notebook's HTML export (a Python process, 5-10 s) runs beside the
	// next notebook's execution; at most one at a time.
	var exporting chan error
	var exportingNB string
	waitExport := func() {
		if exporting == nil {
			return
		}
		if herr := <-exporting; herr != nil {
			failed++
			fmt.Printf("FAIL %s: HTML export: %v\n", exportingNB, herr)
		}
		exporting = nil
	}
	for _, nb := range fs.Args() {
		res, err := nbexec.Execute(ctx, nb, o)
		switch {
		case err != nil:
			failed++
			fmt.Printf("FAIL %s\n%s\n", nb, indent(err.Error()))
		case len(res.Failures) > 0:
			failed++
			fmt.Printf("FAIL %s (%.1fs): %d failed cell(s); executed copy: %s\n", nb, res.Duration.Seconds(), len(res.Failures), res.Executed)
			for _, f := range res.Failures {
				fmt.Println(indent(f.String()))
			}
		default:
			passed++
			fmt.Printf("ok   %s (%.1fs, %d code cells, slowest %s)\n", nb, res.Duration.Seconds(), len(res.Cells), slowest(res.Cells))
		}
		if err == nil && exporter != nil {
			waitExport()
			exporting, exportingNB = make(chan error, 1), nb
			go func(executed string, done chan<- error) { done <- exporter.export(ctx, executed, *html) }(res.Executed, exporting)
		}
	}
	waitExport()
	fmt.Printf("notebooks: %d passed, %d failed\n", passed, failed)
	if failed > 0 {
		return exitError{"notebooks failed"}
	}
	return nil
}

func slowest(cells []nbexec.CellTiming) string {
	best := nbexec.CellTiming{}
	for _, c := range cells {
		if c.Duration > best.Duration {
			best = c
		}
	}
	if best.Cell == 0 {
		return "n/a"
	}
	return fmt.Sprintf("cell %d %.1fs", best.Cell, best.Duration.Seconds())
}

func indent(s string) string {
	return "    " + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n    ")
}

func joinPath(parts ...string) string {
	var keep []string
	for _, p := range parts {
		if p != "" {
			keep = append(keep, p)
		}
	}
	return strings.Join(keep, string(os.PathListSeparator))
}
