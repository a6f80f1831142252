package viz

import (
	"fmt"
	"io"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
)

// libraryScript returns the <script> element that defines window.echarts
// from the inlined library source; when statusID is not empty, the script
// also writes the outcome into the element with that id.
//
// Pitfall (require.js, as in nbconvert's HTML and the classic Notebook): the
// UMD wrapper of echarts.min.js calls the AMD define() when one exists, which
// fails with "Mismatched anonymous define()" and leaves window.echarts unset.
// Shadowing define, exports and module with function parameters forces the
// browser-global branch. The library is then also registered as the AMD module
// "echarts" for code that uses require(['echarts']).
//
// The script is idempotent: a second copy (the library sent again by a later
// cell) is parsed but not executed.
func libraryScript(lib []byte, statusID string) string {
	var b strings.Builder
	b.WriteString("<script type=\"text/javascript\">\n")
	fmt.Fprintf(&b, "if (!(window.echarts && window.echarts.version === %q)) {\n", EChartsVersion)
	b.WriteString("(function (define, exports, module) {\n")
	b.Write(lib) // checked by loadECharts: no "</script" and no "<!--"
	b.WriteString("\n}).call(window);\n}\n")
	b.WriteString(`if (typeof window.define === "function" && window.define.amd && window.require && window.require.defined && !window.require.defined("echarts")) { window.define("echarts", [], function () { return window.echarts; }); }` + "\n")
	if statusID != "" {
		fmt.Fprintf(&b, `(function () { var e = document.getElementById(%q); if (e) { e.textContent = window.echarts ? "viz: ECharts " + window.echarts.version + " cargado (copia local, sin conexión)" : "viz: ECharts no se ha podido cargar"; } })();`+"\n", statusID)
	}
	b.WriteString("</script>\n")
	return b.String()
}

// loaderHTML returns a status line and the script that loads the library
// (libraryScript).
func loaderHTML(lib []byte) string {
	id := newID("viz-loader")
	return fmt.Sprintf(`<div id="%s" class="viz-loader" style="font:12px sans-serif;color:#888">viz: cargando ECharts %s… `+
		`(si este texto no cambia, el JavaScript de esta salida no se ha ejecutado: ejecuta la celda en Jupyter)</div>`+"\n", id, EChartsVersion) +
		libraryScript(lib, id)
}

// stubHTML replaces the loader's output once it was sent (see showLibrary):
// the script already ran, so the page keeps window.echarts, while the
// notebook saves these few bytes instead of the library.
var stubHTML = fmt.Sprintf(`<div class="viz-loader" data-viz-echarts="%s" style="display:none"></div>`, EChartsVersion)

// InitHTML returns the HTML fragment that loads the ECharts library into a
// page: a status line and the library's script (about 1 MB: the library is
// inlined, never fetched from a CDN). It returns a *SetupError when the
// library is not installed.
func InitHTML() (string, error) {
	lib, err := loadECharts()
	if err != nil {
		return "", err
	}
	return loaderHTML(lib), nil
}

// LibraryScript returns the <script> element alone that loads the ECharts
// library (about 1 MB, inlined), for the <head> of an HTML page: the
// nbconvert template of `dlbd notebooks -html` puts it there, since executed
// notebooks no longer carry the library. It returns a *SetupError when the
// library is not installed.
func LibraryScript() (string, error) {
	lib, err := loadECharts()
	if err != nil {
		return "", err
	}
	return libraryScript(lib, ""), nil
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

// Init loads the ECharts library into the notebook page. It is optional:
// Show and every chart display load the library themselves, once per cell.
// Calling it again in the same cell does nothing; in a later cell it sends
// the library again, which draws the charts of a page that lost it (a
// reloaded page). Outside GoNB it does nothing.
//
// When the library is not installed, Init shows the error in the cell output
// and panics with the *SetupError (which names the setup step, `make kernel`),
// so the cell fails visibly; use InitHTML to get the error as a value instead.
func Init() {
	if !notebook.active() {
		return
	}
	if err := pageLibrary.send(notebook); err != nil {
		panic(err)
	}
}

// libraryMessage is shown in a cell whose charts cannot get the library.
const libraryMessage = "No se puede cargar la librería de gráficos ECharts. Ejecuta `make kernel` en el repositorio dlbd y reinicia el kernel."

// libraryLoader sends the library to a page at most once per cell.
//
// A cell cannot ask the page whether it still has window.echarts (the
// kernel has no channel back from the page's JavaScript), and a reloaded
// page, or a saved notebook opened again, has lost it. So the first chart
// display of each cell sends the library: GoNB runs each cell as a process
// of its own, and the stateful kernel's host (one process for the session)
// calls BeginCell before each cell. The library goes out as an output with a display id that is
// at once replaced (update_display_data) by stubHTML: the browser has run
// the script by then, and the saved notebook keeps a few bytes per cell
// instead of 1 MB. Charts shown before the library arrives wait for it, so
// re-running any chart cell after a reload draws every chart of the page.
type libraryLoader struct {
	mu   sync.Mutex
	cell uint64 // the cell (cells.Load()) that last sent the library, plus one; 0: none
	err  error  // the error that cell showed
}

// cells counts BeginCell's calls: the cell running now.
var cells atomic.Uint64

// BeginCell tells viz that a new notebook cell starts in this process: its
// first chart sends the library to the page again (the page may have been
// reloaded since). The stateful kernel's host calls it before each cell; a
// process that runs one cell (GoNB's) need not.
func BeginCell() { cells.Add(1) }

// pageLibrary is the loader of the default sink (the GoNB front end).
var pageLibrary libraryLoader

// sinkLoaders holds the loader of each other Sink (one page each).
var sinkLoaders sync.Map // Sink -> *libraryLoader

// loaderOf returns the loader of sink: one per sink value, so that the
// Displays of one page share it; a sink whose type cannot be a map key gets
// a loader of its own.
func loaderOf(sink Sink) *libraryLoader {
	if sink == Sink(notebook) {
		return &pageLibrary
	}
	if !reflect.TypeOf(sink).Comparable() {
		return &libraryLoader{}
	}
	l, _ := sinkLoaders.LoadOrStore(sink, &libraryLoader{})
	return l.(*libraryLoader)
}

// send sends the library to sink unless the running cell already did.
// When the library is not installed it shows the error in the cell, once,
// and returns it (again on later calls).
func (l *libraryLoader) send(sink Sink) error {
	cell := cells.Load() + 1
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.cell == cell {
		return l.err
	}
	lib, err := loadECharts()
	l.cell, l.err = cell, err
	if err != nil {
		sink.DisplayHTML(errorBox(libraryMessage, err))
		return err
	}
	id := newID("viz-loader")
	sink.UpdateHTML(id, loaderHTML(lib)) // a new output: the browser runs the script
	sink.UpdateHTML(id, stubHTML)        // the same output, now a few bytes
	return nil
}
