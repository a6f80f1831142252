package stream

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"
)

// EventsConfig describes the synthetic sensor stream; the zero value is 2,000 events of 4
// sensors, one every 10 ms of event time, disordered by up to 300 ms.
type EventsConfig struct {
	N        int           // events; default 2,000
	Keys     int           // sensors; default 4
	Interval time.Duration // event time between consecutive measurements; default 10 ms
	Disorder time.Duration // an event's time is up to this much older than its position; default 300 ms
	Seed     uint64
}

// Events returns the stream in arrival order: event i is measured at start + i·Interval
// minus a random delay in [0, Disorder) (it arrives late), by sensor "s<i mod Keys>", with
// a value around 20. Sent is left zero (Run sets it when publishing).
func Events(start time.Time, cfg EventsConfig) []Event {
	if cfg.N == 0 {
		cfg.N = 2000
	}
	if cfg.Keys == 0 {
		cfg.Keys = 4
	}
	if cfg.Interval == 0 {
		cfg.Interval = 10 * time.Millisecond
	}
	if cfg.Disorder == 0 {
		cfg.Disorder = 300 * time.Millisecond
	}
	r := rand.New(rand.NewPCG(cfg.Seed, 0xe7e7))
	out := make([]Event, cfg.N)
	for i := range out {
		delay := time.Duration(r.Int64N(int64(cfg.Disorder)))
		out[i] = Event{Key: fmt.Sprintf("s%d", i%cfg.Keys), Time: start.Add(time.Duration(i) * cfg.Interval).Add(-delay),
			Value: 20 + 5*r.NormFloat64()}
	}
	return out
}

// Config configures Run.
type Config struct {
	Topic    string        // required
	Rate     float64       // events published per second; default 2,000
	Trigger  time.Duration // 0: event-at-a-time; else a micro-batch every Trigger
	Window   time.Duration // tumbling window size; default 1 s
	Lateness time.Duration // watermark lateness; default 500 ms
}

// Report is what Run measured.
type Report struct {
	Mode      string          // "event-at-a-time" or "micro-batch 200ms"
	Latencies []time.Duration // per event, publish → processed, in arrival order
	Batches   int             // times the consumer handled events
	Windows   []Window        // emitted windows, in emission order (Flush at the end)
	Late      int             // events dropped by the watermark
	Elapsed   time.Duration
}

// Percentile returns the p-th percentile (0–100) of the latencies.
func (r *Report) Percentile(p float64) time.Duration {
	if len(r.Latencies) == 0 {
		return 0
	}
	s := slices.Clone(r.Latencies)
	slices.Sort(s)
	return s[min(len(s)-1, int(p/100*float64(len(s))))]
}

// Run creates the topic, publishes events at cfg.Rate from a goroutine and consumes them
// through a Windower until all have been processed, then returns the Report. The producer
// goroutine ends before Run returns.
func Run(ctx context.Context, b Broker, events []Event, cfg Config) (*Report, error) {
	if cfg.Topic == "" {
		return nil, fmt.Errorf("bigdata/stream: Config.Topic is empty")
	}
	if cfg.Rate == 0 {
		cfg.Rate = 2000
	}
	if cfg.Window == 0 {
		cfg.Window = time.Second
	}
	if cfg.Lateness == 0 {
		cfg.Lateness = 500 * time.Millisecond
	}
	if err := b.CreateTopic(ctx, cfg.Topic); err != nil {
		return nil, err
	}
	cons, err := b.Consumer(ctx, cfg.Topic)
	if err != nil {
		return nil, err
	}
	defer cons.Close()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	prodErr := make(chan error, 1)
	start := time.Now()
	go func() { // ends after the last event or when ctx is cancelled
		tick := time.Duration(float64(time.Second) / cfg.Rate)
		for i, e := range events {
			if d := time.Until(start.Add(time.Duration(i) * tick)); d > 0 {
				select {
				case <-time.After(d):
				case <-ctx.Done():
					prodErr <- ctx.Err()
					return
				}
			}
			e.Sent = time.Now()
			if err := b.Publish(ctx, cfg.Topic, e); err != nil {
				prodErr <- err
				return
			}
		}
		prodErr <- nil
	}()
	rep := &Report{Mode: "event-at-a-time"}
	if cfg.Trigger > 0 {
		rep.Mode = "micro-batch " + cfg.Trigger.String()
	}
	w := NewWindower(cfg.Window, cfg.Lateness)
	next := time.Now().Add(cfg.Trigger)
	for len(rep.Latencies) < len(events) {
		var got []Event
		if cfg.Trigger == 0 {
			got, err = cons.Fetch(ctx, 1, 100*time.Millisecond)
		} else {
			select { // sleep until the trigger fires
			case <-time.After(time.Until(next)):
			case <-ctx.Done():
				return rep, ctx.Err()
			}
			next = next.Add(cfg.Trigger)
			got, err = cons.Fetch(ctx, len(events), 0)
		}
		if err != nil {
			return rep, err
		}
		if len(got) == 0 {
			select {
			case err := <-prodErr:
				if err != nil {
					return rep, fmt.Errorf("bigdata/stream: producer: %w", err)
				}
				prodErr <- nil // keep the "done" for the next check
			default:
			}
			continue
		}
		rep.Batches++
		for _, e := range got {
			rep.Windows = append(rep.Windows, w.Add(e)...)
		}
		now := time.Now()
		for _, e := range got {
			rep.Latencies = append(rep.Latencies, now.Sub(e.Sent))
		}
	}
	rep.Windows = append(rep.Windows, w.Flush()...)
	rep.Late, rep.Elapsed = w.Late, time.Since(start)
	return rep, <-prodErr
}
