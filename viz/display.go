package viz

import (
	"fmt"
	"os"

	"github.com/janpfeifer/gonb/gonbui"
)

// Sink receives what viz displays. The default, used by Show, HTML, Markdown
// and the live widgets, sends it to the GoNB front end and does nothing
// outside GoNB; tests and other front ends can pass their own.
type Sink interface {
	// DisplayHTML shows html as a new output of the running cell.
	DisplayHTML(html string)
	// UpdateHTML shows html in the output block with display id id: the
	// block is created on the first call and replaced on later ones.
	UpdateHTML(id, html string)
	// DisplayMarkdown shows markdown as a new output of the running cell.
	DisplayMarkdown(markdown string)
}

// gonbSink is the Sink of GoNB cells (github.com/janpfeifer/gonb/gonbui).
//
// Pitfall: gonbui writes to a pipe that GoNB reads asynchronously; when the
// cell's process exits right after a large message (the 1 MB of the
// ECharts library), the kernel can lose it and the output silently never
// appears. Every message is therefore followed by gonbui.Sync, which waits
// until GoNB has received everything sent so far.
type gonbSink struct{}

func (gonbSink) active() bool { return gonbui.IsNotebook }

func (gonbSink) DisplayHTML(html string) { gonbui.DisplayHTML(html); gonbui.Sync() }

func (gonbSink) UpdateHTML(id, html string) { gonbui.UpdateHTML(id, html); gonbui.Sync() }

func (gonbSink) DisplayMarkdown(md string) { gonbui.DisplayMarkdown(md); gonbui.Sync() }

// notebook is the default sink.
var notebook gonbSink

// InNotebook reports whether the program runs as a GoNB notebook cell.
func InNotebook() bool { return notebook.active() }

// HTML shows raw HTML as an output of the cell (nothing outside GoNB).
func HTML(html string) { notebook.DisplayHTML(html) }

// Markdown shows Markdown (with $…$ LaTeX) as an output of the cell
// (nothing outside GoNB).
func Markdown(markdown string) { notebook.DisplayMarkdown(markdown) }

// Display is an output block that can be replaced in place, e.g. a table
// refreshed during training. Its id is unique across cells and processes.
type Display struct {
	id     string
	sink   Sink
	loader *libraryLoader // sends the library before charts (UpdateChart)
}

// NewDisplay returns a Display shown through GoNB (nothing outside GoNB).
// Nothing appears until the first Update.
func NewDisplay() *Display { return NewDisplayTo(nil) }

// NewDisplayTo returns a Display that writes to sink (the GoNB front end when
// sink is nil).
func NewDisplayTo(sink Sink) *Display {
	if sink == nil {
		sink = notebook
	}
	return &Display{id: newID("viz-display"), sink: sink, loader: loaderOf(sink)}
}

// ID returns the Jupyter display id of the block.
func (d *Display) ID() string { return d.id }

// Update replaces the block's content with html.
func (d *Display) Update(html string) { d.sink.UpdateHTML(d.id, html) }

// UpdateChart replaces the block's content with a chart (see Show). Like
// Show, it first sends the ECharts library to the page, once per cell.
func (d *Display) UpdateChart(c Chart, o ...Options) {
	html := mustFragment(c, o)
	if d.loader != &pageLibrary || notebook.active() {
		d.loader.send(d.sink) // an error is shown in the cell; the chart says what to do
	}
	d.Update(html)
}

// Show displays a chart (a go-echarts chart or a *Figure with its sources)
// as an output of the cell; see Render for the options. The first chart of
// a cell also sends the ECharts library to the page (no viz.Init needed; see
// Init); when the library is not installed, the cell shows why and the chart
// says what to do. Outside GoNB it does nothing. It panics if the chart
// cannot be rendered (see OptionJS): that is a bug in the code that built
// the chart.
func Show(c Chart, o ...Options) {
	if !notebook.active() {
		return
	}
	html := mustFragment(c, o)
	pageLibrary.send(notebook) // an error is shown in the cell; the chart says what to do
	notebook.DisplayHTML(html)
}

func mustFragment(c Chart, o []Options) string {
	s, err := Fragment(c, o...)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		panic(err)
	}
	return s
}
