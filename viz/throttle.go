package viz

import "time"

// DefaultMinInterval is the shortest time between two updates of a live
// output (at most 10 per second), so a fast training loop does not flood the
// front end with messages.
const DefaultMinInterval = 100 * time.Millisecond

// timeNow is the clock of live outputs (replaced in tests).
var timeNow = time.Now

// throttle decides when a live output may be redrawn.
type throttle struct {
	every time.Duration
	now   func() time.Time
	last  time.Time
	drawn bool
}

func newThrottle(every time.Duration) throttle {
	if every <= 0 {
		every = DefaultMinInterval
	}
	return throttle{every: every, now: timeNow}
}

// ready reports whether enough time passed since the last redraw (the first
// call is always ready) and, if so, records now as the last redraw.
func (t *throttle) ready() bool {
	now := t.now()
	if t.drawn && now.Sub(t.last) < t.every {
		return false
	}
	t.drawn, t.last = true, now
	return true
}

// mark records a redraw that happened regardless of the throttle (the final one).
func (t *throttle) mark() { t.drawn, t.last = true, t.now() }

// clock formats a duration as m:ss or h:mm:ss.
func clock(d time.Duration) string {
	s := int(d.Round(time.Second) / time.Second)
	if s < 0 {
		s = 0
	}
	if s >= 3600 {
		return sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
	}
	return sprintf("%d:%02d", s/60, s%60)
}
