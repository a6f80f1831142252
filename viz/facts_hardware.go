package viz

import (
	"math"
	"slices"
	"strings"

	"github.com/dlbd/dlbd/facts"
	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
	"github.com/go-echarts/go-echarts/v2/types"
)

// AcceleratorMetric names a column of accelerators.csv for Accelerators.
type AcceleratorMetric string

// The metrics Accelerators can chart.
const (
	MemoryGB     AcceleratorMetric = "memoria"
	BandwidthTBs AcceleratorMetric = "ancho de banda"
	BF16TFLOPS   AcceleratorMetric = "BF16"
	FP16TFLOPS   AcceleratorMetric = "FP16"
	FP8TFLOPS    AcceleratorMetric = "FP8"
	PowerW       AcceleratorMetric = "potencia"
	ScaleUpGBs   AcceleratorMetric = "interconexión"
)

var acceleratorMetrics = map[AcceleratorMetric]struct {
	axis string
	get  func(facts.Accelerator) float64
}{
	MemoryGB:     {"memoria (GB)", func(a facts.Accelerator) float64 { return a.MemoryGB }},
	BandwidthTBs: {"ancho de banda de memoria (TB/s)", func(a facts.Accelerator) float64 { return a.MemBandwidthTBs }},
	BF16TFLOPS:   {"BF16 denso (TFLOPS)", func(a facts.Accelerator) float64 { return a.BF16DenseTFLOPS }},
	FP16TFLOPS:   {"FP16 denso (TFLOPS)", func(a facts.Accelerator) float64 { return a.FP16DenseTFLOPS }},
	FP8TFLOPS:    {"FP8 denso (TFLOPS)", func(a facts.Accelerator) float64 { return a.FP8DenseTFLOPS }},
	PowerW:       {"TDP (W)", func(a facts.Accelerator) float64 { return a.TDPWatts }},
	ScaleUpGBs:   {"interconexión scale-up (GB/s, ambos sentidos)", func(a facts.Accelerator) float64 { return a.InterconnectGBsBidir }},
}

// AcceleratorOptions configures Accelerators. The zero value charts dense
// BF16 TFLOPS of every chip (not the NVL72 rack).
type AcceleratorOptions struct {
	Metric       AcceleratorMetric // default BF16TFLOPS
	IncludeRacks bool              // include "GB200 NVL72 (rack)", a whole rack of 72 GPUs
	// Vendors keeps only the chips of these vendors, spelled as in the vendor
	// column ("NVIDIA", "AMD", "Google", "Intel", "AWS", ...); empty keeps all.
	// The wafer-scale and SRAM designs (Cerebras, Groq) are orders of magnitude
	// apart in memory bandwidth, so a linear chart of everything is unreadable.
	Vendors []string
}

// Accelerators charts one specification of the accelerators of
// accelerators.csv (V100 … B200, MI300X/MI325X, TPU v4–TPU7x, Gaudi 3,
// Trainium, WSE-3, Groq LPU) as bars in order of year. Most NVIDIA/AMD figures come from secondary copies of the
// datasheets (lighter bars); "dense" TFLOPS exclude 2:4 sparsity. Chips
// without the value are listed under the chart.
func Accelerators(o ...AcceleratorOptions) *Figure {
	opt := one("Accelerators", o)
	if opt.Metric == "" {
		opt.Metric = BF16TFLOPS
	}
	m, ok := acceleratorMetrics[opt.Metric]
	if !ok {
		panic(errorf("viz: Accelerators: unknown metric %q", opt.Metric))
	}
	var rows []facts.Accelerator
	var cats, missing []string
	var items []item
	all := facts.Accelerators()
	slices.SortStableFunc(all, func(a, b facts.Accelerator) int { return a.Year - b.Year })
	for _, a := range all {
		if strings.Contains(a.Name, "rack") && !opt.IncludeRacks || len(opt.Vendors) > 0 && !slices.Contains(opt.Vendors, a.Vendor) {
			continue
		}
		v := m.get(a)
		name := sprintf("%s %s (%d)", a.Vendor, a.FullName(), a.Year)
		if len(name) > 48 {
			name = name[:47] + "…"
		}
		if math.IsNaN(v) {
			missing = append(missing, a.Vendor+" "+a.Name)
			continue
		}
		rows = append(rows, a)
		cats = append(cats, name)
		it := item{Value: v, Name: name, Note: joinNotes(statusNote(a.Status), a.Note)}
		if a.Status != facts.Verified {
			it.ItemStyle = &opts.ItemStyle{Color: "#a9b8dc"}
		}
		items = append(items, it)
	}
	if len(items) == 0 {
		panic(errorf("viz: Accelerators: no accelerator of vendors %v has a value for %s", opt.Vendors, opt.Metric))
	}
	f := frame{title: "Aceleradores para deep learning: " + m.axis, x: axis{name: m.axis}, y: axis{kind: "category", cats: cats},
		tooltip: barTooltip("")}
	fig := &Figure{Chart: newBar(f, newSeries("bar", m.axis, items)), Height: sprintf("%dpx", 140+30*len(cats)), Notes: []string{
		"Barras claras: cifras leídas en copias secundarias de las hojas de datos; las de TPU y Trainium proceden de la documentación de Google Cloud y de AWS (verificadas).",
		"«Denso» = sin la dispersión 2:4: la mitad de las cifras de portada de NVIDIA.",
	}}
	if len(missing) > 0 {
		fig.Notes = append(fig.Notes, "Sin dato en la fuente (o no aplicable): "+strings.Join(missing, ", ")+".")
	}
	AddSources(fig, rows)
	return fig
}

// InterconnectOptions configures Interconnects. The zero value draws the
// bandwidth per direction of PCIe x16, NVLink per GPU, InfiniBand 4x and
// Ethernet ports by year.
type InterconnectOptions struct {
	Bidirectional bool // both directions added (as NVIDIA quotes NVLink) instead of one direction
}

// Interconnects charts the bandwidth of each generation of PCIe, NVLink,
// InfiniBand and Ethernet against its year on a log axis, one line per
// family. Aggregates (the NVL72 switch domain, NVLink-C2C) and latency rows
// are left out; the GDR roadmap point is unverified and marked.
func Interconnects(o ...InterconnectOptions) *Figure {
	opt := one("Interconnects", o)
	families := []string{"PCIe", "NVLink", "InfiniBand", "Ethernet"}
	groups := map[string][]item{}
	var rows []facts.Interconnect
	for _, ic := range facts.Interconnects() {
		v := ic.GBsPerDirection
		if opt.Bidirectional {
			v = ic.GBsBidirectional
		}
		if !slices.Contains(families, ic.Family) || strings.Contains(ic.Generation, "Switch") || ic.Year == 0 || !finite(v, true) {
			continue
		}
		rows = append(rows, ic)
		groups[ic.Family] = append(groups[ic.Family], marked(float64(ic.Year), v, ic.Generation, ic.Status, ic.Config+" · año: "+ic.YearText))
	}
	yName := "GB/s por sentido"
	if opt.Bidirectional {
		yName = "GB/s (suma de ambos sentidos)"
	}
	f := frame{title: "Ancho de banda de las interconexiones por generación", subtitle: "escala logarítmica",
		x: axis{name: "año", kind: "year"}, y: axis{name: yName, kind: "log"}, legend: true, tooltip: nameTooltipValue(yName)}
	var ss []charts.SingleSeries
	names := map[string]string{"PCIe": "PCIe x16", "NVLink": "NVLink (por GPU)", "InfiniBand": "InfiniBand (puerto 4x)", "Ethernet": "Ethernet (puerto)"}
	for _, fam := range families {
		ss = append(ss, newSeries("line", names[fam], groups[fam], charts.WithLabelOpts(opts.Label{Show: opts.Bool(true), Formatter: "{b}", FontSize: 9, Position: "top"})))
	}
	fig := &Figure{Chart: newLine(f, ss...), Height: "460px", Notes: []string{
		statusLegend,
		"NVIDIA anuncia NVLink como la suma de los dos sentidos; PCIe, InfiniBand y Ethernet se suelen dar por sentido. Aquí todo va en la misma convención (ver el eje).",
		"Años de InfiniBand: primera introducción o despliegue típico, no fechas de norma; GDR es una hoja de ruta.",
	}}
	AddSources(fig, rows)
	return fig
}

// nameTooltipValue shows the item's name, series, y value with unit and note.
func nameTooltipValue(unit string) types.FuncStr {
	return JS(`function (p) {` + jsHelpers + `
  var d = p.data || {};
  return "<b>" + esc(p.name) + "</b> (" + esc(p.seriesName) + ")<br>" + num(d.value[1]) + " " + esc(` + jsonString(unit) + `) + (d.note ? "<br><i>" + esc(d.note) + "</i>" : "");
}`)
}

// Clusters charts the number of accelerators of the reference clusters and
// training runs of clusters.csv (Meta RSC and GenAI clusters, Llama 3.1,
// DeepSeek-V3, xAI Colossus, TPU pods, ...) as bars on a log axis. The unit
// (which chip) is in each bar's tooltip. ClustersTable lists every figure.
func Clusters() *Figure {
	var rows []facts.ClusterFact
	var cats []string
	var items []item
	for _, c := range facts.Clusters() {
		a := strings.ToLower(c.Attribute)
		if !(strings.HasPrefix(a, "gpus") || strings.HasPrefix(a, "chips") || strings.Contains(a, "h100 gpus")) || math.IsNaN(c.ValueNum) {
			continue
		}
		rows = append(rows, c)
		name := sprintf("%s (%s)", c.Entity, c.Year)
		cats = append(cats, name)
		it := item{Value: c.ValueNum, Name: name, Note: joinNotes(c.Attribute+": "+c.Value+" "+c.Unit, statusNote(c.Status), c.Note)}
		if c.Status != facts.Verified {
			it.ItemStyle = &opts.ItemStyle{Color: "#a9b8dc"}
		}
		items = append(items, it)
	}
	f := frame{title: "Clusters de referencia: número de aceleradores", subtitle: "escala logarítmica",
		x: axis{name: "aceleradores (GPU o TPU)", kind: "log"}, y: axis{kind: "category", cats: cats}, tooltip: barTooltip("")}
	fig := &Figure{Chart: newBar(f, newSeries("bar", "aceleradores", items)), Height: sprintf("%dpx", 140+28*len(cats)),
		Notes: []string{"Barras claras: fuente secundaria o estimación. Cada barra dice qué chip cuenta (A100, H100, TPU v4…): no todos son comparables."}}
	AddSources(fig, rows)
	return fig
}

// ClustersTable returns clusters.csv as an HTML table (show it with HTML).
func ClustersTable() string {
	var rows [][]string
	for _, c := range facts.Clusters() {
		rows = append(rows, []string{c.Entity, c.Year, c.Attribute, c.Value, c.Unit, statusES(c.Status), c.Source})
	}
	return TableHTML([]string{"cluster o entrenamiento", "año", "atributo", "valor", "unidad", "estado", "fuente"}, rows)
}
