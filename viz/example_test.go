package viz_test

import (
	"fmt"
	"strings"

	"github.com/dlbd/dlbd/viz"
	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
)

func ExampleJS() {
	l := charts.NewLine()
	l.SetGlobalOptions(charts.WithTooltipOpts(opts.Tooltip{
		Formatter: viz.JS(`function (p) { return "<b>" + p.seriesName + "</b>"; }`),
	}))
	js, err := viz.OptionJS(l)
	if err != nil {
		panic(err)
	}
	// The formatter is JavaScript code in the option, not a quoted string.
	fmt.Println(strings.Contains(js, `"formatter":(function (p) { return "<b>" + p.seriesName + "</b>"; })`))
	// Output: true
}

// printer is a viz.Sink that prints what a live widget shows.
type printer struct{ updates int }

func (p *printer) DisplayHTML(string)     {}
func (p *printer) DisplayMarkdown(string) {}
func (p *printer) UpdateHTML(id, html string) {
	p.updates++
	if strings.Contains(html, `data-viz-finished="true"`) {
		fmt.Println("final state:", strings.Contains(html, "100/100 (100%)"))
	}
}

func ExampleNewProgress() {
	sink := &printer{}
	bar := viz.NewProgress(100, viz.ProgressOptions{Label: "Entrenando", Sink: sink})
	for step := 0; step < 100; step++ {
		// ... one training step ...
		bar.Step()
	}
	fmt.Println("redraws ≤ 12:", sink.updates <= 12)
	// Output:
	// final state: true
	// redraws ≤ 12: true
}

func ExampleComputeTrends() {
	fig := viz.ComputeTrends()
	for _, s := range fig.Sources {
		fmt.Println(s.Statuses, s.Source[:29])
	}
	// Output:
	// [verified] Epoch AI, 'Data on Notable AI
	// [verified] https://openai.com/index/ai-a
	// [verified] https://epoch.ai/blog/trainin
}

func ExampleLine() {
	fig := viz.Line(viz.PlotOptions{Title: "Pérdida frente a parámetros", XName: "parámetros", YName: "pérdida", LogX: true, LogY: true},
		viz.Series{Name: "medido", X: []float64{1e4, 1e5, 1e6}, Y: []float64{3.1, 2.6, 2.2}},
	)
	html, err := viz.Fragment(fig)
	if err != nil {
		panic(err)
	}
	fmt.Println(strings.Contains(html, `"type":"log"`), strings.Count(html, "<script"))
	// Output: true 1
}
