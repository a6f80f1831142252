package viz

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/dlbd/dlbd/facts"
)

// Figure is a chart with what must be printed under it: notes (caveats,
// "illustrative") and the sources of its data with their status. Every chart
// of facts made by this package is a *Figure. It is a Chart, so Show, Render
// and Fragment take it; the embedded go-echarts chart can still be adjusted
// (fig.Chart.(*charts.Line).SetGlobalOptions(...)).
type Figure struct {
	Chart                     // the go-echarts chart
	Notes   []string          // Spanish lines shown above the sources, in order
	Sources []facts.SourceRef // where the data comes from, with statuses
	Width   string            // default CSS width (Options.Width overrides)
	Height  string            // default CSS height (Options.Height overrides)
}

// AddSources appends the distinct sources of rows to the figure.
func AddSources[T facts.Cited](f *Figure, rows []T) {
	for _, r := range facts.Sources(rows) {
		merged := false
		for i := range f.Sources {
			if f.Sources[i].Source == r.Source {
				f.Sources[i].Rows += r.Rows
				for _, st := range r.Statuses {
					if !slices.Contains(f.Sources[i].Statuses, st) {
						f.Sources[i].Statuses = append(f.Sources[i].Statuses, st)
					}
				}
				merged = true
			}
		}
		if !merged {
			f.Sources = append(f.Sources, r)
		}
	}
}

// HasUnverified reports whether any source of the figure has unverified rows.
func (f *Figure) HasUnverified() bool {
	for _, s := range f.Sources {
		if slices.Contains(s.Statuses, facts.Unverified) {
			return true
		}
	}
	return false
}

// statusES is the Spanish label of a status.
func statusES(s facts.Status) string {
	switch s {
	case facts.Verified:
		return "verificado"
	case facts.Secondary:
		return "fuente secundaria"
	case facts.Derived:
		return "derivado (calculado a partir de valores citados)"
	case facts.Unverified:
		return "SIN VERIFICAR"
	}
	return string(s)
}

var urlRE = regexp.MustCompile(`https?://[^\s<>"]+`)

// linkify escapes s for HTML and turns URLs into links.
func linkify(s string) string {
	var b strings.Builder
	last := 0
	for _, m := range urlRE.FindAllStringIndex(s, -1) {
		url := strings.TrimRight(s[m[0]:m[1]], ".,;)")
		b.WriteString(htmlText(s[last:m[0]]))
		fmt.Fprintf(&b, `<a href="%s" target="_blank" rel="noopener">%s</a>`, htmlText(url), htmlText(url))
		last = m[0] + len(url)
	}
	b.WriteString(htmlText(s[last:]))
	return b.String()
}

// captionHTML renders the notes and the sources. The source list is open
// when short and collapsed (a <details>) when long; its summary line, always
// visible, counts the sources and says whether any value is not verified.
func (f *Figure) captionHTML() string {
	if len(f.Notes) == 0 && len(f.Sources) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString(`<div class="viz-caption" style="font:12px/1.45 sans-serif;color:#555;margin:4px 0 12px 0">` + "\n")
	if f.HasUnverified() {
		b.WriteString(`<div class="viz-warning" style="color:#b00">⚠ Este gráfico incluye valores SIN VERIFICAR (marcados en el gráfico): no los uses sin comprobarlos en la fuente.</div>` + "\n")
	}
	for _, n := range f.Notes {
		fmt.Fprintf(&b, `<div class="viz-note">%s</div>`+"\n", htmlText(n))
	}
	if len(f.Sources) > 0 {
		counts := map[facts.Status]int{}
		for _, s := range f.Sources {
			for _, st := range s.Statuses {
				counts[st]++
			}
		}
		var parts []string
		for _, st := range []facts.Status{facts.Verified, facts.Secondary, facts.Derived, facts.Unverified} {
			if counts[st] > 0 {
				parts = append(parts, fmt.Sprintf("%s: %d", statusES(st), counts[st]))
			}
		}
		open := ""
		if len(f.Sources) <= 4 {
			open = " open"
		}
		fmt.Fprintf(&b, `<details class="viz-sources"%s><summary>Fuentes (%d; %s)</summary><ol style="margin:2px 0;padding-left:22px">`+"\n",
			open, len(f.Sources), strings.Join(parts, ", "))
		for _, s := range f.Sources {
			var st []string
			for _, x := range s.Statuses {
				st = append(st, statusES(x))
			}
			fmt.Fprintf(&b, "<li>%s <em>(%s)</em></li>\n", linkify(s.Source), strings.Join(st, "; "))
		}
		b.WriteString("</ol></details>\n")
	}
	b.WriteString("</div>\n")
	return b.String()
}
