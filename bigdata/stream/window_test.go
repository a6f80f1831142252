package stream

import (
	"testing"
	"time"
)

func TestWindowerWatermark(t *testing.T) {
	t0 := time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	w := NewWindower(time.Second, 500*time.Millisecond)
	steps := []struct {
		ms      int
		emitted int // windows closed by this event
	}{
		{100, 0}, {900, 0}, {1200, 0}, // window [0,1) still open: watermark 700 ms
		{700, 0},  // out of order but in time: goes to [0,1)
		{1600, 1}, // watermark 1100 ms ≥ 1 s: [0,1) is emitted with 3 events
		{950, 0},  // late: [0,1) was already emitted
		{2600, 1}, // watermark 2100: [1,2) emitted
	}
	var got []Window
	for i, s := range steps {
		out := w.Add(Event{Key: "a", Time: at(s.ms), Value: 1})
		if len(out) != s.emitted {
			t.Errorf("event %d (t=%d ms): emitted %d windows; want %d (watermark %v)", i, s.ms, len(out), s.emitted, w.Watermark().Sub(t0))
		}
		got = append(got, out...)
	}
	if w.Late != 1 {
		t.Errorf("Late = %d; want 1 (the 950 ms event after [0,1) closed)", w.Late)
	}
	if len(got) != 2 || got[0].Count != 3 || !got[0].Start.Equal(t0) || got[1].Count != 2 {
		t.Errorf("windows = %+v; want [0,1) with 3 events then [1,2) with 2", got)
	}
	if rest := w.Flush(); len(rest) != 1 || rest[0].Count != 1 {
		t.Errorf("Flush = %+v; want the open [2,3) window with 1 event", rest)
	}
}

func TestEventRoundTrip(t *testing.T) {
	e := Event{Key: "s1", Time: time.Unix(1, 5).UTC(), Value: 2.5, Sent: time.Unix(2, 0).UTC()}
	got, err := Decode(e.Encode())
	if err != nil || got != e {
		t.Errorf("Decode(Encode(%+v)) = %+v, %v", e, got, err)
	}
	if _, err := Decode([]byte("hola")); err == nil {
		t.Error("Decode of a non-event: want an error")
	}
}
