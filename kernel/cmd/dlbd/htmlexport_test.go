package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dlbd/dlbd/kernel/internal/kerneltest"
	"github.com/dlbd/dlbd/viz"
	"github.com/dlbd/dlbd/viz/browser"
)

func TestHTMLTemplate(t *testing.T) {
	base, err := writeHTMLTemplate(t.TempDir(), "<script>var lib = '{{ not jinja }}';</script>")
	if err != nil {
		t.Fatal(err)
	}
	index, err := os.ReadFile(filepath.Join(base, htmlTemplateName, "index.html.j2"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"{%- extends 'lab/index.html.j2' -%}", "{{ super() }}",
		"{% raw %}<script>var lib = '{{ not jinja }}';</script>{% endraw %}"} {
		if !strings.Contains(string(index), want) {
			t.Errorf("index.html.j2 lacks %q:\n%s", want, index)
		}
	}
	var conf struct {
		BaseTemplate string `json:"base_template"`
	}
	data, err := os.ReadFile(filepath.Join(base, htmlTemplateName, "conf.json"))
	if err != nil || json.Unmarshal(data, &conf) != nil || conf.BaseTemplate != "lab" {
		t.Errorf("conf.json = %s (%v); want base_template lab", data, err)
	}
	if _, err := writeHTMLTemplate(t.TempDir(), "<script>/* {% endraw %} */</script>"); err == nil || !strings.Contains(err.Error(), "make kernel") {
		t.Errorf("a library containing endraw: %v; want an error naming make kernel", err)
	}
}

func TestHTMLExporterNeedsTheLibrary(t *testing.T) {
	t.Setenv(viz.AssetsEnv, "")
	t.Setenv(viz.EChartsFileEnv, "")
	_, err := newHTMLExporter("jupyter", nil, t.TempDir()) // a checkout without .assets
	if err == nil || !strings.Contains(err.Error(), "make kernel") || !strings.Contains(err.Error(), "HTML export") {
		t.Errorf("newHTMLExporter without ECharts: %v; want an error naming the HTML export and make kernel", err)
	}
}

// chartsNotebook is a notebook with three charts and no viz.Init.
const chartsNotebook = `{
 "nbformat": 4, "nbformat_minor": 5,
 "metadata": {"kernelspec": {"display_name": "Go (Deep Learning y Big Data)", "language": "go", "name": "dlbd"}, "language_info": {"name": "go"}},
 "cells": [
  {"cell_type": "code", "id": "c1", "metadata": {}, "outputs": [], "execution_count": null, "source": "import \"github.com/dlbd/dlbd/viz\""},
  {"cell_type": "code", "id": "c2", "metadata": {}, "outputs": [], "execution_count": null, "source": "%%\nviz.Show(viz.ComputeTrends())"},
  {"cell_type": "code", "id": "c3", "metadata": {}, "outputs": [], "execution_count": null, "source": "%%\nviz.Show(viz.Datasphere())"},
  {"cell_type": "code", "id": "c4", "metadata": {}, "outputs": [], "execution_count": null, "source": "%%\nviz.Show(viz.MLvsDL())"}
 ]
}
`

// TestNotebookWithChartsIsSmallAndItsHTMLDraws executes a notebook of three
// charts without viz.Init on the installed kernel (dlbd notebooks -html):
// the executed notebook must not carry the ECharts library (under 200 KB;
// it was 1.1 MB when every notebook saved it), its HTML export must carry it
// once, in the head, and, where Chromium is installed, draw every chart.
func TestNotebookWithChartsIsSmallAndItsHTMLDraws(t *testing.T) {
	if testing.Short() {
		t.Skip("executes a notebook on the kernel")
	}
	repo := kerneltest.RepoRoot(t)
	for _, need := range []string{filepath.Join(repo, ".venv", "bin", "jupyter"), filepath.Join(repo, ".jupyter", "kernels", "dlbd", "kernel.json"),
		filepath.Join(repo, ".assets", "echarts", viz.EChartsVersion, "echarts.min.js")} {
		if _, err := os.Stat(need); err != nil {
			kerneltest.Missing(t, "%s is missing: run make kernel", need)
		}
	}
	t.Setenv(viz.AssetsEnv, "") // newHTMLExporter finds <repo>/.assets
	t.Setenv(viz.EChartsFileEnv, "")
	dir := t.TempDir()
	nb := filepath.Join(dir, "charts.ipynb")
	if err := os.WriteFile(nb, []byte(chartsNotebook), 0o644); err != nil {
		t.Fatal(err)
	}
	out, html := filepath.Join(dir, "out"), filepath.Join(dir, "html")
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	if err := runNotebooks(ctx, []string{"-out", out, "-html", html, nb}); err != nil {
		t.Fatalf("dlbd notebooks: %v (its report is above)", err)
	}
	executed, err := os.ReadFile(filepath.Join(out, "charts.ipynb"))
	if err != nil {
		t.Fatal(err)
	}
	const library = "(function (define, exports, module) {"
	t.Logf("executed notebook with 3 charts: %d bytes", len(executed))
	if len(executed) >= 200_000 {
		t.Errorf("executed notebook with 3 charts = %d bytes; want < 200 KB", len(executed))
	}
	if strings.Contains(string(executed), library) {
		t.Error("the executed notebook carries the ECharts library; viz must replace it with a stub once sent")
	}
	if n := strings.Count(string(executed), `class=\"viz-echarts\"`); n != 3 {
		t.Errorf("executed notebook has %d charts; want 3", n)
	}
	page, err := os.ReadFile(filepath.Join(html, "charts.html"))
	if err != nil {
		t.Fatal(err)
	}
	head, _, _ := strings.Cut(string(page), "</head>")
	if n := strings.Count(string(page), library); n != 1 || !strings.Contains(head, library) {
		t.Errorf("HTML export has the library %d times (in the head: %v); want once, in the head", n, strings.Contains(head, library))
	}
	if _, err := browser.Chromium(browser.Options{}); err != nil {
		if os.Getenv("DLBD_REQUIRE_BROWSER") == "1" {
			t.Fatal(err)
		}
		t.Logf("charts not checked in a browser: %v", err)
		return
	}
	reps, err := browser.CheckFile(ctx, filepath.Join(html, "charts.html"), browser.Options{ScreenshotDir: filepath.Join(dir, "screenshots")})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range reps {
		if err := r.Err(); err != nil {
			t.Error(err)
		} else if len(r.Charts) != 3 {
			t.Errorf("%s: %d charts checked; want 3", r.Mode, len(r.Charts))
		}
	}
}
