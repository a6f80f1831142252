package viz

import (
	"math"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
	"github.com/go-echarts/go-echarts/v2/types"
)

// axis describes one axis of a frame.
type axis struct {
	name string
	kind string   // "value" (default), "log", "year" (value axis labelled as years), "category"
	cats []string // categories, for kind "category"
	min  any      // optional fixed minimum (number) or nil
	max  any
}

func (a axis) echartsType() string {
	switch a.kind {
	case "log", "category":
		return a.kind
	}
	return "value"
}

// bounds returns the axis limits: the fixed ones, or for a log axis whole
// decades around the data (ECharts' own choice can skip to 10¹⁰ steps).
func (a axis) bounds() (lo, hi any) {
	lo, hi = a.min, a.max
	if a.kind == "log" {
		if lo == nil {
			lo = JS(`function (v) { return Math.pow(10, Math.floor(Math.log10(v.min) + 1e-9)); }`)
		}
		if hi == nil {
			hi = JS(`function (v) { return Math.pow(10, Math.ceil(Math.log10(v.max) - 1e-9)); }`)
		}
	}
	return lo, hi
}

func (a axis) x() opts.XAxis {
	lo, hi := a.bounds()
	x := opts.XAxis{Name: a.name, Type: a.echartsType(), NameLocation: "middle", NameGap: 28, Min: lo, Max: hi,
		SplitLine: &opts.SplitLine{Show: opts.Bool(a.kind != "category")}}
	if a.kind != "category" {
		x.Scale = opts.Bool(true)
		x.AxisLabel = &opts.AxisLabel{Formatter: axisFormatter(a.kind)}
	}
	if a.kind == "category" {
		x.Data = a.cats
	}
	if a.kind == "log" {
		x.SplitNumber = 12 // one tick per decade where it fits (ECharts' default skips decades)
	}
	return x
}

func (a axis) y() opts.YAxis {
	lo, hi := a.bounds()
	y := opts.YAxis{Name: a.name, Type: a.echartsType(), NameLocation: "middle", NameGap: 46, Min: lo, Max: hi,
		SplitLine: &opts.SplitLine{Show: opts.Bool(a.kind != "category")}}
	if a.kind != "category" {
		y.Scale = opts.Bool(true)
		y.AxisLabel = &opts.AxisLabel{Formatter: axisFormatter(a.kind)}
	} else {
		y.Data = a.cats
		y.AxisLabel = &opts.AxisLabel{Show: opts.Bool(true)}
	}
	if a.kind == "log" {
		y.SplitNumber = 12
	}
	return y
}

// frame is the common layout of the package's xy charts.
type frame struct {
	title, subtitle string
	x, y            axis
	tooltip         types.FuncStr // item tooltip; default itemTooltip(x, y)
	trigger         string        // "item" (default) or "axis"
	legend          bool
}

// globals returns the go-echarts global options of the frame.
func (f frame) globals() []charts.GlobalOpts {
	tip := f.tooltip
	if tip == "" {
		tip = itemTooltip(f.x.name, f.y.name, f.x.kind)
	}
	trigger := cmp(f.trigger, "item")
	return []charts.GlobalOpts{
		charts.WithTitleOpts(opts.Title{Title: f.title, Subtitle: f.subtitle, Left: "center"}),
		charts.WithTooltipOpts(opts.Tooltip{Show: opts.Bool(true), Trigger: trigger, Formatter: tip}),
		charts.WithLegendOpts(opts.Legend{Show: opts.Bool(f.legend), Type: "scroll", Bottom: "0"}),
		charts.WithGridOpts(opts.Grid{Left: "56", Right: "40", Top: "70", Bottom: "70", ContainLabel: opts.Bool(true)}),
		charts.WithXAxisOpts(f.x.x()),
		charts.WithYAxisOpts(f.y.y()),
		charts.WithToolboxOpts(opts.Toolbox{Show: opts.Bool(true), Right: "10", Top: "0",
			Feature: &opts.ToolBoxFeature{SaveAsImage: &opts.ToolBoxFeatureSaveAsImage{Show: opts.Bool(true), Title: "Guardar como imagen"}}}),
		charts.WithAnimation(false),
	}
}

// item is one data point. ECharts reads value, name, symbol, symbolSize,
// itemStyle and label; note is this package's: the tooltip shows it (status,
// caveats).
type item struct {
	Value      any             `json:"value"`
	Name       string          `json:"name,omitempty"`
	Note       string          `json:"note,omitempty"`
	Symbol     string          `json:"symbol,omitempty"`
	SymbolSize int             `json:"symbolSize,omitempty"`
	ItemStyle  *opts.ItemStyle `json:"itemStyle,omitempty"`
	Label      *opts.Label     `json:"label,omitempty"`
}

// xy returns an item at (x, y).
func xy(x, y float64) item { return item{Value: []float64{x, y}} }

// finite reports whether v can be plotted (on a log axis: v > 0 too).
func finite(v float64, log bool) bool {
	return !math.IsNaN(v) && !math.IsInf(v, 0) && (!log || v > 0)
}

// newSeries returns a series of the given ECharts type ("line", "scatter",
// "bar") with its items; options are go-echarts series options.
func newSeries(kind, name string, items []item, options ...charts.SeriesOpts) charts.SingleSeries {
	s := charts.SingleSeries{Name: name, Type: kind, Data: items}
	s.ConfigureSeriesOpts(options...)
	return s
}

// dashed is the line style of forecasts, fitted laws and trend lines.
func dashed(color string) charts.SeriesOpts {
	return charts.WithLineStyleOpts(opts.LineStyle{Type: "dashed", Width: 2, Color: color})
}

// newLine returns a line chart with the frame's options and the series.
func newLine(f frame, ss ...charts.SingleSeries) *charts.Line {
	c := charts.NewLine()
	c.SetGlobalOptions(f.globals()...)
	if f.x.kind == "category" {
		c.SetXAxis(f.x.cats)
	}
	c.MultiSeries = append(c.MultiSeries, ss...)
	return c
}

// newBar returns a bar chart with the frame's options and the series.
func newBar(f frame, ss ...charts.SingleSeries) *charts.Bar {
	c := charts.NewBar()
	c.SetGlobalOptions(f.globals()...)
	if f.x.kind == "category" {
		c.SetXAxis(f.x.cats)
	}
	c.MultiSeries = append(c.MultiSeries, ss...)
	return c
}
