// Package viz draws the course's charts in Jupyter notebooks run by GoNB:
// interactive ECharts charts (built with go-echarts), charts of the cited
// facts (package facts) that print their sources, and live training output
// (a progress bar and a loss curve) that needs no JavaScript.
//
// # Overview
//
// A notebook calls Init once, in its first cell, and then Show for each chart:
//
//	viz.Init()                      // loads ECharts into the page (offline copy)
//	viz.Show(viz.ComputeTrends())   // a chart of facts, with its sources
//
// Init inlines the ECharts library (EChartsVersion, installed from the npm
// registry by scripts/echarts/install.sh and found through $DLBD_ASSETS, see
// AssetsEnv). Show emits a small self-contained fragment (Fragment, Render
// for an io.Writer) that waits until the library is loaded, then draws the
// chart; until then it tells the student, in Spanish, what to do: run the
// notebook or trust it, run viz.Init(), or run `make kernel`.
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
// GoNB closes the display pipe as soon as the cell's process ends, so a
// message sent just before exit (the 1 MB of Init) can be lost: every display
// is followed by gonbui.Sync, which waits until GoNB has received it.
//
// ECharts spaces log-axis ticks by powers of ten of the exponent: an axis
// spanning ten decades or more shows one label every ten decades. Figures set
// logBase (one tick every k decades) from their data.
//
// The sub-package viz/browser checks all this in a real headless Chromium:
// nbconvert exports (charts drawn, the untrusted and missing-library
// messages) and a live JupyterLab session.
//
// A chart of facts is a *Figure: the go-echarts chart plus the notes and
// sources printed under it. Values whose status is not verified are marked
// in the chart (tooltip and symbol) and in the caption; illustrative charts say
// so.
//
// # Errors
//
// Init panics with a *SetupError (wrapping ErrEChartsMissing) when the
// library cannot be found, after showing the error in the cell: the cell fails
// and names the setup step (`make kernel`). InitHTML and LocateECharts return
// the error instead. Show panics when a chart cannot be rendered (OptionJS
// fails on NaN or infinite numbers), which is a bug in the code that built
// it; Fragment and Render return that error. Chart builders panic on misuse
// (e.g. more than one options struct).
package viz
