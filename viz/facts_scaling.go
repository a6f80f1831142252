package viz

import (
	"math"

	"github.com/dlbd/dlbd/facts"
	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
)

// MLvsDL draws the course's schematic idea: classic ML (SVM, random forest,
// XGBoost) saturates as data grows, deep networks keep improving, more so the
// bigger they are. The curves are illustrative (logistic curves in log data,
// no measurement) and the chart says so; for measured behaviour see the
// scaling-law charts.
func MLvsDL() *Figure {
	xs := logSpace(1e2, 1e9, 120)
	logistic := func(ceiling, mid, width float64) func(float64) float64 {
		return func(x float64) float64 { return ceiling / (1 + math.Exp(-(math.Log10(x)-mid)/width)) }
	}
	f := frame{title: "Rendimiento frente a cantidad de datos (ILUSTRATIVO)", subtitle: "curvas esquemáticas, no son medidas",
		x: axis{name: "cantidad de datos de entrenamiento (escala log, unidades arbitrarias)", kind: "log"},
		y: axis{name: "rendimiento (unidades arbitrarias)", min: 0, max: 100}, legend: true, trigger: "axis",
		tooltip: JS(`function (ps) { var s = "Ilustrativo (sin unidades)"; for (var i = 0; i < ps.length; i++) { s += "<br>" + ps[i].marker + ps[i].seriesName; } return s; }`)}
	ss := []charts.SingleSeries{
		newSeries("line", "ML clásico (SVM, random forest, XGBoost)", curve(xs, logistic(55, 3.5, 0.45))),
		newSeries("line", "red neuronal pequeña", curve(xs, logistic(65, 4.5, 0.55))),
		newSeries("line", "red neuronal mediana", curve(xs, logistic(80, 5.5, 0.65))),
		newSeries("line", "red neuronal grande", curve(xs, logistic(96, 6.6, 0.8))),
	}
	for i := range ss {
		ss[i].ShowSymbol = noSymbol
	}
	return &Figure{Chart: newLine(f, ss...), Height: "400px", Notes: []string{
		"ILUSTRATIVO: estas curvas son esquemáticas (dibujan la idea del texto del curso) y no proceden de ningún experimento ni artículo.",
		"Los datos medidos de cómo mejora la pérdida con los datos, los parámetros y el compute están en los gráficos de leyes de escala (Kaplan et al. 2020; Hoffmann et al. 2022).",
	}}
}

// kaplanFigure draws one of Kaplan et al.'s power laws on log-log axes.
func kaplanFigure(title, xName, formula string, lo, hi float64, law func(float64) float64, k facts.KaplanLaws) *Figure {
	f := frame{title: title, subtitle: formula, x: axis{name: xName, kind: "log"}, y: axis{name: "pérdida de test (nats/token)", kind: "log"}}
	s := newSeries("line", "Kaplan et al. 2020", curve(logSpace(lo, hi, 60), law))
	s.ShowSymbol = noSymbol
	fig := &Figure{Chart: newLine(f, s), Height: "380px", Notes: []string{
		"Ley de potencias ajustada por Kaplan et al. (2020) a modelos de lenguaje Transformer (WebText2); fuera del rango de sus experimentos es una extrapolación.",
		"En ejes log-log una ley de potencias es una recta: su pendiente es el exponente.",
	}}
	AddSources(fig, k.Params)
	return fig
}

// KaplanLossVsParams charts L(N) = (N_c/N)^α_N (α_N = 0.076, N_c = 8.8·10¹³
// non-embedding parameters): models trained to convergence.
func KaplanLossVsParams() *Figure {
	k := facts.Kaplan()
	return kaplanFigure("Ley de escala: pérdida frente a parámetros", "parámetros N (sin embeddings)",
		sprintf("L(N) = (N_c/N)^α_N, α_N = %g, N_c = %.2g", k.AlphaN, k.NC), 1e5, 1e11, k.LossN, k)
}

// KaplanLossVsData charts L(D) = (D_c/D)^α_D (α_D = 0.095, D_c = 5.4·10¹³
// tokens): large models with early stopping.
func KaplanLossVsData() *Figure {
	k := facts.Kaplan()
	return kaplanFigure("Ley de escala: pérdida frente a datos", "tokens de entrenamiento D",
		sprintf("L(D) = (D_c/D)^α_D, α_D = %g, D_c = %.2g tokens", k.AlphaD, k.DC), 1e7, 1e12, k.LossD, k)
}

// KaplanLossVsCompute charts the compute-efficient frontier
// L(C_min) = (C_c/C_min)^α_C (α = 0.050, C_c = 3.1·10⁸ PF-days), with
// compute in FLOP (1 PF-day = 8.64·10¹⁹ FLOP).
func KaplanLossVsCompute() *Figure {
	k := facts.Kaplan()
	law := func(flop float64) float64 { return k.LossCMin(flop / facts.PFDay) }
	return kaplanFigure("Ley de escala: pérdida frente a compute", "compute de entrenamiento C (FLOP)",
		sprintf("L(C_min) = (C_c/C_min)^α, α = %g, C_c = %.2g PF-días", k.AlphaCMin, k.CCMin), 1e15, 1e25, law, k)
}

// ChinchillaFrontier charts the compute-optimal model size against the
// training budget: Hoffmann et al.'s Table 3, the optimum of their parametric
// fit and of Besiroglu et al.'s re-fit, the ~20 tokens per parameter rule,
// and Kaplan et al.'s frontier (which favoured larger models).
func ChinchillaFrontier() *Figure {
	cs := logSpace(1e18, 2e28, 50)
	ch, re, k := facts.Chinchilla(), facts.ChinchillaRefit(), facts.Kaplan()
	var table []item
	var rows []facts.ScalingLawParam
	for _, p := range facts.ChinchillaTable3() {
		it := xy(p.FLOPs, p.Params)
		it.Name, it.Note = sprintf("%.3g parámetros, %.3g tokens", p.Params, p.Tokens), "Hoffmann et al. 2022, tabla 3"
		table = append(table, it)
		rows = append(rows, p.Rows...)
	}
	line := func(name string, f func(float64) float64, style charts.SeriesOpts) charts.SingleSeries {
		s := newSeries("line", name, curve(cs, f), style)
		s.ShowSymbol = noSymbol
		return s
	}
	fx := frame{title: "Tamaño de modelo óptimo para cada presupuesto de compute", subtitle: "C ≈ 6·N·D",
		x: axis{name: "compute de entrenamiento C (FLOP)", kind: "log"}, y: axis{name: "parámetros N óptimos", kind: "log"}, legend: true}
	ss := []charts.SingleSeries{
		newSeries("scatter", "Hoffmann et al. 2022: tabla 3 (enfoque 1)", table, charts.WithSeriesOpts(func(s *charts.SingleSeries) { s.SymbolSize = 10 })),
		line("óptimo del ajuste paramétrico de Hoffmann", func(c float64) float64 { n, _ := ch.Optimal(c); return n }, dashed("")),
		line("óptimo del reajuste de Besiroglu et al. 2024", func(c float64) float64 { n, _ := re.Optimal(c); return n }, dashed("")),
		line("regla de ~20 tokens por parámetro: N = √(C/120)", func(c float64) float64 { return math.Sqrt(c / 120) }, charts.WithLineStyleOpts(opts.LineStyle{Type: "dotted", Width: 2})),
		line("Kaplan et al. 2020: N = 1.3·10⁹ · C^0.73 (C en PF-días)", func(c float64) float64 { return k.OptimalParams(c / facts.PFDay) }, charts.WithLineStyleOpts(opts.LineStyle{Width: 2})),
	}
	fig := &Figure{Chart: newLine(fx, ss...), Height: "460px", Notes: []string{
		"El óptimo cerrado del ajuste paramétrico es muy sensible al redondeo de α y β: con los valores publicados da ~93 tokens por parámetro en el presupuesto de Chinchilla; el reajuste de Besiroglu et al. da ~18 (derivado).",
	}}
	AddSources(fig, rows)
	AddSources(fig, ch.Params)
	AddSources(fig, re.Params)
	AddSources(fig, facts.Rule("Hoffmann", "Rule of thumb"))
	AddSources(fig, k.Params)
	return fig
}

// ChinchillaLoss charts Hoffmann et al.'s parametric loss
// L(N, D) = E + A/N^α + B/D^β along isoFLOP curves: for each budget C the
// loss of a model of N parameters trained on D = C/(6N) tokens. Each curve
// has a minimum (the compute-optimal size), marked with a point. With refit
// it uses Besiroglu et al.'s re-fit constants instead.
func ChinchillaLoss(refit ...bool) *Figure {
	p := facts.Chinchilla()
	if one("ChinchillaLoss", refit) {
		p = facts.ChinchillaRefit()
	}
	ns := logSpace(1e7, 1e13, 80)
	var ss []charts.SingleSeries
	var minima []item
	for _, c := range []float64{1e19, 1e20, 1e21, 1e22, 5.76e23, 1e25} {
		s := newSeries("line", sprintf("C = %.3g FLOP", c), curve(ns, func(n float64) float64 { return p.Loss(n, c/(6*n)) }))
		s.ShowSymbol = noSymbol
		ss = append(ss, s)
		n, d := p.Optimal(c)
		it := xy(n, p.Loss(n, d))
		it.Name, it.Note = sprintf("óptimo para C = %.3g: N = %.3g, D = %.3g", c, n, d), "derivado de la fórmula"
		minima = append(minima, it)
	}
	ss = append(ss, newSeries("scatter", "mínimo de cada curva", minima, charts.WithSeriesOpts(func(s *charts.SingleSeries) { s.SymbolSize = 9 })))
	f := frame{title: "Pérdida paramétrica de Chinchilla con compute fijo (curvas isoFLOP)",
		subtitle: sprintf("%s: L = %.4g + %.4g/N^%.4g + %.4g/D^%.4g, D = C/(6N)", p.Name, p.E, p.A, p.Alpha, p.B, p.Beta),
		x:        axis{name: "parámetros N", kind: "log"}, y: axis{name: "pérdida (nats/token)", kind: "log"}, legend: true}
	fig := &Figure{Chart: newLine(f, ss...), Height: "460px", Notes: []string{
		"Curvas calculadas con la fórmula publicada; los mínimos son derivados (∂L/∂N = 0 con C = 6·N·D).",
		sprintf("La pérdida nunca baja de E = %.4g: el término irreducible del ajuste.", p.E),
	}}
	AddSources(fig, p.Params)
	return fig
}
