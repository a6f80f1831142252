package viz

import (
	"math"
	"strings"

	"github.com/dlbd/dlbd/facts"
	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
)

// ComputeOptions configures ComputeTrends. The zero value draws every model
// and all trend lines.
type ComputeOptions struct {
	NoTrends bool // only the models
	NoLabels bool // no model names next to the points
}

// ComputeTrends charts the training compute of notable models (Epoch AI,
// log axis) against publication date, with trend lines of the published
// growth rates: OpenAI's doubling every 3.4 months (2012–2018), Epoch's 4× and
// 5× per year (2010–2024), and Moore's law's 2-year doubling for comparison.
// A trend line has the published slope; its height is fitted to the models of
// its period (derived). Epoch's "Speculative" estimates are hollow.
func ComputeTrends(o ...ComputeOptions) *Figure {
	opt := one("ComputeTrends", o)
	models := facts.ComputeTrends()
	var pts []item
	var xs, ys []float64
	for _, m := range models {
		x := dateYear(m.PublicationDate, m.Year)
		it := xy(x, m.TrainingComputeFLOP)
		it.Name = m.Model
		note := "confianza de Epoch: " + m.EpochConfidence
		if m.Speculative() {
			it.Symbol = "emptyCircle"
			note = "estimación ESPECULATIVA de Epoch (modelo cerrado)"
		}
		if !math.IsNaN(m.Parameters) {
			note += sprintf(" · %.3g parámetros", m.Parameters)
		}
		it.Note = note
		if !opt.NoLabels {
			it.Label = &opts.Label{Show: opts.Bool(true), Position: "right", FontSize: 9, Formatter: "{b}", Color: "#666"}
		}
		pts = append(pts, it)
		xs, ys = append(xs, x), append(ys, m.TrainingComputeFLOP)
	}
	f := frame{title: "Compute de entrenamiento de modelos destacados", subtitle: "FLOP totales, escala logarítmica (Epoch AI)",
		x: axis{name: "fecha de publicación", kind: "year"}, y: axis{name: "compute de entrenamiento (FLOP)", kind: "log"}, legend: true}
	ss := []charts.SingleSeries{newSeries("scatter", "modelos (Epoch AI)", pts,
		charts.WithSeriesOpts(func(s *charts.SingleSeries) { s.SymbolSize = 8 }), charts.WithLabelLayoutOpts(opts.LabelLayout{HideOverlap: opts.Bool(true)}))}
	fig := &Figure{Chart: nil, Height: "520px", Notes: []string{
		"● estimación de Epoch «Confident» o «Likely»; ○ «Speculative» (modelos cerrados: GPT-4, Gemini, Claude, Grok…). Epoch revisa sus valores; instantánea del 2025-02-24.",
	}}
	AddSources(fig, models)
	if !opt.NoTrends {
		var rates []facts.GrowthRate
		for _, g := range facts.ComputeGrowthRates() {
			switch {
			case g.SourceOrg == "OpenAI" && strings.HasPrefix(g.Metric, "Doubling time"):
				lo, _, _ := g.DoublingRange()
				ss = append(ss, trendLine(sprintf("OpenAI 2018: ×2 cada %g meses (2012–2018)", lo), 12/lo*math.Log10(2), 2012, 2018.5, xs, ys, "#ee6666"))
				ss = append(ss, trendLine("ley de Moore: ×2 cada 2 años (comparación de OpenAI)", math.Log10(2)/2, 2012, 2018.5, xs, ys, "#999999"))
				rates = append(rates, g)
			case g.Period == "2010-May 2024":
				lo, hi, _ := g.GrowthRange()
				for _, r := range []float64{lo, hi} {
					ss = append(ss, trendLine(sprintf("Epoch AI 2024: ×%g por año (2010–2024)", r), math.Log10(r), 2010, 2024.5, xs, ys, "#5470c6"))
				}
				rates = append(rates, g)
			}
		}
		AddSources(fig, rates)
		fig.Notes = append(fig.Notes, "Líneas de tendencia: pendiente publicada por cada fuente; su altura se ajusta (mínimos cuadrados en log) a los modelos de su periodo (derivado).")
	}
	fig.Chart = newLine(f, ss...)
	return fig
}

// trendLine is a dashed line of constant growth (slope in decades per
// year) over [from, to], through the models of that period.
func trendLine(name string, slope, from, to float64, xs, ys []float64, color string) charts.SingleSeries {
	b, _ := fitIntercept(xs, ys, slope, from, to)
	var items []item
	for _, x := range []float64{from, to} {
		it := xy(x, math.Pow(10, slope*x+b))
		it.Note = "tendencia (derivada)"
		items = append(items, it)
	}
	s := newSeries("line", name, items, dashed(color))
	s.ShowSymbol = noSymbol
	return s
}

// dateYear converts "2012-09-30" to a fractional year (month resolution).
func dateYear(date string, year int) float64 {
	if y, ok := facts.ParseYear(date); ok {
		return y
	}
	return float64(year)
}

// datasetUnits picks the comparable metric of each modality.
var datasetUnits = map[string]func(facts.DatasetFact) bool{
	"texto": func(d facts.DatasetFact) bool { return strings.HasPrefix(d.Unit, "tokens") },
	"imagen": func(d facts.DatasetFact) bool {
		return d.Unit == "images" || d.Unit == "pairs" && strings.HasPrefix(d.Modality, "image")
	},
	"audio": func(d facts.DatasetFact) bool { return d.Unit == "hours" && strings.HasPrefix(d.Modality, "audio") },
	"vídeo": func(d facts.DatasetFact) bool { return d.Unit == "hours" && strings.HasPrefix(d.Modality, "video") },
}

var datasetAxis = map[string]string{"texto": "tokens", "imagen": "imágenes o pares imagen-texto", "audio": "horas de audio", "vídeo": "horas de vídeo"}

// DatasetModalities are the modalities DatasetSizes accepts.
var DatasetModalities = []string{"texto", "imagen", "audio", "vídeo"}

// DatasetSizes charts the sizes of training datasets of one modality
// ("texto" (default): tokens; "imagen": images or image-text pairs; "audio"
// and "vídeo": hours) as horizontal bars on a log axis. Values worded as
// approximate or lower bounds in the source ("~3e9", ">100e12") say so in
// the tooltip. DatasetsTable lists every metric.
func DatasetSizes(modality ...string) *Figure {
	mod := one("DatasetSizes", modality)
	if mod == "" {
		mod = "texto"
	}
	keep, ok := datasetUnits[mod]
	if !ok {
		panic(errorf("viz: DatasetSizes: unknown modality %q (want one of %s)", mod, strings.Join(DatasetModalities, ", ")))
	}
	var rows []facts.DatasetFact
	var cats []string
	var items []item
	for _, d := range facts.Datasets() {
		if !keep(d) {
			continue
		}
		rows = append(rows, d)
		cat := d.Dataset + " — " + d.Metric
		cats = append(cats, cat)
		it := item{Value: d.ValueNum, Name: cat, Note: joinNotes(statusNote(d.Status), "valor en la fuente: "+d.Value+" "+d.Unit, d.Year)}
		if d.Status != facts.Verified {
			it.ItemStyle = &opts.ItemStyle{Color: "#a9b8dc"}
		}
		items = append(items, it)
	}
	f := frame{title: "Tamaño de datasets de entrenamiento: " + mod, subtitle: "escala logarítmica",
		x: axis{name: datasetAxis[mod], kind: "log"}, y: axis{kind: "category", cats: cats}, tooltip: barTooltip("")}
	fig := &Figure{Chart: newBar(f, newSeries("bar", datasetAxis[mod], items)), Height: sprintf("%dpx", 140+28*len(cats)),
		Notes: []string{"Barras claras: valor de fuente secundaria o derivado (ver el estado en cada barra)."}}
	AddSources(fig, rows)
	return fig
}

// DatasetsTable returns datasets.csv as an HTML table (show it with HTML),
// optionally only the rows whose modality starts with the given prefix as
// written in the dataset ("text", "image", "audio", "video").
func DatasetsTable(modality ...string) string {
	mod := one("DatasetsTable", modality)
	var rows [][]string
	for _, d := range facts.Datasets() {
		if mod == "" || strings.HasPrefix(d.Modality, mod) {
			rows = append(rows, []string{d.Dataset, d.Modality, d.Year, d.Metric, d.Value, d.Unit, statusES(d.Status), d.Source})
		}
	}
	return TableHTML([]string{"dataset", "modalidad", "año", "métrica", "valor", "unidad", "estado", "fuente"}, rows)
}
