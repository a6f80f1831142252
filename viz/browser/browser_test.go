package browser

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dlbd/dlbd/viz"
)

// needBrowser skips (or fails, with DLBD_REQUIRE_BROWSER=1) without Chromium
// or the installed ECharts library.
func needBrowser(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("browser tests are not short")
	}
	skip := t.Skipf
	if os.Getenv("DLBD_REQUIRE_BROWSER") == "1" {
		skip = t.Fatalf
	}
	if _, err := Chromium(Options{}); err != nil {
		skip("%v", err)
	}
	if os.Getenv(viz.AssetsEnv) == "" {
		t.Setenv(viz.AssetsEnv, "../../.assets")
	}
	if _, err := viz.LocateECharts(); err != nil {
		skip("%v", err)
	}
}

// page writes an HTML page like an nbconvert export: the loader, then charts
// and a finished progress bar.
func page(t *testing.T, charts ...viz.Chart) string {
	t.Helper()
	init, err := viz.InitHTML()
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString("<!DOCTYPE html><html><head><meta charset=\"utf-8\"></head><body>\n" + init)
	for _, c := range charts {
		b.WriteString(must(viz.Fragment(c)))
	}
	p := viz.NewProgress(3, viz.ProgressOptions{Sink: nopSink{}})
	p.Set(3)
	b.WriteString(p.HTML())
	b.WriteString("</body></html>\n")
	file := filepath.Join(t.TempDir(), "page.html")
	if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}

type nopSink struct{}

func (nopSink) DisplayHTML(string)        {}
func (nopSink) UpdateHTML(string, string) {}
func (nopSink) DisplayMarkdown(string)    {}

func must(s string, err error) string {
	if err != nil {
		panic(err)
	}
	return s
}

func TestModeString(t *testing.T) {
	for _, tc := range []struct {
		m    Mode
		want string
	}{
		{m: Drawn, want: "drawn"},
		{m: NoScript, want: "noscript"},
		{m: NoLibrary, want: "nolibrary"},
		{m: Mode(7), want: "Mode(7)"},
		{m: Mode(-1), want: "Mode(-1)"},
	} {
		if got := tc.m.String(); got != tc.want {
			t.Errorf("Mode(%d).String() = %q; want %q", int(tc.m), got, tc.want)
		}
	}
}

func TestVizChartsInChromium(t *testing.T) {
	needBrowser(t)
	file := page(t, viz.ComputeTrends(), viz.Datasphere(), viz.PipelineGantt([]viz.GanttEvent{{Stage: 0, Kind: "F", Start: 0, End: 1}}))
	reps, err := CheckFile(context.Background(), file, Options{ScreenshotDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range reps {
		if err := r.Err(); err != nil {
			t.Error(err)
		}
		if len(r.Charts) != 3 {
			t.Errorf("%s: %d charts checked; want 3", r.Mode, len(r.Charts))
		}
		if r.Mode == Drawn && r.Progress != 1 {
			t.Errorf("finished progress bars found = %d; want 1", r.Progress)
		}
	}
}

func TestCheckCatchesABrokenChart(t *testing.T) {
	needBrowser(t)
	file := page(t, viz.MLvsDL())
	src, _ := os.ReadFile(file)
	// Break the chart's option: the fragment's script now throws.
	broken := strings.Replace(string(src), "var option = {", "var option = undefinedThing({", 1)
	os.WriteFile(file, []byte(broken), 0o644)
	shots := t.TempDir()
	r, err := Check(context.Background(), file, Drawn, Options{ScreenshotDir: shots})
	if err != nil {
		t.Fatal(err)
	}
	if r.Err() == nil || !strings.Contains(r.Err().Error(), `state "static"`) {
		t.Errorf("broken chart passed the Drawn check: %+v", r)
	}
	if len(r.Errors) == 0 {
		t.Error("the uncaught ReferenceError was not reported")
	}
	if m, _ := filepath.Glob(filepath.Join(shots, "*.png")); len(m) != 1 {
		t.Errorf("screenshots saved = %v; want one for the failure", m)
	}
}

// TestNotebookHTML checks the nbconvert exports of executed notebooks in
// $DLBD_NOTEBOOK_HTML (make notebooks writes build/html); screenshots of
// failures go to $DLBD_SCREENSHOTS (default: that directory/screenshots).
func TestNotebookHTML(t *testing.T) {
	dir := os.Getenv("DLBD_NOTEBOOK_HTML")
	if dir == "" {
		t.Skip("set DLBD_NOTEBOOK_HTML to a directory of nbconvert HTML exports (make notebooks: build/html)")
	}
	needBrowser(t)
	files, _ := filepath.Glob(filepath.Join(dir, "*.html"))
	if len(files) == 0 {
		t.Fatalf("no HTML files in %s", dir)
	}
	shots := os.Getenv("DLBD_SCREENSHOTS")
	if shots == "" {
		shots = filepath.Join(dir, "screenshots")
	}
	for _, f := range files {
		reps, err := CheckFile(context.Background(), f, Options{ScreenshotDir: shots})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range reps {
			if err := r.Err(); err != nil {
				t.Error(err)
			} else if r.Mode == Drawn {
				t.Logf("%s: %d charts drawn, %d finished progress bars", filepath.Base(f), len(r.Charts), r.Progress)
			}
		}
	}
}
