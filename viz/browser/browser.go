package browser

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// Mode is one way of loading a page.
type Mode int

// The three checks of CheckFile.
const (
	Drawn     Mode = iota // scripts on: charts must draw
	NoScript              // scripts removed (untrusted notebook): charts must show what to do
	NoLibrary             // the library's script removed (a reloaded page): charts must say loading, then what to do
)

// String returns "drawn", "noscript" or "nolibrary": the mode's name in
// reports and in screenshot file names.
func (m Mode) String() string {
	if names := [...]string{"drawn", "noscript", "nolibrary"}; m >= 0 && int(m) < len(names) {
		return names[m]
	}
	return fmt.Sprintf("Mode(%d)", int(m))
}

// Options configures the checks. The zero value is the default.
type Options struct {
	Chromium      string        // executable; default $DLBD_CHROMIUM, else chromium on PATH
	ScreenshotDir string        // if set, a failing check saves <dir>/<file>-<mode>.png
	Timeout       time.Duration // wall-clock limit of one Chromium run; default 60 s
}

// ChartState is what the probe saw of one .viz-echarts element: at the
// page's load event (Early*), when every script of the page had run once,
// and after the check's delay.
type ChartState struct {
	ID         string `json:"id"`
	State      string `json:"state"`      // data-viz-state: "static", "loading", "waiting", "drawn"
	Pixels     int    `json:"pixels"`     // non-transparent canvas pixels (or SVG shapes)
	Text       string `json:"text"`       // the element's text (messages)
	EarlyState string `json:"earlyState"` // data-viz-state at the load event
	EarlyText  string `json:"earlyText"`  // the element's text at the load event
}

// Report is the outcome of one check.
type Report struct {
	File     string
	Mode     Mode
	Charts   []ChartState
	Progress int      // .viz-progress elements found finished
	Errors   []string // uncaught JavaScript errors
	Problems []string // what failed; empty when the check passed
}

// Err returns nil when the check passed, else an error listing the problems.
func (r Report) Err() error {
	if len(r.Problems) == 0 {
		return nil
	}
	return fmt.Errorf("browser: %s (%s): %s", filepath.Base(r.File), r.Mode, strings.Join(r.Problems, "; "))
}

// Messages of viz fragments (see viz.Fragment): the static one, for a page
// that runs no script (an untrusted notebook), then the two the script shows
// while the library is missing.
const (
	noJSMessage      = "el JavaScript de esta salida no se ha ejecutado"
	loadingMessage   = "Cargando la biblioteca de gráficos"
	noLibraryMessage = "no está cargada en esta página"
)

// CheckFile runs the three checks on an HTML file and returns their reports.
func CheckFile(ctx context.Context, file string, o Options) ([]Report, error) {
	var out []Report
	for _, m := range []Mode{Drawn, NoScript, NoLibrary} {
		r, err := Check(ctx, file, m, o)
		if err != nil {
			return out, err
		}
		out = append(out, r)
	}
	return out, nil
}

// Check runs one check on an HTML file.
func Check(ctx context.Context, file string, mode Mode, o Options) (Report, error) {
	rep := Report{File: file, Mode: mode}
	src, err := os.ReadFile(file)
	if err != nil {
		return rep, err
	}
	page := string(src)
	if !strings.Contains(page, `class="viz-echarts"`) {
		return rep, nil // nothing to check
	}
	tmp, err := os.MkdirTemp("", "viz-browser-")
	if err != nil {
		return rep, err
	}
	defer os.RemoveAll(tmp)
	delay := 2500 * time.Millisecond
	if mode == NoLibrary {
		if page, err = removeLoader(page); err != nil {
			return rep, fmt.Errorf("browser: %s: %w", file, err)
		}
		delay = 7000 * time.Millisecond // the fragment warns after 5 s
	}
	if mode == NoScript {
		// What an untrusted notebook shows: Jupyter's sanitizer drops every
		// <script> of the outputs (a viewer without JavaScript runs none).
		page = scriptRE.ReplaceAllString(page, "")
	}
	page = injectProbe(page, delay)
	copyPath := filepath.Join(tmp, "page.html")
	if err := os.WriteFile(copyPath, []byte(page), 0o644); err != nil {
		return rep, err
	}
	budget := delay + time.Second
	dom, logs, err := runChromium(ctx, o, tmp, copyPath, budget, "--dump-dom")
	if err != nil {
		return rep, err
	}
	rep.Errors = uncaught(logs)
	if err := readProbe(&rep, dom); err != nil {
		rep.Problems = append(rep.Problems, err.Error())
	}
	checkProbe(&rep)
	if len(rep.Problems) > 0 && o.ScreenshotDir != "" {
		shot := filepath.Join(o.ScreenshotDir, strings.TrimSuffix(filepath.Base(file), filepath.Ext(file))+"-"+mode.String()+".png")
		if err := os.MkdirAll(o.ScreenshotDir, 0o755); err == nil {
			if _, _, err := runChromium(ctx, o, tmp, copyPath, budget, "--screenshot="+shot, "--window-size=1200,4000"); err == nil {
				rep.Problems = append(rep.Problems, "screenshot: "+shot)
			}
		}
	}
	return rep, nil
}

func checkProbe(rep *Report) {
	for _, c := range rep.Charts {
		switch rep.Mode {
		case Drawn:
			if c.State != "drawn" || c.Pixels <= 0 {
				rep.Problems = append(rep.Problems, fmt.Sprintf("chart %s: state %q, %d pixels (want drawn, non-blank): %.120s", c.ID, c.State, c.Pixels, c.Text))
			}
		case NoScript:
			if c.State != "static" || !strings.Contains(c.Text, noJSMessage) {
				rep.Problems = append(rep.Problems, fmt.Sprintf("chart %s with scripts removed: state %q, text %.120q (want the untrusted-notebook message)", c.ID, c.State, c.Text))
			}
		case NoLibrary:
			if c.EarlyState != "loading" || !strings.Contains(c.EarlyText, loadingMessage) {
				rep.Problems = append(rep.Problems, fmt.Sprintf("chart %s without library, at load: state %q, text %.120q (want at once the loading message)", c.ID, c.EarlyState, c.EarlyText))
			}
			if c.State != "waiting" || !strings.Contains(c.Text, noLibraryMessage) {
				rep.Problems = append(rep.Problems, fmt.Sprintf("chart %s without library: state %q, text %.120q (want the missing-library message)", c.ID, c.State, c.Text))
			}
		}
		if rep.Mode != NoScript && (strings.Contains(c.EarlyText, noJSMessage) || strings.Contains(c.Text, noJSMessage)) {
			rep.Problems = append(rep.Problems, fmt.Sprintf("chart %s shows the untrusted-notebook message although its script ran", c.ID))
		}
	}
	if rep.Mode == Drawn && len(rep.Errors) > 0 {
		rep.Problems = append(rep.Problems, "uncaught JavaScript errors: "+strings.Join(rep.Errors, " | "))
	}
}

// scriptRE matches a <script> element.
var scriptRE = regexp.MustCompile(`(?is)<script\b.*?</script>`)

// loaderRE matches the script that inlines the library: in the page's head
// (dlbd notebooks -html, viz.LibraryScript) or in an output (viz.InitHTML).
var loaderRE = regexp.MustCompile(`(?s)<script type="text/javascript">\s*if \(!\(window\.echarts && window\.echarts\.version ===.*?</script>`)

func removeLoader(page string) (string, error) {
	if !loaderRE.MatchString(page) {
		return "", errors.New("no ECharts library script (viz.LibraryScript in the head, or a viz.InitHTML output) in the page: export it with `dlbd notebooks -html` (make notebooks)")
	}
	return loaderRE.ReplaceAllString(page, ""), nil
}

// probeJS records every chart at the load event, measures it after delay ms
// (virtual time) and writes the result as JSON into <pre id="viz-probe">.
const probeJS = `<script>(function () {
  var early = {};
  window.addEventListener("load", function () {
    document.querySelectorAll(".viz-echarts").forEach(function (el) {
      early[el.id] = { state: el.getAttribute("data-viz-state"), text: el.textContent.slice(0, 400) };
    });
  });
  setTimeout(function () {
  var charts = [], done = 0;
  document.querySelectorAll(".viz-echarts").forEach(function (el) {
    var px = 0;
    el.querySelectorAll("canvas").forEach(function (c) {
      try { var d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data; for (var i = 3; i < d.length; i += 4) { if (d[i]) { px++; } } } catch (e) { px = -1; }
    });
    px += el.querySelectorAll("svg path, svg text").length;
    var e = early[el.id] || {};
    charts.push({ id: el.id, state: el.getAttribute("data-viz-state"), pixels: px, text: el.textContent.slice(0, 400), earlyState: e.state || "", earlyText: e.text || "" });
  });
  document.querySelectorAll(".viz-progress[data-viz-finished=true]").forEach(function () { done++; });
  var pre = document.createElement("pre"); pre.id = "viz-probe";
  pre.textContent = JSON.stringify({ charts: charts, progress: done });
  document.body.appendChild(pre);
}, %d); })();</script>`

func injectProbe(page string, delay time.Duration) string {
	probe := fmt.Sprintf(probeJS, delay.Milliseconds())
	if i := strings.LastIndex(page, "</body>"); i >= 0 {
		return page[:i] + probe + page[i:]
	}
	return page + probe
}

var probeRE = regexp.MustCompile(`(?s)<pre id="viz-probe">(.*?)</pre>`)

func readProbe(rep *Report, dom string) error {
	m := probeRE.FindStringSubmatch(dom)
	if m == nil {
		return errors.New("the probe did not run (page scripts blocked or virtual time too short)")
	}
	var res struct {
		Charts   []ChartState `json:"charts"`
		Progress int          `json:"progress"`
	}
	text := strings.NewReplacer("&amp;", "&", "&lt;", "<", "&gt;", ">", "&quot;", `"`, "&#39;", "'").Replace(m[1])
	if err := json.Unmarshal([]byte(text), &res); err != nil {
		return fmt.Errorf("probe output: %w", err)
	}
	rep.Charts, rep.Progress = res.Charts, res.Progress
	return nil
}

var consoleRE = regexp.MustCompile(`CONSOLE.*"(Uncaught [^"]*)"`)

func uncaught(logs string) []string {
	var out []string
	for _, m := range consoleRE.FindAllStringSubmatch(logs, -1) {
		out = append(out, m[1])
	}
	return out
}

// Chromium returns the Chromium executable: $DLBD_CHROMIUM, else chromium
// or chromium-browser on PATH.
func Chromium(o Options) (string, error) {
	if o.Chromium != "" {
		return o.Chromium, nil
	}
	if p := os.Getenv("DLBD_CHROMIUM"); p != "" {
		return p, nil
	}
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", errors.New("browser: chromium not found: install Debian's chromium (scripts/setup.sh --test, or apt-get install chromium) or set DLBD_CHROMIUM")
}

func runChromium(ctx context.Context, o Options, profile, page string, budget time.Duration, extra ...string) (stdout, stderr string, err error) {
	bin, err := Chromium(o)
	if err != nil {
		return "", "", err
	}
	timeout := o.Timeout
	if timeout <= 0 {
		timeout = 60 * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	args := []string{"--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--hide-scrollbars",
		"--user-data-dir=" + filepath.Join(profile, "profile"), "--enable-logging=stderr", "--v=0",
		fmt.Sprintf("--virtual-time-budget=%d", budget.Milliseconds())}
	args = append(args, extra...)
	args = append(args, "file://"+page)
	cmd := exec.CommandContext(ctx, bin, args...)
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return out.String(), errb.String(), fmt.Errorf("browser: %s: %w\n%s", bin, err, tail(errb.String(), 800))
	}
	return out.String(), errb.String(), nil
}

func tail(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}
