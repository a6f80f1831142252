package viz

import (
	"slices"
	"strings"

	"github.com/dlbd/dlbd/facts"
	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
)

// TimelineOptions selects the milestones of BigDataTimeline. The zero value
// shows all of them.
type TimelineOptions struct {
	FromYear, ToYear int  // inclusive bounds; 0 means no bound
	NoEras           bool // hide the three eras of the course text
}

// timelineLanes groups the dataset's categories into the chart's rows.
var timelineLanes = map[string]string{
	"storage": "Almacenamiento", "storage/NoSQL": "Almacenamiento", "storage formats": "Almacenamiento", "lakehouse": "Almacenamiento",
	"processing": "Procesamiento", "SQL-on-Hadoop": "Procesamiento", "streaming": "Procesamiento",
	"accelerators": "Hardware y clusters", "HPC": "Hardware y clusters", "clusters": "Hardware y clusters",
	"datasets/DL": "Deep learning", "deep learning": "Deep learning", "DL frameworks": "Deep learning", "LLMs": "Deep learning",
	"compute trends": "Escala y compute", "scaling laws": "Escala y compute",
}

var laneOrder = []string{"Almacenamiento", "Procesamiento", "Deep learning", "Escala y compute", "Hardware y clusters"}

// BigDataTimeline charts the milestones of timeline.csv (2003–2024) by
// date, in rows by kind, with the course's three eras (Hadoop 2006–2012,
// Spark 2012–2018, cloud-native + IA since 2018) shaded.
func BigDataTimeline(o ...TimelineOptions) *Figure {
	opt := one("BigDataTimeline", o)
	var rows []facts.Milestone
	byLane := map[string][]item{}
	for _, m := range facts.Timeline() {
		if (opt.FromYear != 0 && m.Year < opt.FromYear) || (opt.ToYear != 0 && m.Year > opt.ToYear) {
			continue
		}
		rows = append(rows, m)
		lane, ok := timelineLanes[m.Category]
		if !ok {
			lane = m.Category
		}
		x, ok := facts.ParseYear(m.Date)
		if !ok {
			x = float64(m.Year)
		}
		it := marked(x, 0, m.Event, m.Status, m.Date+" · "+m.Detail)
		it.Value = []any{x, lane}
		byLane[lane] = append(byLane[lane], it)
	}
	lanes := append([]string(nil), laneOrder...)
	for lane := range byLane {
		if !slices.Contains(lanes, lane) {
			lanes = append(lanes, lane)
		}
	}
	f := frame{title: "Línea temporal del Big Data y del deep learning", subtitle: "pasa el ratón por un punto para ver el hito",
		x: axis{name: "año", kind: "year"}, y: axis{kind: "category", cats: lanes}, tooltip: nameTooltip()}
	var ss []charts.SingleSeries
	for _, lane := range lanes {
		if len(byLane[lane]) == 0 {
			continue
		}
		ss = append(ss, newSeries("scatter", lane, byLane[lane], charts.WithSeriesOpts(func(s *charts.SingleSeries) { s.SymbolSize = 12 })))
	}
	if !opt.NoEras && len(ss) > 0 {
		ss[0].MarkAreas = &opts.MarkAreas{Data: []any{
			era("Era Hadoop", 2006, 2012, "#fde7c8"), era("Era Spark", 2012, 2018, "#dbeafd"), era("Cloud-native + IA", 2018, 2025, "#e2f5dd")}}
	}
	fig := &Figure{Chart: newLine(f, ss...), Height: "460px", Notes: []string{
		statusLegend,
		"Eras según el texto del curso. Cuando la fuente solo da el congreso, el mes es el del congreso (ver la nota de cada hito).",
	}}
	AddSources(fig, rows)
	return fig
}

// era is a shaded band of the timeline.
func era(name string, from, to float64, color string) []map[string]any {
	return []map[string]any{
		{"name": name, "xAxis": from, "itemStyle": map[string]any{"color": color, "opacity": 0.6}, "label": map[string]any{"color": "#555"}},
		{"xAxis": to},
	}
}

// VCase is one use case of the V's chart: how strongly each V applies
// ("alta", "moderada", "baja", or "" when not stated).
type VCase struct {
	Name   string
	Levels map[string]string // key: a V ("volumen", "velocidad", "variedad", "veracidad", "valor")
}

// TheVs are the five V's of Big Data of the course: Laney's three (2001)
// and the two added later.
var TheVs = []string{"volumen", "velocidad", "variedad", "veracidad", "valor"}

// CourseVCases are the two cases the course text describes: industrial IoT
// (very high velocity, little variety) and web-scale NLP (huge variety,
// moderate ingestion velocity).
var CourseVCases = []VCase{
	{Name: "IoT industrial", Levels: map[string]string{"velocidad": "alta", "variedad": "baja"}},
	{Name: "NLP a escala web", Levels: map[string]string{"variedad": "alta", "velocidad": "moderada"}},
}

// BigDataVs charts which V's dominate in each case, as a qualitative grid.
// With no cases it shows CourseVCases; the cells the course does not state
// stay empty (students can fill their own cases).
func BigDataVs(cases ...VCase) *Figure {
	if len(cases) == 0 {
		cases = CourseVCases
	}
	level := map[string]int{"baja": 1, "moderada": 2, "media": 2, "alta": 3}
	var items []item
	var names []string
	for j, c := range cases {
		names = append(names, c.Name)
		for i, v := range TheVs {
			if l, ok := level[strings.ToLower(c.Levels[v])]; ok {
				items = append(items, item{Value: []any{j, i, l}, Name: strings.ToLower(c.Levels[v])})
			}
		}
	}
	f := frame{title: "Las V's del Big Data: cuáles dominan en cada caso", subtitle: "cualitativo",
		x: axis{kind: "category", cats: names}, y: axis{kind: "category", cats: TheVs},
		tooltip: JS(`function (p) {` + jsHelpers + `  return esc(p.name); }`)}
	c := charts.NewHeatMap()
	c.SetGlobalOptions(f.globals()...)
	c.SetGlobalOptions(charts.WithVisualMapOpts(opts.VisualMap{Show: opts.Bool(false), Min: 1, Max: 3,
		InRange: &opts.VisualMapInRange{Color: []string{"#deebf7", "#6baed6", "#08519c"}}}))
	c.MultiSeries = append(c.MultiSeries, newSeries("heatmap", "nivel", items,
		charts.WithLabelOpts(opts.Label{Show: opts.Bool(true), Formatter: "{b}", Color: "#000"})))
	return &Figure{Chart: c, Height: "360px", Notes: []string{
		"Cualitativo: niveles tomados del texto del curso (sección «Las V's del Big Data»); las celdas vacías no las indica el curso.",
		"Modelo original de Doug Laney (2001): volumen, velocidad y variedad; veracidad y valor se añadieron después.",
	}}
}
