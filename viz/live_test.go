package viz

import (
	"math"
	"regexp"
	"strings"
	"testing"
	"time"
)

// recorder is a Sink that keeps everything displayed.
type recorder struct {
	displays []string
	updates  []struct{ id, html string }
	markdown []string
}

func (r *recorder) DisplayHTML(html string)   { r.displays = append(r.displays, html) }
func (r *recorder) DisplayMarkdown(md string) { r.markdown = append(r.markdown, md) }
func (r *recorder) UpdateHTML(id, html string) {
	r.updates = append(r.updates, struct{ id, html string }{id, html})
}

// fakeClock advances by step on every call.
func fakeClock(step time.Duration) func() time.Time {
	t := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	return func() time.Time { t = t.Add(step); return t }
}

// useClock makes the live outputs created by the test use clock.
func useClock(t *testing.T, clock func() time.Time) {
	old := timeNow
	timeNow = clock
	t.Cleanup(func() { timeNow = old })
}

func TestProgressThrottlesAndEndsFinished(t *testing.T) {
	useClock(t, fakeClock(time.Millisecond)) // a fast loop: 1 ms per step
	rec := &recorder{}
	p := NewProgress(1000, ProgressOptions{Label: "Época <1>", Sink: rec})
	for i := 0; i < 1000; i++ {
		p.SetNote(sprintf("pérdida %.3f", 1/float64(i+1)))
		p.Step()
	}
	p.Done() // already finished: no extra redraw
	// ~1 s of steps at ≤ 10 redraws/s, plus the first and the final one.
	if n := len(rec.updates); n < 3 || n > 13 {
		t.Errorf("1000 fast steps gave %d redraws; want between 3 and 13 (throttled to 10/s)", n)
	}
	ids := map[string]bool{}
	for _, u := range rec.updates {
		ids[u.id] = true
	}
	if len(ids) != 1 {
		t.Errorf("updates used %d display ids; want 1 (one block replaced in place)", len(ids))
	}
	last := rec.updates[len(rec.updates)-1].html
	for _, want := range []string{`data-viz-finished="true"`, "1000/1000 (100%)", "✓", "pérdida 0.001", "Época &lt;1&gt;", "width:100.0%"} {
		if !strings.Contains(last, want) {
			t.Errorf("final progress HTML lacks %q:\n%s", want, last)
		}
	}
	if strings.Contains(last, "<script") {
		t.Error("progress HTML has a script; live outputs must work without JavaScript")
	}
}

func TestProgressDoneEarly(t *testing.T) {
	rec := &recorder{}
	p := NewProgress(10, ProgressOptions{Sink: rec})
	p.Set(4)
	p.Done()
	p.Step() // ignored after Done
	last := rec.updates[len(rec.updates)-1].html
	if !strings.Contains(last, "4/10 (40%)") || !strings.Contains(last, `data-viz-finished="true"`) {
		t.Errorf("progress after Done at 4/10 = %s", last)
	}
}

var pointsRE = regexp.MustCompile(`data-name="([^"]*)"[^>]*points="([^"]*)"`)

func TestLossCurveLiveUpdates(t *testing.T) {
	useClock(t, fakeClock(time.Millisecond))
	rec := &recorder{}
	c := NewLossCurve(LossCurveOptions{Sink: rec, LogY: true})
	for i := 1; i <= 500; i++ {
		c.Add(i, 2/math.Sqrt(float64(i)))
		if i%100 == 0 {
			c.AddTo("validación", float64(i), 2.5/math.Sqrt(float64(i)))
		}
	}
	c.Add(501, math.NaN())
	c.Done()
	if n := len(rec.updates); n < 2 || n > 9 {
		t.Errorf("505 points in 0.5 s gave %d redraws; want 2..9", n)
	}
	final := rec.updates[len(rec.updates)-1].html
	m := pointsRE.FindAllStringSubmatch(final, -1)
	if len(m) != 2 || m[0][1] != TrainSeries || m[1][1] != "validación" {
		t.Fatalf("final SVG series = %v; want [entrenamiento validación]", m)
	}
	if got := len(strings.Fields(m[0][2])); got != 500 {
		t.Errorf("training polyline has %d points; want 500", got)
	}
	if got := len(strings.Fields(m[1][2])); got != 5 {
		t.Errorf("validation polyline has %d points; want 5", got)
	}
	if !strings.Contains(final, "NaN") || !strings.Contains(final, "no se dibuja") {
		t.Error("the NaN loss is not reported under the plot")
	}
	if !strings.Contains(final, `data-viz-finished="true"`) {
		t.Error("final state is not marked finished")
	}
}

func TestDecimateKeepsExtremes(t *testing.T) {
	n := 10000
	xs, ys := make([]float64, n), make([]float64, n)
	for i := range xs {
		xs[i], ys[i] = float64(i), math.Sin(float64(i)/300)
	}
	ys[4321] = 50 // a spike must survive
	ys[8765] = -50
	dx, dy := decimate(xs, ys, 800)
	if len(dx) > 800 {
		t.Errorf("decimate kept %d points; want ≤ 800", len(dx))
	}
	var hasHi, hasLo bool
	for i := range dx {
		hasHi = hasHi || (dy[i] == 50 && dx[i] == 4321)
		hasLo = hasLo || (dy[i] == -50 && dx[i] == 8765)
		if i > 0 && dx[i] <= dx[i-1] {
			t.Fatalf("decimated x not increasing at %d", i)
		}
	}
	if !hasHi || !hasLo {
		t.Error("decimate dropped a spike")
	}
}

func TestTicks(t *testing.T) {
	got := niceTicks(0.13, 2.71, 5) // raw step 0.52 rounds up to 1
	want := []float64{0, 1, 2, 3}
	if len(got) != len(want) {
		t.Fatalf("niceTicks(0.13, 2.71) = %v; want %v", got, want)
	}
	for i := range want {
		if math.Abs(got[i]-want[i]) > 1e-12 {
			t.Errorf("niceTicks(0.13, 2.71) = %v; want %v", got, want)
		}
	}
	if got := niceTicks(0, 0.93, 5); len(got) != 6 || math.Abs(got[5]-1) > 1e-12 {
		t.Errorf("niceTicks(0, 0.93) = %v; want 0, 0.2, ..., 1", got)
	}
	if got := logTicks(3, 4000); len(got) != 5 || got[0] != 1 || got[4] != 1e4 {
		t.Errorf("logTicks(3, 4000) = %v; want [1 10 100 1000 10000]", got)
	}
	if got := clock(3725 * time.Second); got != "1:02:05" {
		t.Errorf("clock(3725s) = %q; want 1:02:05", got)
	}
}
