package viz

import (
	"fmt"
	"strings"
	"sync"
	"time"
)

var sprintf = fmt.Sprintf

// ProgressOptions configures a progress bar. The zero value is the default.
type ProgressOptions struct {
	Label       string        // text before the bar; default "Progreso"
	Unit        string        // what a step is, plural; default "pasos"
	MinInterval time.Duration // shortest time between redraws; default DefaultMinInterval
	Sink        Sink          // where to draw; default the GoNB front end
}

// Progress is a progress bar drawn as plain HTML (no JavaScript) in one
// output block that is replaced in place, so it works in every front end and
// the final state is what a saved notebook keeps. Drive it with one call per
// step (Step or Set); redraws are throttled, except the first and the final
// one (when the count reaches the total, or on Done). It is safe for
// concurrent use.
type Progress struct {
	mu       sync.Mutex
	o        ProgressOptions
	total    int
	done     int
	note     string
	start    time.Time
	finished bool
	thr      throttle
	disp     *Display
}

// NewProgress returns a progress bar for total steps and draws it at 0.
// At most one ProgressOptions is used.
func NewProgress(total int, o ...ProgressOptions) *Progress {
	var opt ProgressOptions
	if len(o) > 0 {
		opt = o[0]
	}
	opt.Label = cmp(opt.Label, "Progreso")
	opt.Unit = cmp(opt.Unit, "pasos")
	p := &Progress{o: opt, total: total, thr: newThrottle(opt.MinInterval), disp: NewDisplayTo(opt.Sink)}
	p.start = p.thr.now()
	p.mu.Lock()
	p.redraw(false)
	p.mu.Unlock()
	return p
}

// Step counts one more step done.
func (p *Progress) Step() { p.Add(1) }

// Add counts n more steps done.
func (p *Progress) Add(n int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.setLocked(p.done + n)
}

// Set sets the number of steps done.
func (p *Progress) Set(done int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.setLocked(done)
}

// SetNote sets the text shown after the counts (e.g. "pérdida 0.231"); it is
// drawn with the next redraw.
func (p *Progress) SetNote(note string) {
	p.mu.Lock()
	p.note = note
	p.mu.Unlock()
}

// Done draws the final state now (also when fewer steps than the total were
// done, e.g. after early stopping). Later calls do nothing.
func (p *Progress) Done() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.finished {
		p.finished = true
		p.redraw(true)
	}
}

func (p *Progress) setLocked(done int) {
	if p.finished {
		return
	}
	p.done = done
	if p.total > 0 && done >= p.total {
		p.finished = true
		p.redraw(true)
		return
	}
	p.redraw(false)
}

// redraw updates the block if forced or if the throttle allows it.
func (p *Progress) redraw(force bool) {
	if force {
		p.thr.mark()
	} else if !p.thr.ready() {
		return
	}
	p.disp.Update(p.htmlLocked())
}

// HTML returns the bar's current HTML.
func (p *Progress) HTML() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.htmlLocked()
}

func (p *Progress) htmlLocked() string {
	elapsed := p.thr.now().Sub(p.start)
	frac := 0.0
	if p.total > 0 {
		frac = min(1, max(0, float64(p.done)/float64(p.total)))
	}
	rate := 0.0
	if s := elapsed.Seconds(); s > 0 {
		rate = float64(p.done) / s
	}
	var parts []string
	count := sprintf("%d/%d (%.0f%%)", p.done, p.total, 100*frac)
	color := "#4a7bd0"
	if p.finished {
		color = "#3a9a5b"
		parts = append(parts, sprintf("✓ %s en %s", count, clock(elapsed)))
	} else {
		parts = append(parts, count)
	}
	if rate > 0 {
		parts = append(parts, sprintf("%.3g %s/s", rate, p.o.Unit))
	}
	if !p.finished && rate > 0 && p.total > p.done {
		parts = append(parts, "quedan "+clock(time.Duration(float64(p.total-p.done)/rate*float64(time.Second))))
	}
	if p.note != "" {
		parts = append(parts, htmlText(p.note))
	}
	return sprintf(`<div class="viz-progress" data-viz-done="%d" data-viz-total="%d" data-viz-finished="%t" `+
		`style="font:13px sans-serif;display:flex;align-items:center;gap:8px;max-width:760px;margin:2px 0">`+
		`<span>%s</span>`+
		`<div style="flex:1;min-width:120px;height:14px;background:#e6e6e6;border-radius:3px;overflow:hidden">`+
		`<div style="width:%.1f%%;height:100%%;background:%s"></div></div>`+
		`<span style="font-variant-numeric:tabular-nums;white-space:nowrap">%s</span></div>`,
		p.done, p.total, p.finished, htmlText(p.o.Label), 100*frac, color, strings.Join(parts, " · "))
}
