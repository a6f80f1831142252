package kafka

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"time"

	"github.com/dlbd/dlbd/bigdata/internal/linked"
	"github.com/dlbd/dlbd/bigdata/stream"
	"github.com/dlbd/dlbd/internal/resources"
)

// Broker is a client of a Kafka broker (franz-go, in bigdata/kafka/franz); it implements
// stream.Broker.
type Broker struct {
	c      stream.Broker
	forget func()
}

var _ stream.Broker = (*Broker)(nil)

// Connect opens a client of the broker at addr (host:port), or of a cluster through its
// bootstrap list ("host:port,host:port", Server.Addr). It fails within seconds when no
// broker of the list answers.
func Connect(ctx context.Context, addr string) (*Broker, error) {
	connect, err := linked.Kafka.Get()
	if err != nil {
		return nil, err
	}
	var errs []error
	for _, a := range strings.Split(addr, ",") {
		c, err := (&net.Dialer{Timeout: 5 * time.Second}).DialContext(ctx, "tcp", a)
		if err == nil {
			c.Close()
			errs = nil
			break
		}
		errs = append(errs, err)
	}
	if errs != nil {
		return nil, fmt.Errorf("bigdata/kafka: no broker answers at %s (%v): start one with kafka.Ensure or `make kafka-start`", addr, errors.Join(errs...))
	}
	b, err := connect(ctx, addr)
	if err != nil {
		return nil, err
	}
	k := &Broker{c: b}
	k.forget = resources.Track("Kafka client of "+addr, k)
	return k, nil
}

// Name implements stream.Broker.
func (b *Broker) Name() string { return b.c.Name() }

// CreateTopic implements stream.Broker: the topic is deleted if it exists and created
// with one partition, replicated as the brokers' default.replication.factor says (Config.Brokers).
func (b *Broker) CreateTopic(ctx context.Context, topic string) error {
	return b.c.CreateTopic(ctx, topic)
}

// Publish implements stream.Broker: a synchronous produce (acks from the broker).
func (b *Broker) Publish(ctx context.Context, topic string, events ...stream.Event) error {
	return b.c.Publish(ctx, topic, events...)
}

// Consumer implements stream.Broker: a client reading topic from its first offset, polled
// by a goroutine (which ends at Close).
func (b *Broker) Consumer(ctx context.Context, topic string) (stream.Consumer, error) {
	return b.c.Consumer(ctx, topic)
}

// Close implements stream.Broker: it closes the client (the broker keeps running).
func (b *Broker) Close() error {
	defer b.forget()
	return b.c.Close()
}
