package natsbroker_test

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/dlbd/dlbd/bigdata/natsbroker"
	"github.com/dlbd/dlbd/bigdata/stream"
)

func ExampleStart() {
	dir, _ := os.MkdirTemp("", "jetstream")
	defer os.RemoveAll(dir)
	b, err := natsbroker.Start(dir)
	if err != nil {
		panic(err)
	}
	defer b.Close()
	ctx := context.Background()
	b.CreateTopic(ctx, "sensores")
	b.Publish(ctx, "sensores", stream.Events(time.Now(), stream.EventsConfig{N: 100})...)
	n, _ := b.Count(ctx, "sensores")
	fmt.Println(n, "events in the log")
	// Output: 100 events in the log
}
