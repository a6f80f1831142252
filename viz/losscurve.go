package viz

import (
	"math"
	"strings"
	"sync"
	"time"
)

// LossCurveOptions configures a live loss curve. The zero value is the
// default.
type LossCurveOptions struct {
	Title         string        // default "Curva de pérdida"
	XLabel        string        // default "paso"
	YLabel        string        // default "pérdida"
	LogY          bool          // logarithmic loss axis
	Width, Height int           // pixels; default 640 × 280
	MinInterval   time.Duration // shortest time between redraws; default DefaultMinInterval
	Sink          Sink          // where to draw; default the GoNB front end
}

// LossCurve is a live plot of one or more series (training and validation
// loss, ...) drawn as inline SVG in one output block replaced in place (no
// JavaScript), so the final state is what a saved notebook keeps. Add one
// point per step; redraws are throttled (Done draws the final state). It is
// safe for concurrent use.
type LossCurve struct {
	mu       sync.Mutex
	o        LossCurveOptions
	names    []string
	points   map[string]*svgSeries
	bad      []string // notes on non-finite values
	thr      throttle
	disp     *Display
	finished bool
}

// TrainSeries is the name of the series that Add appends to.
const TrainSeries = "entrenamiento"

// NewLossCurve returns an empty live curve. At most one LossCurveOptions is used.
func NewLossCurve(o ...LossCurveOptions) *LossCurve {
	var opt LossCurveOptions
	if len(o) > 0 {
		opt = o[0]
	}
	opt.Title = cmp(opt.Title, "Curva de pérdida")
	opt.XLabel = cmp(opt.XLabel, "paso")
	opt.YLabel = cmp(opt.YLabel, "pérdida")
	if opt.Width <= 0 {
		opt.Width = 640
	}
	if opt.Height <= 0 {
		opt.Height = 280
	}
	return &LossCurve{o: opt, points: map[string]*svgSeries{}, thr: newThrottle(opt.MinInterval), disp: NewDisplayTo(opt.Sink)}
}

// Add appends (step, loss) to the training series.
func (c *LossCurve) Add(step int, loss float64) { c.AddTo(TrainSeries, float64(step), loss) }

// AddTo appends (x, y) to the named series, creating it on first use. A NaN
// or infinite y (a diverging run) is not plotted but reported under the plot.
func (c *LossCurve) AddTo(series string, x, y float64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.finished {
		return
	}
	s, ok := c.points[series]
	if !ok {
		s = &svgSeries{name: series, color: palette[len(c.names)%len(palette)]}
		c.points[series] = s
		c.names = append(c.names, series)
	}
	if math.IsNaN(y) || math.IsInf(y, 0) || (c.o.LogY && y <= 0) {
		if len(c.bad) < 3 {
			c.bad = append(c.bad, sprintf("%s: valor %v en %s = %v (no se dibuja)", series, y, c.o.XLabel, x))
		}
	} else {
		s.xs, s.ys = append(s.xs, x), append(s.ys, y)
	}
	if c.thr.ready() {
		c.disp.Update(c.htmlLocked())
	}
}

// Done draws the final state now. Later points are ignored.
func (c *LossCurve) Done() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.finished {
		c.finished = true
		c.thr.mark()
		c.disp.Update(c.htmlLocked())
	}
}

// HTML returns the curve's current HTML (an <svg> and any notes).
func (c *LossCurve) HTML() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.htmlLocked()
}

func (c *LossCurve) htmlLocked() string {
	p := svgPlot{width: c.o.Width, height: c.o.Height, title: c.o.Title, xLabel: c.o.XLabel, yLabel: c.o.YLabel, logY: c.o.LogY}
	for _, n := range c.names {
		p.series = append(p.series, *c.points[n])
	}
	var b strings.Builder
	b.WriteString(sprintf(`<div class="viz-losscurve" data-viz-finished="%t">`, c.finished))
	b.WriteString(p.render())
	for _, n := range c.bad {
		b.WriteString(`<div style="font:12px sans-serif;color:#b00">⚠ ` + htmlText(n) + `</div>`)
	}
	b.WriteString("</div>")
	return b.String()
}
