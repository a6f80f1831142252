package viz

import (
	"encoding/json"
	"fmt"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
)

// Series is one line, set of points or set of bars of a generic chart.
type Series struct {
	Name   string
	X, Y   []float64 // same length; Bar ignores X (one Y per category)
	Labels []string  // optional names of the points, shown in the tooltip
	Dashed bool      // dashed line (a fit, a forecast, a trend)
}

// PlotOptions are the options of the generic charts. The zero value is the
// default: linear axes without names, no title.
type PlotOptions struct {
	Title, Subtitle string
	XName, YName    string   // axis names (Spanish for students: "parámetros", "pérdida")
	LogX, LogY      bool     // logarithmic axes (non-positive values are dropped)
	XYears          bool     // label the x axis as years (2019, not 2,019)
	Horizontal      bool     // Bar: horizontal bars
	Stack           bool     // Bar: stack the series
	Notes           []string // lines printed under the chart
	Width, Height   string   // CSS size of the chart
}

func (o PlotOptions) frame(legend bool) frame {
	xk, yk := "value", "value"
	if o.LogX {
		xk = "log"
	} else if o.XYears {
		xk = "year"
	}
	if o.LogY {
		yk = "log"
	}
	return frame{title: o.Title, subtitle: o.Subtitle, x: axis{name: o.XName, kind: xk}, y: axis{name: o.YName, kind: yk}, legend: legend}
}

func (o PlotOptions) figure(c Chart) *Figure {
	return &Figure{Chart: c, Notes: o.Notes, Width: o.Width, Height: o.Height}
}

// points converts a Series to items, dropping points a log axis cannot show.
// It panics if X, Y and Labels disagree in length.
func (s Series) points(op string, logX, logY bool) []item {
	if len(s.X) != len(s.Y) {
		panic(fmt.Errorf("viz: %s: series %q has %d x values and %d y values", op, s.Name, len(s.X), len(s.Y)))
	}
	if s.Labels != nil && len(s.Labels) != len(s.Y) {
		panic(fmt.Errorf("viz: %s: series %q has %d labels for %d points", op, s.Name, len(s.Labels), len(s.Y)))
	}
	var items []item
	for i := range s.X {
		if !finite(s.X[i], logX) || !finite(s.Y[i], logY) {
			continue
		}
		it := xy(s.X[i], s.Y[i])
		if s.Labels != nil {
			it.Name = s.Labels[i]
		}
		items = append(items, it)
	}
	return items
}

// Line draws each series as a line through its points (in the given order).
func Line(o PlotOptions, series ...Series) *Figure {
	var ss []charts.SingleSeries
	for _, s := range series {
		var so []charts.SeriesOpts
		if s.Dashed {
			so = append(so, dashed(""))
		}
		ss = append(ss, newSeries("line", s.Name, s.points("Line", o.LogX, o.LogY), so...))
	}
	return o.figure(newLine(o.frame(len(series) > 1), ss...))
}

// Scatter draws each series as unconnected points.
func Scatter(o PlotOptions, series ...Series) *Figure {
	var ss []charts.SingleSeries
	for _, s := range series {
		ss = append(ss, newSeries("scatter", s.Name, s.points("Scatter", o.LogX, o.LogY)))
	}
	return o.figure(newLine(o.frame(len(series) > 1), ss...))
}

// Bar draws one bar per category for each series (series[i].Y[j] is the
// value of category j). It panics if a series has not one value per category.
func Bar(o PlotOptions, categories []string, series ...Series) *Figure {
	f := o.frame(len(series) > 1)
	cat := axis{name: o.XName, kind: "category", cats: categories}
	val := f.y
	if o.Horizontal {
		f.x, f.y = axis{name: o.YName, kind: val.kind}, axis{name: o.XName, kind: "category", cats: categories}
	} else {
		f.x = cat
	}
	var ss []charts.SingleSeries
	for _, s := range series {
		if len(s.Y) != len(categories) {
			panic(fmt.Errorf("viz: Bar: series %q has %d values for %d categories", s.Name, len(s.Y), len(categories)))
		}
		var items []item
		for j, v := range s.Y {
			if finite(v, o.LogY) {
				items = append(items, item{Value: v, Name: categories[j]})
			} else {
				items = append(items, item{Value: nil, Name: categories[j]})
			}
		}
		var so []charts.SeriesOpts
		if o.Stack {
			so = append(so, charts.WithBarChartOpts(opts.BarChart{Stack: "total"}))
		}
		ss = append(ss, newSeries("bar", s.Name, items, so...))
	}
	return o.figure(newBar(f, ss...))
}

// Heatmap draws z[i][j] as the colour of cell (xLabels[j], yLabels[i]). NaN
// cells are left empty. It panics if z's shape does not match the labels.
func Heatmap(o PlotOptions, xLabels, yLabels []string, z [][]float64) *Figure {
	if len(z) != len(yLabels) {
		panic(fmt.Errorf("viz: Heatmap: %d rows of values for %d y labels", len(z), len(yLabels)))
	}
	lo, hi := 0.0, 0.0
	first := true
	var items []item
	for i, row := range z {
		if len(row) != len(xLabels) {
			panic(fmt.Errorf("viz: Heatmap: row %d has %d values for %d x labels", i, len(row), len(xLabels)))
		}
		for j, v := range row {
			if !finite(v, false) {
				continue
			}
			if first || v < lo {
				lo = v
			}
			if first || v > hi {
				hi = v
			}
			first = false
			items = append(items, item{Value: []any{j, i, v}})
		}
	}
	f := frame{title: o.Title, subtitle: o.Subtitle,
		x: axis{name: o.XName, kind: "category", cats: xLabels}, y: axis{name: o.YName, kind: "category", cats: yLabels},
		tooltip: JS(`function (p) {` + jsHelpers + `
  var xs = ` + jsonString(xLabels) + `, ys = ` + jsonString(yLabels) + `;
  return esc(ys[p.value[1]]) + " · " + esc(xs[p.value[0]]) + ": <b>" + num(p.value[2]) + "</b>";
}`)}
	c := charts.NewHeatMap()
	c.SetGlobalOptions(f.globals()...)
	c.SetGlobalOptions(charts.WithGridOpts(opts.Grid{Left: "56", Right: "90", Top: "70", Bottom: "70", ContainLabel: opts.Bool(true)}),
		charts.WithVisualMapOpts(opts.VisualMap{Calculable: opts.Bool(true), Min: float32(lo), Max: float32(hi),
			Orient: "vertical", Right: "0", Top: "center", InRange: &opts.VisualMapInRange{Color: []string{"#f7fbff", "#6baed6", "#08306b"}}}))
	c.MultiSeries = append(c.MultiSeries, newSeries("heatmap", o.Title, items,
		charts.WithLabelOpts(opts.Label{Show: opts.Bool(len(items) <= 80)})))
	return o.figure(c)
}

// jsonString returns v as JSON (for constants inside JavaScript functions).
func jsonString(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Errorf("viz: encode %T for JavaScript: %w", v, err))
	}
	return string(b)
}
