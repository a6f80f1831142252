package viz

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// outputArea is a Sink that keeps a cell's outputs as Jupyter does (nbclient,
// JupyterLab): DisplayHTML appends an output; UpdateHTML with a new display
// id appends one (display_data), with a known id replaces it
// (update_display_data). sent counts the bytes of every message, saved the
// outputs a notebook would save.
type outputArea struct {
	mu      sync.Mutex
	outputs []string
	ids     map[string]int // display id -> index in outputs
	sent    []string       // every message's HTML, in order
}

func (a *outputArea) DisplayHTML(html string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.sent = append(a.sent, html)
	a.outputs = append(a.outputs, html)
}

func (a *outputArea) UpdateHTML(id, html string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.sent = append(a.sent, html)
	if a.ids == nil {
		a.ids = map[string]int{}
	}
	if i, ok := a.ids[id]; ok {
		a.outputs[i] = html
		return
	}
	a.ids[id] = len(a.outputs)
	a.outputs = append(a.outputs, html)
}

func (a *outputArea) DisplayMarkdown(md string) { a.DisplayHTML(md) }

// saved returns the outputs as a notebook saves them (nbformat JSON).
func (a *outputArea) saved(t *testing.T) []byte {
	t.Helper()
	var outs []map[string]any
	for _, h := range a.outputs {
		outs = append(outs, map[string]any{"output_type": "display_data", "metadata": map[string]any{}, "data": map[string]any{"text/html": h}})
	}
	b, err := json.MarshalIndent(outs, " ", " ")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// needLibrary points viz at the ECharts library that `make kernel`
// installs in this repository, or skips the test.
func needLibrary(t *testing.T) {
	t.Helper()
	if _, err := os.Stat(filepath.Join(assetsDir, "echarts", EChartsVersion, "echarts.min.js")); err != nil {
		t.Skipf("ECharts not installed in %s (run scripts/echarts/install.sh %s)", assetsDir, assetsDir)
	}
	t.Setenv(AssetsEnv, assetsDir)
	t.Setenv(EChartsFileEnv, "")
}

// isLibrary reports whether html carries the ECharts library.
func isLibrary(html string) bool {
	return strings.Contains(html, "(function (define, exports, module) {") && len(html) > 500_000
}

func TestChartsSendTheLibraryOncePerCellAndSaveAStub(t *testing.T) {
	needLibrary(t)
	area := &outputArea{}
	// One cell shows three charts.
	d := NewDisplayTo(area)
	for _, c := range []Chart{ComputeTrends(), Datasphere(), MLvsDL()} {
		NewDisplayTo(area).UpdateChart(c)
	}
	d.UpdateChart(ComputeTrends()) // the same Display redrawn
	d.UpdateChart(MLvsDL())
	var libs int
	for _, m := range area.sent {
		if isLibrary(m) {
			libs++
		}
	}
	if libs != 1 {
		t.Errorf("library sent %d times for 5 charts of one cell on one page; want once", libs)
	}
	for i, o := range area.outputs {
		if isLibrary(o) {
			t.Errorf("output %d still holds the library after the cell; want the stub", i)
		}
	}
	if n := strings.Count(strings.Join(area.outputs, ""), `class="viz-echarts"`); n != 4 {
		t.Errorf("saved outputs hold %d charts; want 4 (three Displays and one redrawn)", n)
	}
	if size := len(area.saved(t)); size > 200_000 {
		t.Errorf("saved outputs of 4 charts = %d bytes; want < 200 KB (the library must not be saved)", size)
	} else {
		t.Logf("saved outputs of 4 charts: %d bytes", size)
	}
}

func TestLibraryLoaderSendsOncePerCell(t *testing.T) {
	needLibrary(t)
	area := &outputArea{}
	var l libraryLoader
	for i := 0; i < 3; i++ { // three charts in one cell
		if err := l.send(area); err != nil {
			t.Fatal(err)
		}
	}
	if len(area.sent) != 2 || !isLibrary(area.sent[0]) || area.sent[1] != stubHTML {
		t.Fatalf("one cell, three sends: messages %d (library first: %v); want 2: the library, then the stub", len(area.sent), len(area.sent) > 0 && isLibrary(area.sent[0]))
	}
	if len(area.outputs) != 1 || area.outputs[0] != stubHTML {
		t.Errorf("outputs after the cell = %q; want the stub alone", area.outputs)
	}
	// A chart drawn by another goroutine of the same cell (a training loop
	// in the background) does not send it again.
	done := make(chan error)
	go func() { done <- l.send(area) }()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if len(area.sent) != 2 {
		t.Fatalf("another goroutine of the same cell sent %d messages in all; want still 2", len(area.sent))
	}
	// A later cell of the stateful kernel (its host calls BeginCell): the
	// page may have been reloaded, so it sends the library again.
	BeginCell()
	if err := l.send(area); err != nil {
		t.Fatal(err)
	}
	if len(area.sent) != 4 || !isLibrary(area.sent[2]) {
		t.Errorf("a second cell sent %d messages in all; want 4 (the library again, then its stub)", len(area.sent))
	}
	if len(area.outputs) != 2 || area.outputs[1] != stubHTML {
		t.Errorf("outputs = %d; want two stubs", len(area.outputs))
	}
}

func TestLibraryLoaderShowsTheMissingLibraryOnce(t *testing.T) {
	t.Setenv(EChartsFileEnv, "")
	t.Setenv(AssetsEnv, t.TempDir())
	area := &outputArea{}
	var l libraryLoader
	err := l.send(area)
	var se *SetupError
	if !errors.As(err, &se) {
		t.Fatalf("send without the library = %v; want a *SetupError", err)
	}
	if err2 := l.send(area); err2 != err {
		t.Errorf("second send in the same cell = %v; want the same error %v", err2, err)
	}
	if len(area.outputs) != 1 || !strings.Contains(area.outputs[0], "make kernel") || !strings.Contains(area.outputs[0], "viz-error") {
		t.Errorf("outputs = %q; want one error box naming make kernel", area.outputs)
	}
}

func TestLibraryScriptDefinesEChartsUnderRequireJS(t *testing.T) {
	needLibrary(t)
	s, err := LibraryScript()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(s, "<script") || !strings.HasSuffix(s, "</script>\n") || strings.Contains(s, `class="viz-loader"`) {
		t.Errorf("LibraryScript() is not a <script> element alone: %.80q", s)
	}
	r := runNode(t, s, "real")
	if len(r.Errors) > 0 {
		t.Fatalf("LibraryScript under require.js: %v", r.Errors)
	}
	if r.EChartsVersion == nil || *r.EChartsVersion != EChartsVersion {
		t.Errorf("window.echarts.version = %v; want %s", r.EChartsVersion, EChartsVersion)
	}
}
