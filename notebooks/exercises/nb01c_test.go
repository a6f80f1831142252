package exercises

import (
	"context"
	"testing"
	"time"

	"github.com/dlbd/dlbd/bigdata/natsbroker"
	"github.com/dlbd/dlbd/bigdata/stream"
)

// nb01cSensors is the notebook's stream: 4 sensors, one measure every 10 ms,
// disordered by up to 300 ms.
func nb01cSensors(n int) []stream.Event {
	t0 := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	return stream.Events(t0, stream.EventsConfig{N: n, Keys: 4, Interval: 10 * time.Millisecond, Disorder: 300 * time.Millisecond, Seed: 1})
}

func TestMinWatermarkLateness(t *testing.T) {
	ev := nb01cSensors(5000)
	// The reference solution: the notebook's sweep, in steps of 50 ms.
	least := -1
	for ms := 0; least < 0; ms += 50 {
		w := stream.NewWindower(time.Second, time.Duration(ms)*time.Millisecond)
		for _, e := range ev {
			w.Add(e)
		}
		if w.Late == 0 {
			least = ms
		}
	}
	if least == 0 || least > 300 {
		t.Fatalf("least lateness %d ms: the notebook's stream should need some, and no more than its 300 ms of disorder", least)
	}
	nb01Expect(t, "reference", MinWatermarkLateness(least, ev), "right", "")
	nb01Expect(t, "too little", MinWatermarkLateness(least-50, ev), "wrong", "sube el retraso")
	nb01Expect(t, "not the least", MinWatermarkLateness(least+100, ev), "wrong", "busca el menor")
	nb01Expect(t, "not a multiple", MinWatermarkLateness(least+1, ev), "wrong", "múltiplo de 50")
	nb01Expect(t, "blank", MinWatermarkLateness(-1, ev), "blank", "busca el menor")
	nb01Expect(t, "ordered events need none", MinWatermarkLateness(0, stream.Events(time.Time{}, stream.EventsConfig{N: 100, Disorder: 1})), "right", "")
}

func TestMicroBatchMedianLatency(t *testing.T) {
	ev := nb01cSensors(4000) // as the notebook: 2 s of events, two intervals
	nb01Expect(t, "blank", MicroBatchMedianLatency(context.Background(), nil, ev, -1), "blank", "")
	if testing.Short() {
		t.Skip("runs a streaming pipeline through a NATS broker (seconds)")
	}
	b, err := natsbroker.Start(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	nb01Expect(t, "reference: half the interval", MicroBatchMedianLatency(ctx, b, ev, 500), "right", "")
	nb01Expect(t, "the whole interval", MicroBatchMedianLatency(ctx, b, ev, 1000), "wrong", "intervalo entero")
	nb01Expect(t, "event at a time", MicroBatchMedianLatency(ctx, b, ev, 5), "wrong", "evento a evento")
	done, stop := context.WithCancel(ctx)
	stop()
	nb01Expect(t, "cancelled", MicroBatchMedianLatency(done, b, ev, 500), "wrong", "no he podido medir")
}
