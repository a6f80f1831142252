package natsbroker

import (
	"context"
	"testing"
	"time"

	"github.com/dlbd/dlbd/bigdata/stream"
)

func TestWindowsThroughNATSMatchOffline(t *testing.T) {
	b, err := Start(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	events := stream.Events(time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC), stream.EventsConfig{N: 1500, Seed: 1})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for _, trigger := range []time.Duration{0, 100 * time.Millisecond} {
		rep, err := stream.Run(ctx, b, events, stream.Config{Topic: "sensores", Rate: 5000, Trigger: trigger})
		if err != nil {
			t.Fatal(err)
		}
		want, late := stream.Offline(events, time.Second, 500*time.Millisecond)
		if len(rep.Windows) != len(want) || rep.Late != late {
			t.Fatalf("%s: %d windows, %d late; want %d windows, %d late", rep.Mode, len(rep.Windows), rep.Late, len(want), late)
		}
		for i := range want {
			g, wi := rep.Windows[i], want[i]
			if g.Key != wi.Key || !g.Start.Equal(wi.Start) || g.Count != wi.Count || g.Sum != wi.Sum {
				t.Errorf("%s: window %d = %+v; want %+v", rep.Mode, i, g, wi)
			}
		}
		if len(rep.Latencies) != len(events) {
			t.Errorf("%s: %d latencies; want one per event", rep.Mode, len(rep.Latencies))
		}
	}
}

func TestLogSurvivesRestart(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	b, err := Start(dir)
	if err != nil {
		t.Fatal(err)
	}
	b.CreateTopic(ctx, "log")
	if err := b.Publish(ctx, "log", stream.Events(time.Now(), stream.EventsConfig{N: 10})...); err != nil {
		t.Fatal(err)
	}
	b.Close()
	b, err = Start(dir) // a later cell
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	c, err := b.Consumer(ctx, "log")
	if err != nil {
		t.Fatal(err)
	}
	var got []stream.Event
	for deadline := time.Now().Add(10 * time.Second); len(got) < 10 && time.Now().Before(deadline); {
		more, err := c.Fetch(ctx, 100, time.Second)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, more...)
	}
	if len(got) != 10 {
		t.Errorf("after a restart the topic has %d events; want the 10 published", len(got))
	}
}
