package viz

import (
	"slices"
	"sort"
	"strings"

	"github.com/dlbd/dlbd/facts"
	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
)

// DatasphereOptions selects what Datasphere shows. The zero value shows the
// main series (Statista/IDC, 2021 edition, 2010–2025) and, as separate
// points, the figures of the other IDC report vintages.
type DatasphereOptions struct {
	OnlyMain bool // hide the other vintages
	LogY     bool // logarithmic zettabyte axis
}

// mainDatasphere is the series the course's figure (~2 ZB in 2010, >180 ZB
// in 2025) comes from.
const mainDatasphere = "Statista 871513 (IDC Global DataSphere, 2021 edition)"

// Datasphere charts the data created worldwide per year (IDC, in ZB). Each
// report vintage is its own series, never joined to another: the vintages
// disagree (2010 was 1.2 ZB in the 2010–2011 reports, 2 ZB in the later
// series). Forecasts are dashed or hollow; unverified values are marked.
func Datasphere(o ...DatasphereOptions) *Figure {
	opt := one("Datasphere", o)
	var rows []facts.DatasphereEstimate
	var est, fc []item
	vintages := map[string][]item{}
	var order []string
	for _, d := range facts.Datasphere() {
		isMain := d.Series == mainDatasphere
		if !isMain && opt.OnlyMain {
			continue
		}
		rows = append(rows, d)
		kind := "estimación"
		if d.Forecast() {
			kind = "previsión"
		}
		it := marked(float64(d.Year), d.Zettabytes, "", d.Status, kind)
		if isMain {
			if !d.Forecast() {
				est = append(est, it)
			}
			if d.Forecast() {
				fc = append(fc, it)
			}
			continue
		}
		name := d.Series
		if d.Status == facts.Unverified {
			name += " (SIN VERIFICAR)"
		}
		if _, ok := vintages[name]; !ok {
			order = append(order, name)
		}
		vintages[name] = append(vintages[name], it)
	}
	// The 2020 estimate starts the forecast line, so the two lines meet.
	for _, it := range est {
		if v := it.Value.([]float64); v[0] == 2020 {
			fc = append([]item{it}, fc...)
		}
	}
	yk := "value"
	if opt.LogY {
		yk = "log"
	}
	f := frame{title: "Datos creados en el mundo cada año (IDC)", subtitle: "zettabytes (1 ZB = 10²¹ bytes)",
		x: axis{name: "año", kind: "year"}, y: axis{name: "ZB por año", kind: yk}, legend: true}
	ss := []charts.SingleSeries{
		newSeries("line", "IDC vía Statista (ed. 2021): estimación", est),
		newSeries("line", "IDC vía Statista (ed. 2021): previsión", fc, dashed("")),
	}
	for _, name := range order {
		ss = append(ss, newSeries("scatter", name, vintages[name], charts.WithSeriesOpts(func(s *charts.SingleSeries) { s.SymbolSize = 9 })))
	}
	fig := &Figure{Chart: newLine(f, ss...), Height: "480px", Notes: []string{
		statusLegend,
		"Cada edición de los informes de IDC es una serie distinta: no se unen en una línea porque no coinciden entre sí.",
		"Serie principal: solo 2018, 2020 y 2025 aparecen en el texto de Statista; el resto se leyó en reproducciones del gráfico (fuente secundaria).",
	}}
	AddSources(fig, rows)
	return fig
}

// StorageCostOptions selects the series of StorageCost. The zero value shows
// the current OWID/McCallum edition only, in constant 2020 US$.
type StorageCostOptions struct {
	Media   []string // media to show, as in the dataset ("hard disk drive", ...); default all
	Nominal bool     // also the older edition in nominal US$ and Backblaze's purchase prices (labelled)
}

var mediaES = map[string]string{
	"hard disk drive": "disco duro (HDD)", "solid-state drive": "SSD", "flash memory": "memoria flash", "memory (DRAM)": "memoria DRAM",
}

// StorageCost charts the price of storage per GB over time on a log axis.
// Prices in constant 2020 dollars and in nominal dollars are never mixed
// silently: by default only the real series is drawn; with Nominal the
// nominal ones are added as dashed lines and points named as such, and the
// axis and notes say so.
func StorageCost(o ...StorageCostOptions) *Figure {
	opt := one("StorageCost", o)
	type key struct{ series, medium string }
	groups := map[key][]item{}
	var rows []facts.StoragePrice
	for _, p := range facts.StorageCost() {
		if (!p.Real() && !opt.Nominal) || (len(opt.Media) > 0 && !slices.Contains(opt.Media, p.Medium)) {
			continue
		}
		rows = append(rows, p)
		k := key{p.Series, p.Medium}
		groups[k] = append(groups[k], marked(float64(p.Year), p.PriceUSDPerGB, "", p.Status, p.Dollars))
	}
	keys := make([]key, 0, len(groups))
	for k := range groups {
		keys = append(keys, k)
	}
	rank := func(series string) int { // real series first, then nominal, then Backblaze
		switch {
		case strings.HasPrefix(series, "OWID/McCallum (current"):
			return 0
		case strings.HasPrefix(series, "Backblaze"):
			return 2
		}
		return 1
	}
	sort.Slice(keys, func(i, j int) bool {
		if ri, rj := rank(keys[i].series), rank(keys[j].series); ri != rj {
			return ri < rj
		}
		return keys[i].medium < keys[j].medium
	})
	var ss []charts.SingleSeries
	for _, k := range keys {
		name := mediaES[k.medium]
		if name == "" {
			name = k.medium
		}
		switch {
		case strings.HasPrefix(k.series, "OWID/McCallum (current"):
			ss = append(ss, newSeries("line", name+" (US$ de 2020)", groups[k], charts.WithLineChartOpts(opts.LineChart{Step: "end"})))
		case strings.HasPrefix(k.series, "Backblaze"):
			ss = append(ss, newSeries("scatter", name+": compras de Backblaze (US$ nominales)", groups[k]))
		default:
			ss = append(ss, newSeries("line", name+" (US$ nominales, edición antigua)", groups[k], dashed("")))
		}
	}
	yName := "US$ por GB (US$ constantes de 2020)"
	notes := []string{"Serie OWID/McCallum: el precio más barato observado hasta cada año (mínimo acumulado), en US$ de 2020: nunca sube, así que oculta picos como el de las inundaciones de Tailandia de 2011."}
	if opt.Nominal {
		yName = "US$ por GB (reales y nominales: ver leyenda)"
		notes = append(notes, "Atención: este gráfico mezcla dólares constantes de 2020 (líneas continuas) con dólares nominales (líneas discontinuas y puntos); no son directamente comparables.")
	}
	f := frame{title: "Coste del almacenamiento por GB", subtitle: "escala logarítmica",
		x: axis{name: "año", kind: "year"}, y: axis{name: yName, kind: "log"}, legend: true}
	fig := &Figure{Chart: newLine(f, ss...), Height: "480px", Notes: append(notes, statusLegend)}
	AddSources(fig, rows)
	return fig
}
