package viz

import (
	"sort"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
)

// BenchPoint is one measured kernel speed, e.g. from dl/bench.
type BenchPoint struct {
	Kernel string  // "naive", "blocked", "gonum", "simd", "cuBLAS", ...
	Size   int     // problem size (n of an n×n×n matmul)
	GFLOPS float64 // measured GFLOP/s
}

// Reference is a horizontal reference line (a peak, an anchor such as
// OpenBLAS measured in the same run).
type Reference struct {
	Name  string
	Value float64
}

// BenchOptions configures BenchmarkChart. The zero value: log size axis,
// linear GFLOP/s, Spanish default title.
type BenchOptions struct {
	Title      string
	LogY       bool
	References []Reference // dashed horizontal lines
	Notes      []string    // printed under the chart (how and where it was measured)
}

// BenchmarkChart draws GFLOP/s against problem size, one line per kernel,
// in order of size.
func BenchmarkChart(results []BenchPoint, o ...BenchOptions) *Figure {
	opt := one("BenchmarkChart", o)
	groups := map[string][]BenchPoint{}
	var order []string
	lo, hi := 0.0, 0.0
	for _, r := range results {
		if _, ok := groups[r.Kernel]; !ok {
			order = append(order, r.Kernel)
		}
		groups[r.Kernel] = append(groups[r.Kernel], r)
		if s := float64(r.Size); lo == 0 || s < lo {
			lo = s
		}
		hi = max(hi, float64(r.Size))
	}
	var ss []charts.SingleSeries
	for _, k := range order {
		g := groups[k]
		sort.Slice(g, func(i, j int) bool { return g[i].Size < g[j].Size })
		var items []item
		for _, p := range g {
			if finite(p.GFLOPS, opt.LogY) {
				items = append(items, xy(float64(p.Size), p.GFLOPS))
			}
		}
		ss = append(ss, newSeries("line", k, items))
	}
	for _, r := range opt.References {
		s := newSeries("line", r.Name, []item{xy(lo, r.Value), xy(hi, r.Value)}, dashed("#888"))
		s.ShowSymbol = noSymbol
		ss = append(ss, s)
	}
	yk := "value"
	if opt.LogY {
		yk = "log"
	}
	f := frame{title: cmp(opt.Title, "Velocidad de los kernels de multiplicación de matrices"), subtitle: "medido en esta máquina",
		x: axis{name: "tamaño n (matrices n×n)", kind: "log"}, y: axis{name: "GFLOP/s", kind: yk}, legend: true}
	return &Figure{Chart: newLine(f, ss...), Height: "420px", Notes: opt.Notes}
}

// MemoryBreakdown is the memory per GPU of one parallelism strategy, e.g.
// from dl/plan or measured with dl.MemoryStats.
type MemoryBreakdown struct {
	Strategy      string  // "DDP", "ZeRO-1", "ZeRO-2", "ZeRO-3 / FSDP", ...
	ParamsGB      float64 // parameters
	GradsGB       float64 // gradients
	OptimizerGB   float64 // optimizer state (Adam moments, fp32 master weights)
	ActivationsGB float64 // activations kept for backward
}

// MemoryOptions configures MemoryByStrategy.
type MemoryOptions struct {
	Title      string
	CapacityGB float64 // draw the GPU's memory as a line (e.g. 80 for an H100); 0: none
	Capacity   string  // its label, e.g. "H100 80 GB"
	Notes      []string
}

// MemoryByStrategy draws the memory per GPU of each strategy as stacked
// bars (parameters, gradients, optimizer state, activations).
func MemoryByStrategy(rows []MemoryBreakdown, o ...MemoryOptions) *Figure {
	opt := one("MemoryByStrategy", o)
	var cats []string
	parts := [4][]item{}
	for _, r := range rows {
		cats = append(cats, r.Strategy)
		for i, v := range []float64{r.ParamsGB, r.GradsGB, r.OptimizerGB, r.ActivationsGB} {
			parts[i] = append(parts[i], item{Value: v, Name: r.Strategy})
		}
	}
	f := frame{title: cmp(opt.Title, "Memoria por GPU según la estrategia de paralelismo"),
		x: axis{kind: "category", cats: cats}, y: axis{name: "GB por GPU"}, legend: true, tooltip: barTooltip("GB")}
	var ss []charts.SingleSeries
	for i, name := range []string{"parámetros", "gradientes", "estado del optimizador", "activaciones"} {
		ss = append(ss, newSeries("bar", name, parts[i], charts.WithBarChartOpts(opts.BarChart{Stack: "memoria"})))
	}
	if opt.CapacityGB > 0 && len(ss) > 0 {
		ss[len(ss)-1].MarkLines = &opts.MarkLines{Data: []any{map[string]any{"name": cmp(opt.Capacity, "capacidad de la GPU"), "yAxis": opt.CapacityGB}},
			MarkLineStyle: opts.MarkLineStyle{Symbol: []string{"none", "none"}, Label: &opts.Label{Show: opts.Bool(true), Formatter: "{b}: {c} GB"},
				LineStyle: &opts.LineStyle{Type: "dashed", Color: "#b00"}}}
	}
	return &Figure{Chart: newBar(f, ss...), Height: "420px", Notes: opt.Notes}
}

// GanttEvent is one block of a pipeline schedule: stage (GPU) Stage works
// on micro-batch MicroBatch from Start to End (any time unit).
type GanttEvent struct {
	Stage      int
	MicroBatch int
	Kind       string // "F" (forward), "B" (backward), "W" (weight gradient), or another label
	Start, End float64
}

// GanttOptions configures PipelineGantt.
type GanttOptions struct {
	Title    string
	TimeUnit string // axis name; default "tiempo"
	Notes    []string
}

// PipelineGantt draws a pipeline-parallel schedule: one row per stage,
// a block per event labelled with its micro-batch, coloured by kind; the
// gaps are the pipeline "bubble".
func PipelineGantt(events []GanttEvent, o ...GanttOptions) *Figure {
	opt := one("PipelineGantt", o)
	stages := 0
	for _, e := range events {
		stages = max(stages, e.Stage+1)
	}
	cats := make([]string, stages)
	for i := range cats {
		cats[i] = sprintf("etapa %d (GPU %d)", i, i)
	}
	colors := map[string]string{"F": "#5470c6", "B": "#91cc75", "W": "#fac858"}
	var items []item
	var busy, end float64
	for _, e := range events {
		c, ok := colors[e.Kind]
		if !ok {
			c = "#bbbbbb"
		}
		items = append(items, item{Value: []any{e.Stage, e.Start, e.End, sprintf("%s%d", e.Kind, e.MicroBatch)},
			Name: sprintf("etapa %d: %s micro-lote %d, %g–%g", e.Stage, e.Kind, e.MicroBatch, e.Start, e.End), ItemStyle: &opts.ItemStyle{Color: c}})
		busy += e.End - e.Start
		end = max(end, e.End)
	}
	s := newSeries("custom", "calendario", items)
	s.RenderItem = JS(`function (params, api) {
  var row = api.value(0), a = api.coord([api.value(1), row]), b = api.coord([api.value(2), row]);
  var h = api.size([0, 1])[1] * 0.7;
  return { type: "rect", shape: { x: a[0], y: a[1] - h / 2, width: Math.max(1, b[0] - a[0] - 1), height: h },
    style: { fill: api.visual("color"), text: String(api.value(3)), textFill: "#fff", fontSize: 10 } };
}`)
	s.Encode = &opts.Encode{X: []int{1, 2}, Y: 0}
	f := frame{title: cmp(opt.Title, "Calendario de pipeline parallelism"), subtitle: "F: forward, B: backward; los huecos son la burbuja",
		x: axis{name: cmp(opt.TimeUnit, "tiempo"), min: 0}, y: axis{kind: "category", cats: cats},
		tooltip: JS(`function (p) {` + jsHelpers + `  return esc(p.name); }`)}
	fig := &Figure{Chart: newLine(f, s), Height: sprintf("%dpx", 160+50*stages), Notes: opt.Notes}
	if stages > 0 && end > 0 {
		fig.Notes = append(fig.Notes, sprintf("Ocupación: %.1f%% del tiempo de %d etapas (burbuja: %.1f%%).",
			100*busy/(end*float64(stages)), stages, 100-100*busy/(end*float64(stages))))
	}
	return fig
}

// AllReducePoint is the time of one all-reduce on GPUs devices, measured or
// predicted by a cost model (e.g. dl/dist).
type AllReducePoint struct {
	Algorithm string  // "ring", "tree", ...
	Source    string  // "medido", "modelo α-β", ...
	GPUs      int     // number of ranks
	Seconds   float64 // time of one all-reduce
}

// AllReduceOptions configures AllReduceScaling.
type AllReduceOptions struct {
	Title string
	Bytes float64 // message size, for the subtitle (0: not shown)
	Notes []string
}

// AllReduceScaling draws all-reduce time against the number of GPUs on log
// axes, one line per algorithm and source (measured lines solid, models
// dashed).
func AllReduceScaling(points []AllReducePoint, o ...AllReduceOptions) *Figure {
	opt := one("AllReduceScaling", o)
	type key struct{ alg, src string }
	groups := map[key][]AllReducePoint{}
	var order []key
	for _, p := range points {
		k := key{p.Algorithm, p.Source}
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], p)
	}
	var ss []charts.SingleSeries
	for _, k := range order {
		g := groups[k]
		sort.Slice(g, func(i, j int) bool { return g[i].GPUs < g[j].GPUs })
		var items []item
		for _, p := range g {
			if finite(p.Seconds, true) {
				items = append(items, xy(float64(p.GPUs), p.Seconds))
			}
		}
		var so []charts.SeriesOpts
		if k.src != "medido" && k.src != "" {
			so = append(so, dashed(""))
		}
		ss = append(ss, newSeries("line", k.alg+" ("+cmp(k.src, "medido")+")", items, so...))
	}
	sub := ""
	if opt.Bytes > 0 {
		sub = sprintf("mensaje de %.3g bytes", opt.Bytes)
	}
	f := frame{title: cmp(opt.Title, "Tiempo de all-reduce frente al número de GPUs"), subtitle: sub,
		x: axis{name: "GPUs", kind: "log"}, y: axis{name: "segundos por all-reduce", kind: "log"}, legend: true}
	return &Figure{Chart: newLine(f, ss...), Height: "420px", Notes: opt.Notes}
}
