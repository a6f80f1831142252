package stream_test

import (
	"fmt"
	"time"

	"github.com/dlbd/dlbd/bigdata/stream"
)

func ExampleWindower() {
	t0 := time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC)
	w := stream.NewWindower(time.Second, 200*time.Millisecond)
	for _, ms := range []int{100, 800, 1100, 600, 1300, 900} { // out of order
		for _, win := range w.Add(stream.Event{Key: "s0", Time: t0.Add(time.Duration(ms) * time.Millisecond), Value: 1}) {
			fmt.Printf("window %s–%s: %d events\n", win.Start.Format("05.000"), win.End.Format("05.000"), win.Count)
		}
	}
	fmt.Println("late:", w.Late)
	// Output:
	// window 00.000–01.000: 3 events
	// late: 1
}
