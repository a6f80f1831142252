package linked

import (
	"context"
	"time"

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

// KafkaFailoverReport is what a failover drill measured; bigdata/kafka.FailoverReport has the
// same fields, documented.
type KafkaFailoverReport struct {
	Records, Acked, Unacked, Consumed, Duplicates, Missing, KilledAfter int
	OldLeader, NewLeader                                                int32
	Gap, Resumed, Elapsed                                               time.Duration
	FirstErr                                                            string
}

// KafkaFailover runs a failover drill on the Kafka cluster at addr (a bootstrap list):
// records numbered records produced to topic with acks=all by an idempotent producer,
// kill called with the partition leader's node id after killAfter acknowledgements, every
// record consumed. Registered by bigdata/kafka/franz.
var KafkaFailover = NewHook[func(ctx context.Context, addr, topic string, records, killAfter int, kill func(leader int32) error) (*KafkaFailoverReport, error)]("the Kafka client (franz-go)", "github.com/dlbd/dlbd/bigdata/kafka/franz")
