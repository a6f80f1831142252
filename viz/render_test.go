package viz

import (
	"errors"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
)

func sampleLine(title string) *charts.Line {
	l := charts.NewLine()
	l.SetGlobalOptions(
		charts.WithTitleOpts(opts.Title{Title: title}),
		charts.WithTooltipOpts(opts.Tooltip{Show: opts.Bool(true), Formatter: JS(`function (p) {
  // a comment: JS keeps line breaks, so this does not swallow the code
  return "<b>" + p.seriesName + "</b> " + p.value[1];
}`)}),
		charts.WithYAxisOpts(opts.YAxis{Type: "log", AxisLabel: &opts.AxisLabel{
			Formatter: opts.FuncOpts(`function (v) { return "y=" + v; }`)}}),
	)
	l.AddSeries("s", []opts.LineData{{Value: []any{1, 2}}, {Value: []any{2, 4}}})
	return l
}

func TestFragmentFunctionsAreJavaScript(t *testing.T) {
	html, err := Fragment(sampleLine("t"))
	if err != nil {
		t.Fatal(err)
	}
	r := runNode(t, html, "stub")
	if len(r.Errors) > 0 {
		t.Fatalf("fragment's JavaScript failed: %v", r.Errors)
	}
	if len(r.Charts) != 1 {
		t.Fatalf("charts drawn = %d; want 1", len(r.Charts))
	}
	for id, c := range r.Charts {
		if got := c.Calls["option.tooltip.formatter"]; got != "<b>s</b> 1500000000" {
			t.Errorf("tooltip formatter(sample) = %q; want a real function returning \"<b>s</b> 1500000000\" (calls: %v)", got, c.Calls)
		}
		if got := c.Calls["option.yAxis.0.axisLabel.formatter"]; !strings.HasPrefix(got, "y=") {
			t.Errorf("opts.FuncOpts formatter = %q; want a function (calls: %v)", got, c.Calls)
		}
		if r.Elements[id].State != "drawn" {
			t.Errorf("element %s state = %q; want drawn", id, r.Elements[id].State)
		}
		if c.Renderer != "canvas" || len(c.Series) != 1 || c.Series[0] != "line" {
			t.Errorf("chart = renderer %q, series %v; want canvas, [line]", c.Renderer, c.Series)
		}
	}
}

func TestFragmentEscapesScriptEndInData(t *testing.T) {
	evil := `</script><script>alert(1)</script><!-- "q" & 'a'`
	l := sampleLine(evil)
	html, err := Fragment(l)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(strings.ToLower(html), "</script"); n != 1 {
		t.Errorf("fragment has %d \"</script\"; want 1 (only its own end tag)", n)
	}
	if strings.Contains(html, "<!--") {
		t.Error("fragment contains \"<!--\"; it must be escaped inside <script>")
	}
	r := runNode(t, html, "stub")
	for _, c := range r.Charts {
		title := c.Option["title"].(map[string]any)["text"]
		if title != evil {
			t.Errorf("title after escaping = %q; want the original %q", title, evil)
		}
	}
}

func TestFragmentWaitsForLibrary(t *testing.T) {
	html, err := Fragment(sampleLine("t"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(html, "no es de confianza") || !strings.Contains(html, "Run All Cells") {
		t.Error("static placeholder does not say the notebook is untrusted and how to run it")
	}
	r := runNode(t, html, "none")
	if len(r.Errors) > 0 {
		t.Fatal(r.Errors)
	}
	id := idRE.FindStringSubmatch(html)[1]
	// As soon as the script runs, the placeholder says the library is
	// loading: the untrusted-notebook text is only for pages that run no
	// script.
	if e := r.Early[id]; e.State != "loading" || !strings.Contains(e.HTML, "Cargando la biblioteca de gráficos") || strings.Contains(e.HTML, "no es de confianza") {
		t.Errorf("chart right after its script ran = state %q, %q; want \"loading\" and the loading message", e.State, e.HTML)
	}
	e := r.Elements[id]
	if e.State != "waiting" {
		t.Fatalf("chart after 7 s without ECharts = state %q; want \"waiting\"", e.State)
	}
	for _, want := range []string{"no está cargada en esta página", "Vuelve a ejecutar esta celda", "viz.Init()", "make kernel"} {
		if !strings.Contains(e.HTML, want) {
			t.Errorf("missing-library message = %q; want it to contain %q", e.HTML, want)
		}
	}
}

var idRE = regexp.MustCompile(`id="(viz-chart-[0-9a-f]{16})"`)

func TestIDsAreUniqueAcrossProcesses(t *testing.T) {
	if os.Getenv("VIZ_PRINT_ID") == "1" {
		html, _ := Fragment(sampleLine("t"))
		os.Stdout.WriteString(idRE.FindStringSubmatch(html)[1])
		os.Exit(0)
	}
	seen := map[string]bool{}
	for i := 0; i < 3; i++ { // each GoNB cell is a new process: so is each run here
		cmd := exec.Command(os.Args[0], "-test.run=^TestIDsAreUniqueAcrossProcesses$")
		cmd.Env = append(os.Environ(), "VIZ_PRINT_ID=1")
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("child process: %v", err)
		}
		id := string(out)
		if !idRE.MatchString(`id="` + id + `"`) {
			t.Fatalf("child printed %q; want a chart id", id)
		}
		if seen[id] {
			t.Errorf("id %s repeated across processes", id)
		}
		seen[id] = true
	}
	for i := 0; i < 1000; i++ {
		id := newID("x")
		if seen[id] {
			t.Fatalf("newID repeated %s", id)
		}
		seen[id] = true
	}
}

func TestOptionJSRejectsNaN(t *testing.T) {
	l := charts.NewLine()
	l.AddSeries("s", []opts.LineData{{Value: []any{1, math.NaN()}}})
	_, err := OptionJS(l)
	if err == nil || !strings.Contains(err.Error(), "NaN") {
		t.Errorf("OptionJS(NaN point) error = %v; want one that mentions NaN", err)
	}
}

func TestRenderRejectsBadOptions(t *testing.T) {
	cases := []struct {
		o    Options
		want string
	}{
		{Options{Width: "100%;background:url(x)"}, "bad CSS size"},
		{Options{Renderer: "webgl"}, "renderer"},
		{Options{Theme: "vintage"}, "theme"},
	}
	for _, c := range cases {
		if _, err := Fragment(sampleLine("t"), c.o); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Fragment(%+v) error = %v; want %q", c.o, err, c.want)
		}
	}
}

// assetsDir is where `make kernel` installs ECharts in this repository.
const assetsDir = "../.assets"

func TestLoaderDefinesEChartsUnderRequireJS(t *testing.T) {
	if _, err := os.Stat(filepath.Join(assetsDir, "echarts", EChartsVersion, "echarts.min.js")); err != nil {
		t.Skipf("ECharts not installed in %s (run scripts/echarts/install.sh %s)", assetsDir, assetsDir)
	}
	t.Setenv(AssetsEnv, assetsDir)
	t.Setenv(EChartsFileEnv, "")
	html, err := InitHTML()
	if err != nil {
		t.Fatal(err)
	}
	r := runNode(t, html, "real")
	if len(r.Errors) > 0 {
		t.Fatalf("loader under require.js: %v", r.Errors)
	}
	if r.EChartsVersion == nil || *r.EChartsVersion != EChartsVersion {
		t.Errorf("window.echarts.version = %v; want %s", r.EChartsVersion, EChartsVersion)
	}
	if len(r.AMD) != 1 || r.AMD[0] != "echarts" {
		t.Errorf("AMD modules defined = %v; want [echarts]", r.AMD)
	}
	for id, e := range r.Elements {
		if !strings.Contains(e.Text, "cargado") {
			t.Errorf("loader status %s = %q; want it to say the library is loaded", id, e.Text)
		}
	}
}

func TestLocateEChartsErrors(t *testing.T) {
	t.Setenv(EChartsFileEnv, "")
	t.Setenv(AssetsEnv, "")
	_, err := LocateECharts()
	var se *SetupError
	if !errors.As(err, &se) || !errors.Is(err, ErrEChartsMissing) {
		t.Fatalf("LocateECharts() without env = %v; want a *SetupError wrapping ErrEChartsMissing", err)
	}
	for _, want := range []string{"make kernel", AssetsEnv, "not set"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %q", err, want)
		}
	}
	dir := t.TempDir()
	t.Setenv(AssetsEnv, dir)
	if _, err := InitHTML(); err == nil || !strings.Contains(err.Error(), "file not found") {
		t.Errorf("InitHTML() with empty assets dir = %v; want file not found", err)
	}
	lib := filepath.Join(dir, "echarts", EChartsVersion, "echarts.min.js")
	if err := os.MkdirAll(filepath.Dir(lib), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(lib, []byte(`var v = "5.6.0";`), 0o644)
	os.WriteFile(lib+".sha512", []byte("AAAA"), 0o644)
	if _, err := InitHTML(); err == nil || !strings.Contains(err.Error(), "SHA-512") {
		t.Errorf("InitHTML() with damaged file = %v; want a SHA-512 mismatch", err)
	}
	os.Remove(lib + ".sha512")
	os.WriteFile(lib, []byte(`var v = "4.9.0";`), 0o644)
	if _, err := InitHTML(); err == nil || !strings.Contains(err.Error(), "not ECharts 5.6.0") {
		t.Errorf("InitHTML() with another version = %v; want a version error", err)
	}
}

// TestNaiveLoaderFailsUnderRequireJS shows the pitfall the loader avoids: a
// plain <script> with echarts.min.js under require.js defines no window.echarts.
func TestNaiveLoaderFailsUnderRequireJS(t *testing.T) {
	lib, err := os.ReadFile(filepath.Join(assetsDir, "echarts", EChartsVersion, "echarts.min.js"))
	if err != nil {
		t.Skipf("ECharts not installed in %s", assetsDir)
	}
	r := runNode(t, "<script type=\"text/javascript\">"+string(lib)+"</script>", "real")
	if r.EChartsVersion != nil {
		t.Errorf("naive loader defined window.echarts %s under require.js; the stub no longer reproduces the pitfall", *r.EChartsVersion)
	}
	if len(r.Errors) == 0 || !strings.Contains(r.Errors[0], "Mismatched anonymous define") {
		t.Errorf("naive loader errors = %v; want require.js's mismatched anonymous define()", r.Errors)
	}
}

func TestFunctionWithScriptEndIsAnError(t *testing.T) {
	l := charts.NewLine()
	l.SetGlobalOptions(charts.WithTooltipOpts(opts.Tooltip{Formatter: JS(`function () { return "</script>"; }`)}))
	if _, err := OptionJS(l); err == nil || !strings.Contains(err.Error(), `<\/script>`) {
		t.Errorf("OptionJS(function returning \"</script>\") error = %v; want one suggesting <\\/script>", err)
	}
	// "</" elsewhere, as in a regular expression, is left alone.
	l.SetGlobalOptions(charts.WithTooltipOpts(opts.Tooltip{Formatter: JS(`function (s) { return "<b>" + String(s).replace(/</g, "&lt;") + "</b>"; }`)}))
	js, err := OptionJS(l)
	if err != nil || !strings.Contains(js, `replace(/</g, "&lt;")`) {
		t.Errorf("OptionJS changed a regular expression: %v\n%s", err, js)
	}
}
