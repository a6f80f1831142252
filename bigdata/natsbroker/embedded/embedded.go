// Package embedded is bigdata/natsbroker's server and client: an embedded
// NATS JetStream server (nats-server) and a nats.go client. Linking it (a
// blank import) registers it; bigdata/natsbroker links it itself except in
// the stateful kernel's builds (tag dlbd_stateful), whose host links it once
// for every cell (see bigdata/internal/linked).
package embedded

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/dlbd/dlbd/bigdata/internal/linked"
	"github.com/dlbd/dlbd/bigdata/stream"
)

func init() { linked.NATS.Set(start) }

// broker is an embedded NATS JetStream server and a client connected to it.
type broker struct {
	srv *server.Server
	nc  *nats.Conn
	js  jetstream.JetStream
}

var _ linked.NATSServer = (*broker)(nil)

// start starts the embedded server with its JetStream store in dir and connects to it.
func start(dir string) (linked.NATSServer, error) {
	srv, err := server.NewServer(&server.Options{Host: "127.0.0.1", Port: server.RANDOM_PORT,
		JetStream: true, StoreDir: dir, NoLog: true, NoSigs: true})
	if err != nil {
		return nil, fmt.Errorf("bigdata/natsbroker: %w", err)
	}
	go srv.Start()
	if !srv.ReadyForConnections(10 * time.Second) {
		srv.Shutdown()
		return nil, fmt.Errorf("bigdata/natsbroker: the embedded server was not ready within 10 s (store %s): check that the directory is writable", dir)
	}
	nc, err := nats.Connect(srv.ClientURL(), nats.Timeout(5*time.Second))
	if err != nil {
		srv.Shutdown()
		return nil, fmt.Errorf("bigdata/natsbroker: connect: %w", err)
	}
	js, err := jetstream.New(nc)
	if err != nil {
		nc.Close()
		srv.Shutdown()
		return nil, fmt.Errorf("bigdata/natsbroker: %w", err)
	}
	return &broker{srv: srv, nc: nc, js: js}, nil
}

// Name implements stream.Broker.
func (b *broker) Name() string { return "nats-jetstream" }

// URL returns the server's client URL (nats://127.0.0.1:port).
func (b *broker) URL() string { return b.srv.ClientURL() }

// CreateTopic implements stream.Broker: a new, empty stream named topic.
func (b *broker) CreateTopic(ctx context.Context, topic string) error {
	if err := b.js.DeleteStream(ctx, topic); err != nil && !errors.Is(err, jetstream.ErrStreamNotFound) {
		return fmt.Errorf("bigdata/natsbroker: %w", err)
	}
	_, err := b.js.CreateStream(ctx, jetstream.StreamConfig{Name: topic, Subjects: []string{topic}, Storage: jetstream.FileStorage})
	if err != nil {
		return fmt.Errorf("bigdata/natsbroker: create %s: %w (topic names: letters, digits, '-' and '_')", topic, err)
	}
	return nil
}

// Publish implements stream.Broker: asynchronous publishes, then a wait for every ack.
func (b *broker) Publish(ctx context.Context, topic string, events ...stream.Event) error {
	for _, e := range events {
		if _, err := b.js.PublishAsync(topic, e.Encode()); err != nil {
			return fmt.Errorf("bigdata/natsbroker: publish to %s: %w", topic, err)
		}
	}
	select {
	case <-b.js.PublishAsyncComplete():
		return nil
	case <-ctx.Done():
		return fmt.Errorf("bigdata/natsbroker: publish to %s: %w", topic, ctx.Err())
	}
}

// Count returns the number of events stored in topic.
func (b *broker) Count(ctx context.Context, topic string) (uint64, error) {
	s, err := b.js.Stream(ctx, topic)
	if err != nil {
		return 0, fmt.Errorf("bigdata/natsbroker: %s: %w", topic, err)
	}
	info, err := s.Info(ctx)
	if err != nil {
		return 0, fmt.Errorf("bigdata/natsbroker: %w", err)
	}
	return info.State.Msgs, nil
}

// Consumer implements stream.Broker with an ordered consumer from the first message. The
// client delivers messages in the background (as they arrive, pulled in batches) into a
// buffer that Fetch reads, so a consumer that takes one event at a time does not pay a
// round trip per event.
func (b *broker) Consumer(ctx context.Context, topic string) (stream.Consumer, error) {
	c, err := b.js.OrderedConsumer(ctx, topic, jetstream.OrderedConsumerConfig{DeliverPolicy: jetstream.DeliverAllPolicy})
	if err != nil {
		return nil, fmt.Errorf("bigdata/natsbroker: consume %s: %w (create it with CreateTopic)", topic, err)
	}
	var cc jetstream.ConsumeContext
	buf := stream.NewBuffer(1<<16, func() { cc.Stop() })
	cc, err = c.Consume(func(m jetstream.Msg) {
		e, err := stream.Decode(m.Data())
		if err != nil {
			buf.PutErr(err)
			return
		}
		buf.Put(e)
	})
	if err != nil {
		return nil, fmt.Errorf("bigdata/natsbroker: consume %s: %w", topic, err)
	}
	return buf, nil
}

// Close implements stream.Broker: it disconnects and shuts the server down.
func (b *broker) Close() error {
	b.nc.Close()
	b.srv.Shutdown()
	b.srv.WaitForShutdown()
	return nil
}
