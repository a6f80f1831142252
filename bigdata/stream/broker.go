package stream

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
)

// Event is one measurement: a key (the sensor), when it was measured (event time), its
// value, and when it was published (processing time, for latency).
type Event struct {
	Key   string    `json:"k"`
	Time  time.Time `json:"t"`
	Value float64   `json:"v"`
	Sent  time.Time `json:"s"`
}

// Encode returns the event as JSON, the brokers' message body.
func (e Event) Encode() []byte {
	b, _ := json.Marshal(e)
	return b
}

// Decode parses a message body written by Encode.
func Decode(b []byte) (Event, error) {
	var e Event
	if err := json.Unmarshal(b, &e); err != nil {
		return e, fmt.Errorf("bigdata/stream: message %.40q is not an event: %w", b, err)
	}
	return e, nil
}

// Broker is a topic-based log of events.
type Broker interface {
	// Name says which broker this is ("nats-jetstream", "kafka").
	Name() string
	// CreateTopic creates topic (empty) or, when it exists, empties it.
	CreateTopic(ctx context.Context, topic string) error
	// Publish appends events to topic in order and returns once the broker stored them.
	Publish(ctx context.Context, topic string, events ...Event) error
	// Consumer reads topic from its first event.
	Consumer(ctx context.Context, topic string) (Consumer, error)
	// Close disconnects (and stops an embedded server).
	Close() error
}

// Consumer reads the events of a topic in order.
type Consumer interface {
	// Fetch returns up to max events, waiting up to wait for the first (0: only those
	// already there). It returns no events and no error when none came.
	Fetch(ctx context.Context, max int, wait time.Duration) ([]Event, error)
	// Close releases the consumer.
	Close() error
}
