// Package browser checks, in a real headless Chromium, that what package
// viz writes into a notebook works: every chart draws, and the messages for
// an untrusted notebook and for a missing library appear when they should.
//
// # Overview
//
// CheckFile loads one HTML file (an nbconvert export of an executed notebook,
// or any page with viz fragments) in Chromium three times:
//
//	Drawn      scripts on: every .viz-echarts element must reach
//	           data-viz-state="drawn" with non-blank pixels, with no uncaught
//	           JavaScript error
//	NoScript   every <script> removed, as Jupyter's sanitizer does for an
//	           untrusted notebook: every chart must still show the static
//	           message that says what to do
//	NoLibrary  the library's script removed (what a reloaded page or a saved
//	           notebook opened again lacks): every chart must say at once
//	           that the library is loading, then switch to the message that
//	           says to run the cell again (viz.Init(), `make kernel`)
//
// Only in NoScript may a chart show the untrusted-notebook message. The
// exports of `dlbd notebooks -html` carry the library in the page's head
// (executed notebooks do not: viz replaces it with a stub once sent).
//
// It needs no network and no DevTools client: Chromium runs with
// --dump-dom and --virtual-time-budget (timers run in virtual time), and a
// probe script injected into a copy of the page writes what it measured into
// the DOM. Failures can be saved as screenshots (Options.ScreenshotDir).
//
// # Errors
//
// CheckFile returns an error when Chromium cannot run or the file cannot be
// read; the checks' findings are in the Report (Report.Err summarises them).
//
// # Concepts
//
// Chromium comes from Debian's chromium package (scripts/setup.sh --test
// installs it). $DLBD_CHROMIUM overrides the executable. Running as root
// needs --no-sandbox, which is always passed: the pages are local files.
package browser
