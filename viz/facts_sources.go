package viz

import (
	"slices"
	"sort"
	"strings"

	"github.com/dlbd/dlbd/facts"
	"github.com/go-echarts/go-echarts/v2/charts"
)

// DataSourceEntities lists the producers of data_sources.csv, in file order
// (YouTube, email, Google Search, IoT, CERN, SKA, Facebook), for DataSources.
func DataSourceEntities() []string {
	var out []string
	for _, f := range facts.DataSources() {
		name := entityKey(f.Entity)
		if !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	return out
}

// entityKey merges the spellings of one producer ("Email (worldwide)" and
// "Email (worldwide, business + consumer)", "SKA Observatory" and "SKA-Low").
func entityKey(e string) string {
	for _, p := range []string{"Email", "SKA", "CERN", "Connected IoT"} {
		if strings.HasPrefix(e, p) {
			return p
		}
	}
	return e
}

// DataSources charts the figures of one large producer of data (an entry of
// DataSourceEntities; default "YouTube", hours of video uploaded per minute)
// over time. Each metric, unit and source is its own series; forecasts are
// marked in the tooltip. Figures in another unit than the most common one are
// listed under the chart instead of plotted (see DataSourcesTable for all).
func DataSources(entity ...string) *Figure {
	name := one("DataSources", entity)
	if name == "" {
		name = "YouTube"
	}
	var rows []facts.DataSourceFact
	units := map[string]int{}
	for _, f := range facts.DataSources() {
		if entityKey(f.Entity) == name {
			rows = append(rows, f)
			units[f.Unit]++
		}
	}
	if len(rows) == 0 {
		panic(errorf("viz: DataSources: no producer %q (have %s)", name, strings.Join(DataSourceEntities(), ", ")))
	}
	unit := ""
	for u, n := range units {
		if n > units[unit] || (n == units[unit] && u < unit) {
			unit = u
		}
	}
	groups := map[string][]item{}
	var order, others []string
	var plotted []facts.DataSourceFact
	for _, f := range rows {
		x, ok := facts.ParseYear(f.Year)
		if f.Unit != unit || !ok {
			others = append(others, f.Metric+" ("+f.Year+"): "+f.Value+" "+f.Unit+" ["+statusES(f.Status)+"]")
			continue
		}
		plotted = append(plotted, f)
		metric := strings.TrimSuffix(strings.TrimSuffix(f.Metric, " (forecast)"), " (forecast for year-end)")
		key := metric + " — " + shortSource(f.Source)
		if _, ok := groups[key]; !ok {
			order = append(order, key)
		}
		note := "valor en la fuente: " + f.Value
		if strings.Contains(f.Metric, "forecast") {
			note += " (previsión)"
		}
		groups[key] = append(groups[key], marked(x, f.ValueNum, f.Entity, f.Status, note))
	}
	var ss []charts.SingleSeries
	for _, k := range order {
		g := groups[k]
		sort.Slice(g, func(i, j int) bool { return g[i].Value.([]float64)[0] < g[j].Value.([]float64)[0] })
		ss = append(ss, newSeries("line", k, g))
	}
	f := frame{title: "Grandes productores de datos: " + name, subtitle: unit,
		x: axis{name: "año", kind: "year"}, y: axis{name: unit, kind: "log"}, legend: true}
	fig := &Figure{Chart: newLine(f, ss...), Height: "400px", Notes: []string{statusLegend,
		"La mayoría de estas cifras son declaraciones de las empresas o estimaciones de analistas repetidas por fuentes secundarias."}}
	for _, o := range others {
		fig.Notes = append(fig.Notes, "No dibujado (otra unidad o sin año): "+o)
	}
	AddSources(fig, rows)
	return fig
}

// shortSource returns the host of the first URL in a source, or its first
// words: a short series label.
func shortSource(src string) string {
	if m := urlRE.FindString(src); m != "" {
		host := strings.TrimPrefix(strings.TrimPrefix(m, "https://"), "http://")
		host, _, _ = strings.Cut(host, "/")
		return strings.TrimPrefix(host, "www.")
	}
	if len(src) > 30 {
		return src[:30] + "…"
	}
	return src
}

// DataSourcesTable returns data_sources.csv as an HTML table (show it with
// HTML): producer, year, metric, value as worded in the source, unit,
// status and source.
func DataSourcesTable() string {
	var rows [][]string
	for _, f := range facts.DataSources() {
		rows = append(rows, []string{f.Entity, f.Year, f.Metric, f.Value, f.Unit, statusES(f.Status), f.Source})
	}
	return TableHTML([]string{"productor", "año", "métrica", "valor", "unidad", "estado", "fuente"}, rows)
}
