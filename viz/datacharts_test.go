package viz

import (
	"strings"
	"testing"
)

func sampleSchedule() []GanttEvent {
	// GPipe-style: 2 stages, 2 micro-batches, forward 1, backward 2 time units.
	return []GanttEvent{
		{Stage: 0, MicroBatch: 0, Kind: "F", Start: 0, End: 1}, {Stage: 0, MicroBatch: 1, Kind: "F", Start: 1, End: 2},
		{Stage: 1, MicroBatch: 0, Kind: "F", Start: 1, End: 2}, {Stage: 1, MicroBatch: 1, Kind: "F", Start: 2, End: 3},
		{Stage: 1, MicroBatch: 0, Kind: "B", Start: 3, End: 5}, {Stage: 1, MicroBatch: 1, Kind: "B", Start: 5, End: 7},
		{Stage: 0, MicroBatch: 0, Kind: "B", Start: 5, End: 7}, {Stage: 0, MicroBatch: 1, Kind: "B", Start: 7, End: 9},
	}
}

func TestDataChartsRun(t *testing.T) {
	figs := map[string]*Figure{
		"BenchmarkChart": BenchmarkChart([]BenchPoint{{"naive", 64, 1.2}, {"simd", 256, 150}, {"simd", 64, 50}, {"naive", 256, 0.9}},
			BenchOptions{LogY: true, References: []Reference{{"OpenBLAS", 180}}}),
		"MemoryByStrategy": MemoryByStrategy([]MemoryBreakdown{{"DDP", 14, 14, 56, 10}, {"ZeRO-3", 1.75, 1.75, 7, 10}},
			MemoryOptions{CapacityGB: 80, Capacity: "H100 80 GB"}),
		"PipelineGantt":    PipelineGantt(sampleSchedule()),
		"AllReduceScaling": AllReduceScaling([]AllReducePoint{{"ring", "medido", 8, 2e-3}, {"ring", "medido", 2, 1e-3}, {"ring", "modelo α-β", 2, 9e-4}}),
		"Line":             Line(PlotOptions{LogX: true, LogY: true}, Series{Name: "a", X: []float64{1, 10, 0}, Y: []float64{1, 2, 3}, Labels: []string{"p", "q", "r"}}),
		"Scatter":          Scatter(PlotOptions{}, Series{Name: "a", X: []float64{1, 2}, Y: []float64{3, 4}}, Series{Name: "b", X: []float64{1}, Y: []float64{2}}),
		"Bar":              Bar(PlotOptions{Horizontal: true, LogY: true, Stack: true}, []string{"a", "b"}, Series{Name: "s", Y: []float64{10, 1000}}),
		"Heatmap":          Heatmap(PlotOptions{}, []string{"a", "b"}, []string{"x"}, [][]float64{{1, 2}}),
	}
	for name, fig := range figs {
		frag, err := Fragment(fig)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		r := runNode(t, frag, "stub")
		if len(r.Errors) > 0 || len(r.Charts) != 1 {
			t.Fatalf("%s: errors %v, %d charts", name, r.Errors, len(r.Charts))
		}
		for _, c := range r.Charts {
			for p, out := range c.Calls {
				if strings.HasPrefix(out, "throws") && !strings.Contains(p, "renderItem") {
					t.Errorf("%s: %s(sample) %s", name, p, out)
				}
			}
			switch name {
			case "BenchmarkChart":
				if len(c.Series) != 3 {
					t.Errorf("BenchmarkChart series = %v; want naive, simd, OpenBLAS", c.Series)
				}
				d := c.Option["series"].([]any)[0].(map[string]any)["data"].([]any)
				if first := d[0].(map[string]any)["value"].([]any)[0].(float64); first != 64 {
					t.Errorf("BenchmarkChart: first point at size %v; want sorted by size (64)", first)
				}
			case "Line":
				d := c.Option["series"].([]any)[0].(map[string]any)["data"].([]any)
				if len(d) != 2 {
					t.Errorf("Line with log x kept %d points; want 2 (x=0 dropped)", len(d))
				}
			case "PipelineGantt":
				if c.Series[0] != "custom" {
					t.Errorf("PipelineGantt series = %v; want a custom series", c.Series)
				}
			}
		}
	}
	// 2 stages busy 1+1+2+2 = 6 each over 9 time units: 66.7 % busy.
	frag, _ := Fragment(figs["PipelineGantt"])
	if !strings.Contains(frag, "Ocupación: 66.7% del tiempo de 2 etapas (burbuja: 33.3%)") {
		t.Errorf("PipelineGantt occupancy note missing or wrong:\n%s", frag[strings.Index(frag, "viz-caption"):])
	}
	js, _ := OptionJS(figs["MemoryByStrategy"])
	if !strings.Contains(js, `"yAxis":80`) || strings.Count(js, `"stack":"memoria"`) != 4 {
		t.Error("MemoryByStrategy lacks the capacity line or the four stacked parts")
	}
	js, _ = OptionJS(figs["AllReduceScaling"])
	if strings.Count(js, `"type":"dashed"`) != 1 {
		t.Error("AllReduceScaling: want only the model line dashed")
	}
}

func TestWidenLogTicks(t *testing.T) {
	wide := Line(PlotOptions{LogX: true, LogY: true}, Series{X: []float64{1e18, 1e29}, Y: []float64{1, 100}})
	js, _ := OptionJS(wide)
	if !strings.Contains(js, `"logBase":100`) {
		t.Errorf("11-decade log axis got no logBase 100:\n%.300s", js)
	}
	if strings.Count(js, "logBase") != 1 {
		t.Error("the 2-decade y axis must keep ECharts' default (one tick per decade)")
	}
}
