package viz

import (
	"fmt"
	"io"
	"strings"
)

// loaderHTML returns the HTML that defines window.echarts from the inlined
// library source.
//
// Pitfall (require.js, as in nbconvert's HTML and the classic Notebook): the
// UMD wrapper of echarts.min.js calls the AMD define() when one exists, which
// fails with "Mismatched anonymous define()" and leaves window.echarts unset.
// Shadowing define, exports and module with function parameters forces the
// browser-global branch. The library is then also registered as the AMD module
// "echarts" for code that uses require(['echarts']).
//
// The fragment is idempotent: a second copy (Init run twice) is parsed but not
// executed.
func loaderHTML(lib []byte) string {
	id := newID("viz-loader")
	var b strings.Builder
	fmt.Fprintf(&b, `<div id="%s" class="viz-loader" style="font:12px sans-serif;color:#888">viz: cargando ECharts %s… `+
		`(si este texto no cambia, el JavaScript de esta salida no se ha ejecutado: ejecuta la celda en Jupyter)</div>`+"\n", id, EChartsVersion)
	b.WriteString("<script type=\"text/javascript\">\n")
	fmt.Fprintf(&b, "if (!(window.echarts && window.echarts.version === %q)) {\n", EChartsVersion)
	b.WriteString("(function (define, exports, module) {\n")
	b.Write(lib) // checked by loadECharts: no "</script" and no "<!--"
	b.WriteString("\n}).call(window);\n}\n")
	b.WriteString(`if (typeof window.define === "function" && window.define.amd && window.require && window.require.defined && !window.require.defined("echarts")) { window.define("echarts", [], function () { return window.echarts; }); }` + "\n")
	fmt.Fprintf(&b, `(function () { var e = document.getElementById(%q); if (e) { e.textContent = window.echarts ? "viz: ECharts " + window.echarts.version + " cargado (copia local, sin conexión)" : "viz: ECharts no se ha podido cargar"; } })();`+"\n", id)
	b.WriteString("</script>\n")
	return b.String()
}

// InitHTML returns the HTML fragment that loads the ECharts library into the
// page (about 1 MB: the library is inlined, never fetched from a CDN). It
// returns a *SetupError when the library is not installed.
func InitHTML() (string, error) {
	lib, err := loadECharts()
	if err != nil {
		return "", err
	}
	return loaderHTML(lib), nil
}

// WriteInit writes InitHTML to w.
func WriteInit(w io.Writer) error {
	s, err := InitHTML()
	if err != nil {
		return err
	}
	_, err = io.WriteString(w, s)
	return err
}

// Init loads the ECharts library into the notebook page: call it once, in
// the first cell, before any chart is shown (a chart shown earlier waits for
// it). Outside GoNB it does nothing.
//
// When the library is not installed, Init shows the error in the cell output
// and panics with the *SetupError (which names the setup step, `make kernel`),
// so the cell fails visibly; use InitHTML to get the error as a value instead.
func Init() {
	if !notebook.active() {
		return
	}
	s, err := InitHTML()
	if err != nil {
		notebook.DisplayHTML(errorBox("No se puede cargar la librería de gráficos ECharts. Ejecuta `make kernel` en el repositorio dlbd y reinicia el kernel.", err))
		panic(err)
	}
	notebook.DisplayHTML(s)
}
