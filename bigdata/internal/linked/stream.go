package linked

import (
	"context"

	"github.com/dlbd/dlbd/bigdata/stream"
)

// Kafka opens a client of the Kafka broker at addr; registered by bigdata/kafka/franz.
var Kafka = NewHook[func(ctx context.Context, addr string) (stream.Broker, error)]("the Kafka client (franz-go)", "github.com/dlbd/dlbd/bigdata/kafka/franz")

// NATSServer is an embedded NATS JetStream server with a client connected to it.
type NATSServer interface {
	stream.Broker
	// URL is the server's client URL (nats://127.0.0.1:port).
	URL() string
	// Count is the number of messages stored in topic.
	Count(ctx context.Context, topic string) (uint64, error)
}

// NATS starts an embedded NATS JetStream server storing in dir and connects to it;
// registered by bigdata/natsbroker/embedded.
var NATS = NewHook[func(dir string) (NATSServer, error)]("the NATS server and client", "github.com/dlbd/dlbd/bigdata/natsbroker/embedded")
