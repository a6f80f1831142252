package viz

import (
	"math"
	"strings"
)

// svgSeries is one line of an svgPlot.
type svgSeries struct {
	name   string
	xs, ys []float64
	color  string
}

// svgPlot is a small static line plot rendered as inline SVG, for live
// outputs that are redrawn by replacing HTML (no JavaScript).
type svgPlot struct {
	width, height  int
	title          string
	xLabel, yLabel string
	logY           bool
	series         []svgSeries
}

// maxPlotPoints bounds the points drawn per series; longer series are
// decimated keeping each bucket's minimum and maximum (spikes stay visible).
const maxPlotPoints = 800

var palette = []string{"#5470c6", "#ee6666", "#91cc75", "#fac858", "#73c0de", "#3ba272", "#fc8452", "#9a60b4"}

func (p svgPlot) render() string {
	const left, right, top, bottom = 62, 16, 28, 40
	pw, ph := float64(p.width-left-right), float64(p.height-top-bottom)
	xlo, xhi, ylo, yhi := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for _, s := range p.series {
		for i, x := range s.xs {
			y := s.ys[i]
			if p.logY && y <= 0 {
				continue
			}
			xlo, xhi = math.Min(xlo, x), math.Max(xhi, x)
			ylo, yhi = math.Min(ylo, y), math.Max(yhi, y)
		}
	}
	var b strings.Builder
	b.WriteString(sprintf(`<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" style="font:11px sans-serif;background:#fff">`,
		p.width, p.height, p.width, p.height))
	b.WriteString(sprintf(`<text x="%d" y="16" font-size="13" font-weight="bold">%s</text>`, left, htmlText(p.title)))
	if math.IsInf(xlo, 1) {
		b.WriteString(sprintf(`<text x="%d" y="%d" fill="#888">(sin datos todavía)</text></svg>`, left, top+int(ph/2)))
		return b.String()
	}
	if xhi == xlo {
		xlo, xhi = xlo-0.5, xhi+0.5
	}
	var yticks []float64
	if p.logY {
		yticks = logTicks(ylo, yhi)
		ylo, yhi = math.Min(ylo, yticks[0]), math.Max(yhi, yticks[len(yticks)-1])
	} else {
		yticks = niceTicks(ylo, yhi, 5)
		ylo, yhi = math.Min(ylo, yticks[0]), math.Max(yhi, yticks[len(yticks)-1])
	}
	if yhi == ylo {
		ylo, yhi = ylo-0.5, yhi+0.5
	}
	fy := func(y float64) float64 {
		if p.logY {
			return float64(top) + ph*(1-(math.Log10(y)-math.Log10(ylo))/(math.Log10(yhi)-math.Log10(ylo)))
		}
		return float64(top) + ph*(1-(y-ylo)/(yhi-ylo))
	}
	fx := func(x float64) float64 { return float64(left) + pw*(x-xlo)/(xhi-xlo) }
	for _, t := range yticks {
		y := fy(t)
		b.WriteString(sprintf(`<line x1="%d" x2="%.1f" y1="%.1f" y2="%.1f" stroke="#e5e5e5"/>`, left, float64(left)+pw, y, y))
		b.WriteString(sprintf(`<text x="%d" y="%.1f" text-anchor="end" fill="#555">%s</text>`, left-6, y+4, tickLabel(t)))
	}
	for _, t := range niceTicks(xlo, xhi, 6) {
		if t < xlo || t > xhi {
			continue
		}
		x := fx(t)
		b.WriteString(sprintf(`<line x1="%.1f" x2="%.1f" y1="%d" y2="%.1f" stroke="#ccc"/>`, x, x, top+int(ph), float64(top)+ph+4))
		b.WriteString(sprintf(`<text x="%.1f" y="%.1f" text-anchor="middle" fill="#555">%s</text>`, x, float64(top)+ph+16, tickLabel(t)))
	}
	b.WriteString(sprintf(`<rect x="%d" y="%d" width="%.1f" height="%.1f" fill="none" stroke="#999"/>`, left, top, pw, ph))
	b.WriteString(sprintf(`<text x="%.1f" y="%d" text-anchor="middle" fill="#333">%s</text>`, float64(left)+pw/2, p.height-6, htmlText(p.xLabel)))
	b.WriteString(sprintf(`<text transform="translate(14 %.1f) rotate(-90)" text-anchor="middle" fill="#333">%s</text>`, float64(top)+ph/2, htmlText(p.yLabel)))
	for i, s := range p.series {
		var pts []string
		xs, ys := decimate(s.xs, s.ys, maxPlotPoints)
		for j, x := range xs {
			if p.logY && ys[j] <= 0 {
				continue
			}
			pts = append(pts, sprintf("%.1f,%.1f", fx(x), fy(ys[j])))
		}
		b.WriteString(sprintf(`<polyline class="viz-series" data-name="%s" fill="none" stroke="%s" stroke-width="1.6" points="%s"/>`,
			htmlText(s.name), s.color, strings.Join(pts, " ")))
		lx := float64(left) + pw - 150
		ly := float64(top) + 14 + 15*float64(i)
		b.WriteString(sprintf(`<line x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f" stroke="%s" stroke-width="2"/>`, lx, lx+16, ly-4, ly-4, s.color))
		last := ""
		if n := len(s.ys); n > 0 {
			last = " = " + tickLabel(s.ys[n-1])
		}
		b.WriteString(sprintf(`<text x="%.1f" y="%.1f" fill="#333">%s%s</text>`, lx+20, ly, htmlText(s.name), last))
	}
	b.WriteString("</svg>")
	return b.String()
}

// niceTicks returns about n round values (steps of 1, 2 or 5 × 10^k)
// covering [lo, hi].
func niceTicks(lo, hi float64, n int) []float64 {
	if hi <= lo {
		return []float64{lo}
	}
	raw := (hi - lo) / float64(n)
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step := mag
	for _, m := range []float64{1, 2, 5, 10} {
		if m*mag >= raw {
			step = m * mag
			break
		}
	}
	var ticks []float64
	for t := math.Floor(lo/step) * step; t <= hi+step*1e-9; t += step {
		ticks = append(ticks, math.Round(t/step)*step)
	}
	if ticks[len(ticks)-1] < hi {
		ticks = append(ticks, ticks[len(ticks)-1]+step)
	}
	return ticks
}

// logTicks returns the powers of ten covering [lo, hi] (lo > 0), with the 2×
// and 5× values too when the range spans less than two decades.
func logTicks(lo, hi float64) []float64 {
	a, b := math.Floor(math.Log10(lo)), math.Ceil(math.Log10(hi))
	if b == a {
		b++
	}
	var ticks []float64
	for e := a; e <= b; e++ {
		p := math.Pow(10, e)
		ticks = append(ticks, p)
		if b-a < 2 && e < b {
			ticks = append(ticks, 2*p, 5*p)
		}
	}
	return ticks
}

// tickLabel formats an axis value compactly.
func tickLabel(v float64) string {
	if v != 0 && (math.Abs(v) >= 1e5 || math.Abs(v) < 1e-3) {
		return sprintf("%.3g", v)
	}
	return strings.TrimSuffix(strings.TrimRight(sprintf("%.4f", v), "0"), ".")
}

// decimate keeps at most about max points: for longer series, the minimum
// and maximum of each bucket, in order.
func decimate(xs, ys []float64, max int) ([]float64, []float64) {
	if len(xs) <= max {
		return xs, ys
	}
	buckets := max / 2
	var ox, oy []float64
	for b := 0; b < buckets; b++ {
		i0, i1 := b*len(xs)/buckets, (b+1)*len(xs)/buckets
		lo, hi := i0, i0
		for i := i0; i < i1; i++ {
			if ys[i] < ys[lo] {
				lo = i
			}
			if ys[i] > ys[hi] {
				hi = i
			}
		}
		first, second := lo, hi
		if hi < lo {
			first, second = hi, lo
		}
		ox, oy = append(ox, xs[first]), append(oy, ys[first])
		if second != first {
			ox, oy = append(ox, xs[second]), append(oy, ys[second])
		}
	}
	return ox, oy
}
