// Package viz draws the course's charts in Jupyter notebooks run by GoNB:
// interactive ECharts charts (built with go-echarts), charts of the cited
// facts (package facts) that print their sources, and live training output
// (a progress bar and a loss curve) that needs no JavaScript.
//
// # Overview
//
// A notebook calls Show for each chart; nothing needs to be loaded first:
//
//	viz.Show(viz.ComputeTrends())   // a chart of facts, with its sources
//
// The first chart of each cell also sends the ECharts library to the page
// (EChartsVersion, installed from the npm registry by
// scripts/echarts/install.sh and found through $DLBD_ASSETS, see AssetsEnv):
// about 1 MB, inlined, never fetched from a CDN. It goes out as an output
// with a Jupyter display id that is at once replaced (update_display_data)
// by a stub of a few bytes: the browser has already run the script, so the
// page keeps window.echarts, and the saved notebook does not carry the
// library (an executed notebook with three charts is about 70 KB, 1.1 MB
// when each notebook saved it). Init does the same explicitly; it is
// optional and idempotent.
//
// Show emits a small self-contained fragment (Fragment, Render for an
// io.Writer) that waits until the library is loaded, then draws the chart.
// Until then it says in Spanish what is going on: at once, that the library
// is loading; after 5 s without it, to run the cell again (a reloaded page
// or a saved notebook opened again has lost the library, and any cell that
// shows a chart brings it back for every chart of the page), or `make
// kernel` when the library is not installed. Where the fragment's script
// never runs (an untrusted saved notebook, a viewer without JavaScript), the
// static text says to run the notebook's cells, or to open its HTML export:
// `dlbd notebooks -html` (make notebooks) exports with LibraryScript in the
// page's head, so those charts draw offline.
//
// Everything that displays goes through GoNB's gonbui and does nothing
// outside GoNB, so notebook code also runs in tests. Notebook cells import only
// this module's packages (importing gonbui directly would make GoNB fetch it
// from the network), so viz also offers HTML, Markdown and Display (an output
// block replaced in place, by display id).
//
// Live output: NewProgress and NewLossCurve return widgets that a training
// loop drives with one call per step. They redraw plain HTML/SVG in one
// output block through a display id, at most 10 times a second
// (DefaultMinInterval), and always draw their final state, which is what
// nbconvert saves.
//
// # Concepts
//
// The chart option is the JSON of a go-echarts chart, with two fixes over
// go-echarts' own RenderSnippet: functions (JS, opts.FuncOpts) become real
// JavaScript functions instead of quoted strings, and text in the data cannot
// end the <script> element ("</script>" and "<!--" are escaped). Element ids
// come from crypto/rand: each GoNB cell is a new process, so a counter would
// repeat ids across cells.
//
// The ECharts library contains a UMD wrapper that, under require.js (classic
// Notebook, nbconvert's HTML export), registers an anonymous AMD module and
// leaves window.echarts undefined. The loader hides define from the wrapper
// and then registers the library as the AMD module "echarts".
//
// The kernel has no channel back from the page, so a cell cannot know
// whether the page still has the library: it is sent once per cell. GoNB
// (the process mode) runs each cell as a process of its own; the stateful
// kernel runs every cell in one host process, which calls [BeginCell]
// before each cell.
//
// GoNB closes the display pipe as soon as the cell's process ends, so a
// message sent just before exit (the 1 MB of the library) can be lost: every
// display is followed by gonbui.Sync, which waits until GoNB has received it.
//
// ECharts spaces log-axis ticks by powers of ten of the exponent: an axis
// spanning ten decades or more shows one label every ten decades. Figures set
// logBase (one tick every k decades) from their data.
//
// The sub-package viz/browser checks all this in a real headless Chromium:
// nbconvert exports (charts drawn, the untrusted and missing-library
// messages) and a live JupyterLab session (charts drawn without Init, a
// saved model without the library, a reloaded page).
//
// A chart of facts is a *Figure: the go-echarts chart plus the notes and
// sources printed under it. Values whose status is not verified are marked
// in the chart (tooltip and symbol) and in the caption; illustrative charts say
// so.
//
// # Errors
//
// When the library cannot be found, Show and Display.UpdateChart show the
// error in the cell, once, naming the setup step (`make kernel`), and the
// chart says what to do; Init panics with the *SetupError (wrapping
// ErrEChartsMissing) after showing it, so the cell fails. InitHTML,
// LibraryScript and LocateECharts return the error instead. Show panics when a chart cannot be rendered (OptionJS
// fails on NaN or infinite numbers), which is a bug in the code that built
// it; Fragment and Render return that error. Chart builders panic on misuse
// (e.g. more than one options struct).
package viz
