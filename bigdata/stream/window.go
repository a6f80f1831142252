package stream

import (
	"cmp"
	"slices"
	"strings"
	"time"
)

// Window is the aggregate of one key over [Start, End) in event time.
type Window struct {
	Key        string
	Start, End time.Time
	Count      int
	Sum        float64
}

// Windower aggregates events into tumbling event-time windows and emits each window once
// the watermark passes its end (Spark's append output mode).
type Windower struct {
	Size     time.Duration // window length
	Lateness time.Duration // how far behind the largest event time the watermark stays
	Late     int           // events dropped because their window was already emitted

	maxTime time.Time
	open    map[windowKey]*Window
}

type windowKey struct {
	key   string
	start int64
}

// NewWindower returns a Windower of tumbling windows of size, with a watermark lateness
// behind the largest event time seen.
func NewWindower(size, lateness time.Duration) *Windower {
	return &Windower{Size: size, Lateness: lateness, open: map[windowKey]*Window{}}
}

// Watermark returns the largest event time seen minus Lateness: the windower assumes no
// event older than this will come.
func (w *Windower) Watermark() time.Time { return w.maxTime.Add(-w.Lateness) }

// Add adds an event and returns the windows that its advance of the watermark closed,
// sorted by start then key. An event whose window already closed is counted in Late and
// dropped.
func (w *Windower) Add(e Event) []Window {
	start := e.Time.Truncate(w.Size)
	if !w.maxTime.IsZero() && !start.Add(w.Size).After(w.Watermark()) {
		w.Late++
		return nil
	}
	k := windowKey{e.Key, start.UnixNano()}
	win := w.open[k]
	if win == nil {
		win = &Window{Key: e.Key, Start: start, End: start.Add(w.Size)}
		w.open[k] = win
	}
	win.Count++
	win.Sum += e.Value
	if e.Time.After(w.maxTime) {
		w.maxTime = e.Time
	}
	return w.emit(func(win *Window) bool { return !win.End.After(w.Watermark()) })
}

// Flush emits every open window (the end of the input).
func (w *Windower) Flush() []Window { return w.emit(func(*Window) bool { return true }) }

func (w *Windower) emit(ready func(*Window) bool) []Window {
	var out []Window
	for k, win := range w.open {
		if ready(win) {
			out = append(out, *win)
			delete(w.open, k)
		}
	}
	slices.SortFunc(out, func(a, b Window) int { return cmp.Or(a.Start.Compare(b.Start), strings.Compare(a.Key, b.Key)) })
	return out
}

// Offline runs events, in their order, through a new Windower and flushes it: the
// reference answer of a streaming pipeline over the same events.
func Offline(events []Event, size, lateness time.Duration) (windows []Window, late int) {
	w := NewWindower(size, lateness)
	for _, e := range events {
		windows = append(windows, w.Add(e)...)
	}
	return append(windows, w.Flush()...), w.Late
}
