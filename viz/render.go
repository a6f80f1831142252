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
// is loaded (Show sends it; a page can also get it from InitHTML or
// LibraryScript), then draws the chart. Until it draws, the div says in
// Spanish what is going on: that the library is loading; after 5 s without
// it, to run the cell again; and, where the script never runs (an untrusted
// notebook), to run the notebook's cells. A *Figure also gets its notes and
// sources under the chart. At most one Options is used.
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
	// msgNoJS is the placeholder's static text: what a page shows when the
	// fragment's script does not run (an untrusted saved notebook, a viewer
	// without JavaScript). When the script runs it replaces it at once.
	msgNoJS = `Aquí va un gráfico interactivo, pero el JavaScript de esta salida no se ha ejecutado: ` +
		`el notebook se abrió con resultados guardados y no es de confianza. Ejecuta sus celdas ` +
		`(Run ▸ Run All Cells) para ver el gráfico, o márcalo como de confianza (File ▸ Trust Notebook) ` +
		`y vuelve a ejecutar una celda con un gráfico. En GitHub u otros visores sin JavaScript el gráfico ` +
		`no se puede ver: abre la exportación HTML del notebook.`
	// msgLoading is shown as soon as the script runs without the library.
	msgLoading = `Cargando la biblioteca de gráficos…`
	// msgNoLibrary is shown when the library has not arrived after 5 s.
	msgNoLibrary = `La biblioteca de gráficos (ECharts) no está cargada en esta página: pasa al recargar la página ` +
		`o al abrir un notebook guardado, porque el notebook no guarda la biblioteca. Vuelve a ejecutar esta celda ` +
		`(o Run ▸ Run All Cells): cualquier celda que muestre un gráfico, o <code>viz.Init()</code>, la carga y ` +
		`entonces se dibujan todos los gráficos de la página. Si la celda da un error de ECharts, ejecuta ` +
		`<code>make kernel</code> en el repositorio dlbd y reinicia el kernel.`
)

// bootJS draws the chart once the element and window.echarts exist. It polls
// (every 50 ms, then every second after 5 s) because the output may be
// attached to the page after the script runs, and the library may come from
// a cell run later. As soon as it finds the element without the library it
// says that the library is loading, so the untrusted-notebook text (msgNoJS)
// only stays where the script never runs. data-viz-state records what
// happened (for tests): "static" (script never ran), "loading" (no library
// yet), "waiting" (no library after 5 s), "drawn".
var bootJS = `var t0 = Date.now(), seen = false, told = false, warned = false;
function say(el, state, color, html) {
  el.setAttribute("data-viz-state", state);
  el.innerHTML = '<div style="font:13px sans-serif;color:' + color + ';padding:8px;border:1px ' + (state === "waiting" ? "solid #e99" : "dashed #bbb") + '">' + html + '</div>';
}
function boot() {
  var el = document.getElementById(cfg.id);
  var ec = window.echarts;
  if (el) { seen = true; } else if (seen) { return; } /* output cleared: stop */
  if (!el || !ec) {
    var waited = Date.now() - t0;
    if (el && !ec && !told) { told = true; say(el, "loading", "#666", '` + msgLoading + `'); }
    if (el && !ec && waited > 5000 && !warned) { warned = true; say(el, "waiting", "#b00", '` + msgNoLibrary + `'); }
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
