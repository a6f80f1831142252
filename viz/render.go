package viz

import (
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"strings"
)

// Options controls the chart's container. The zero value is the default.
type Options struct {
	Width    string // CSS width; default "100%" (Figure.Width when set)
	Height   string // CSS height; default "420px" (Figure.Height when set)
	Theme    string // "" (ECharts default) or "dark"
	Renderer string // "canvas" (default) or "svg"
}

var cssSize = regexp.MustCompile(`^[0-9]+(\.[0-9]+)?(px|%|em|rem|vw|vh)$`)

func (o Options) withDefaults(c Chart) (Options, error) {
	if f, ok := c.(*Figure); ok {
		o.Width = cmp(o.Width, f.Width)
		o.Height = cmp(o.Height, f.Height)
	}
	o.Width = cmp(o.Width, "100%")
	o.Height = cmp(o.Height, "420px")
	o.Renderer = cmp(o.Renderer, "canvas")
	for _, s := range []string{o.Width, o.Height} {
		if !cssSize.MatchString(s) {
			return o, fmt.Errorf("viz: bad CSS size %q (want e.g. \"900px\" or \"100%%\")", s)
		}
	}
	if o.Renderer != "canvas" && o.Renderer != "svg" {
		return o, fmt.Errorf("viz: renderer %q is not \"canvas\" or \"svg\"", o.Renderer)
	}
	if o.Theme != "" && o.Theme != "dark" {
		return o, fmt.Errorf("viz: theme %q is not \"\" or \"dark\" (no other theme is installed)", o.Theme)
	}
	return o, nil
}

// cmp returns a if it is not empty, else b.
func cmp(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// Fragment returns the self-contained HTML of a chart: a <div> and a
// <script> that waits until the div is in the page and the ECharts library
// (see Init) is loaded, then draws the chart. Until it draws, the div says in
// Spanish what to do (run the notebook or trust it; run viz.Init()). A
// *Figure also gets its notes and sources under the chart. At most one
// Options is used.
func Fragment(c Chart, o ...Options) (string, error) {
	var b strings.Builder
	if err := Render(&b, c, o...); err != nil {
		return "", err
	}
	return b.String(), nil
}

// Render writes Fragment(c, o...) to w.
func Render(w io.Writer, c Chart, o ...Options) error {
	if len(o) > 1 {
		return fmt.Errorf("viz: Render takes at most one Options, got %d", len(o))
	}
	var opt Options
	if len(o) == 1 {
		opt = o[0]
	}
	opt, err := opt.withDefaults(c)
	if err != nil {
		return err
	}
	option, err := OptionJS(c)
	if err != nil {
		return err
	}
	id := newID("viz-chart")
	cfg, err := json.Marshal(map[string]string{"id": id, "theme": opt.Theme, "renderer": opt.Renderer, "version": EChartsVersion})
	if err != nil {
		return err
	}
	var b strings.Builder
	b.WriteString(`<div class="viz-figure">` + "\n")
	fmt.Fprintf(&b, `<div id="%s" class="viz-echarts" data-viz-state="static" style="width:%s;height:%s;">`, id, opt.Width, opt.Height)
	b.WriteString(`<div style="font:13px sans-serif;color:#666;padding:8px;border:1px dashed #bbb">` + msgNoJS + `</div></div>` + "\n")
	b.WriteString("<script type=\"text/javascript\">\n(function () {\n")
	fmt.Fprintf(&b, "var cfg = %s;\nvar option = %s;\n", cfg, option)
	b.WriteString(bootJS)
	b.WriteString("})();\n</script>\n")
	if f, ok := c.(*Figure); ok {
		b.WriteString(f.captionHTML())
	}
	b.WriteString("</div>\n")
	_, err = io.WriteString(w, b.String())
	return err
}

// Messages shown in the chart's place (Spanish: students read them).
const (
	msgNoJS = `Aquí va un gráfico interactivo, pero el JavaScript de esta salida no se ha ejecutado. ` +
		`Si el notebook se abrió con resultados guardados, no es de confianza: ejecuta sus celdas ` +
		`(Run ▸ Run All Cells) o márcalo como de confianza (File ▸ Trust Notebook). ` +
		`En GitHub u otros visores sin JavaScript el gráfico no se puede ver.`
	msgNoLibrary = `No se ha cargado la librería de gráficos ECharts. Ejecuta la celda con <code>viz.Init()</code> ` +
		`(al principio del notebook) y luego vuelve a ejecutar esta celda. Si <code>viz.Init()</code> da error, ` +
		`ejecuta <code>make kernel</code> en el repositorio dlbd y reinicia el kernel.`
)

// bootJS draws the chart once the element and window.echarts exist. It polls
// (every 50 ms, then every second after 5 s) because the output may be
// attached to the page after the script runs, and the library may come from
// a cell run later. data-viz-state records what happened (for tests):
// "static" (script never ran), "waiting" (no library after 5 s), "drawn".
var bootJS = `var t0 = Date.now(), seen = false, warned = false;
function boot() {
  var el = document.getElementById(cfg.id);
  var ec = window.echarts;
  if (el) { seen = true; } else if (seen) { return; } /* output cleared: stop */
  if (!el || !ec) {
    var waited = Date.now() - t0;
    if (el && !ec && waited > 5000 && !warned) {
      warned = true;
      el.setAttribute("data-viz-state", "waiting");
      el.innerHTML = '<div style="font:13px sans-serif;color:#b00;padding:8px;border:1px solid #e99">` + msgNoLibrary + `</div>';
    }
    setTimeout(boot, waited < 5000 ? 50 : 1000);
    return;
  }
  var chart = ec.getInstanceByDom(el);
  if (!chart) { el.innerHTML = ""; chart = ec.init(el, cfg.theme || null, {renderer: cfg.renderer}); }
  chart.setOption(option);
  el.setAttribute("data-viz-state", "drawn");
  if (window.ResizeObserver) { new ResizeObserver(function () { chart.resize(); }).observe(el); }
}
boot();
`
