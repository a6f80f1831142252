package kafka_test

import (
	"context"
	"fmt"
	"time"

	"github.com/dlbd/dlbd/bigdata/kafka"
	"github.com/dlbd/dlbd/bigdata/stream"
)

// Start (or reuse) the local broker and run the streaming pipeline on it.
// (Not run by go test: it needs Java and the jars of scripts/setup.sh.)
func ExampleEnsure() {
	ctx := context.Background()
	srv, err := kafka.Ensure(ctx, kafka.Config{})
	if err != nil {
		panic(err)
	}
	b, _ := kafka.Connect(ctx, srv.Addr)
	defer b.Close()
	rep, _ := stream.Run(ctx, b, stream.Events(time.Now(), stream.EventsConfig{}), stream.Config{Topic: "sensores"})
	fmt.Println(rep.Percentile(50))
}
