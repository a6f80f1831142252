package viz

import (
	"fmt"
	"math"
	"strings"

	"github.com/dlbd/dlbd/facts"
	"github.com/go-echarts/go-echarts/v2/opts"
)

// statusNote is the tooltip note of a value with status st: empty for
// verified values, the Spanish status otherwise.
func statusNote(st facts.Status) string {
	if st == facts.Verified {
		return ""
	}
	return "Estado: " + statusES(st)
}

// joinNotes joins the non-empty notes with " · ".
func joinNotes(notes ...string) string {
	var out []string
	for _, n := range notes {
		if n != "" {
			out = append(out, n)
		}
	}
	return strings.Join(out, " · ")
}

// marked returns an item at (x, y) whose symbol says whether its status is
// verified: hollow for anything else, a hollow triangle for unverified.
func marked(x, y float64, name string, st facts.Status, note string) item {
	it := xy(x, y)
	it.Name = name
	it.Note = joinNotes(statusNote(st), note)
	switch st {
	case facts.Verified:
	case facts.Unverified:
		it.Symbol, it.SymbolSize = "emptyTriangle", 12
	default:
		it.Symbol = "emptyCircle"
	}
	return it
}

// statusLegend is the note explaining the symbols of marked items.
const statusLegend = "Símbolos: ● valor verificado en la fuente; ○ fuente secundaria o estimación; △ sin verificar."

// one returns the only options struct given, or the zero value; more than
// one is a programming error.
func one[T any](op string, o []T) T {
	var zero T
	switch len(o) {
	case 0:
		return zero
	case 1:
		return o[0]
	}
	panic(fmt.Errorf("viz: %s takes at most one options struct, got %d", op, len(o)))
}

// fitIntercept returns b minimising Σ (log10 y − (slope·x + b))² over the
// points with lo ≤ x ≤ hi: the trend line of a published growth rate
// (the slope), placed through the data (the intercept).
func fitIntercept(xs, ys []float64, slope, lo, hi float64) (b float64, n int) {
	for i, x := range xs {
		if x >= lo && x <= hi && ys[i] > 0 {
			b += math.Log10(ys[i]) - slope*x
			n++
		}
	}
	if n == 0 {
		return math.NaN(), 0
	}
	return b / float64(n), n
}

// logSpace returns n values from lo to hi evenly spaced on a log scale.
func logSpace(lo, hi float64, n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = math.Pow(10, math.Log10(lo)+(math.Log10(hi)-math.Log10(lo))*float64(i)/float64(n-1))
	}
	return out
}

// curve returns the items (x, f(x)) for the xs.
func curve(xs []float64, f func(float64) float64) []item {
	items := make([]item, 0, len(xs))
	for _, x := range xs {
		if y := f(x); finite(y, false) {
			items = append(items, xy(x, y))
		}
	}
	return items
}

// noSymbol hides the symbols of a line series drawn from a formula.
var noSymbol = opts.Bool(false)

// TableHTML returns an HTML table (all cells escaped) with an optional
// caption under it. Show it with HTML.
func TableHTML(header []string, rows [][]string, caption ...string) string {
	var b strings.Builder
	b.WriteString(`<table class="viz-table" style="border-collapse:collapse;font:12px sans-serif;margin:4px 0">` + "\n<thead><tr>")
	for _, h := range header {
		fmt.Fprintf(&b, `<th style="text-align:left;border-bottom:2px solid #999;padding:3px 8px">%s</th>`, htmlText(h))
	}
	b.WriteString("</tr></thead>\n<tbody>\n")
	for _, r := range rows {
		b.WriteString("<tr>")
		for _, c := range r {
			fmt.Fprintf(&b, `<td style="border-bottom:1px solid #ddd;padding:3px 8px;vertical-align:top">%s</td>`, linkify(c))
		}
		b.WriteString("</tr>\n")
	}
	b.WriteString("</tbody></table>\n")
	for _, c := range caption {
		fmt.Fprintf(&b, `<div style="font:12px sans-serif;color:#555">%s</div>`+"\n", htmlText(c))
	}
	return b.String()
}
