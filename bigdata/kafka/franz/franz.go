// Package franz is bigdata/kafka's client, on franz-go. Linking it (a blank
// import) registers it; bigdata/kafka links it itself except in the
// stateful kernel's builds (tag dlbd_stateful), whose host links it once for
// every cell (see bigdata/internal/linked).
package franz

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/dlbd/dlbd/bigdata/internal/linked"
	"github.com/dlbd/dlbd/bigdata/stream"
)

func init() { linked.Kafka.Set(connect) }

// client is a franz-go client of a Kafka broker; it implements stream.Broker.
type client struct {
	addr string
	cl   *kgo.Client
}

// connect opens a client of the brokers at addr (host:port, or a comma-separated bootstrap
// list), one of which answered a TCP dial.
func connect(ctx context.Context, addr string) (stream.Broker, error) {
	cl, err := kgo.NewClient(kgo.SeedBrokers(strings.Split(addr, ",")...), kgo.ProducerLinger(0), kgo.RequestTimeoutOverhead(5*time.Second))
	if err != nil {
		return nil, fmt.Errorf("bigdata/kafka: %w", err)
	}
	return &client{addr: addr, cl: cl}, nil
}

// Name implements stream.Broker.
func (b *client) Name() string { return "kafka" }

// CreateTopic implements stream.Broker: the topic is deleted if it exists and created
// with one partition and the brokers' default replication factor.
func (b *client) CreateTopic(ctx context.Context, topic string) error {
	adm := kadm.NewClient(b.cl)
	// The client caches topic ids: forget the old topic, or producing to the new one fails
	// with UNKNOWN_TOPIC_ID.
	defer b.cl.PurgeTopicsFromClient(topic)
	if _, err := adm.DeleteTopics(ctx, topic); err != nil {
		return fmt.Errorf("bigdata/kafka: delete %s: %w", topic, err)
	}
	// Deletion is asynchronous: retry the creation while the old topic is still there.
	deadline := time.Now().Add(30 * time.Second)
	for {
		res, err := adm.CreateTopic(ctx, 1, -1, nil, topic)
		if err == nil {
			err = res.Err
		}
		if err == nil {
			return nil
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return fmt.Errorf("bigdata/kafka: create %s: %w", topic, err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// Publish implements stream.Broker: a synchronous produce (acks from the broker).
func (b *client) Publish(ctx context.Context, topic string, events ...stream.Event) error {
	recs := make([]*kgo.Record, len(events))
	for i, e := range events {
		recs[i] = &kgo.Record{Topic: topic, Key: []byte(e.Key), Value: e.Encode()}
	}
	if err := b.cl.ProduceSync(ctx, recs...).FirstErr(); err != nil {
		return fmt.Errorf("bigdata/kafka: publish to %s: %w", topic, err)
	}
	return nil
}

// Consumer implements stream.Broker: a client reading topic from its first offset, polled
// by a goroutine (which ends at Close) into a stream.Buffer.
func (b *client) Consumer(ctx context.Context, topic string) (stream.Consumer, error) {
	cl, err := kgo.NewClient(kgo.SeedBrokers(strings.Split(b.addr, ",")...), kgo.ConsumeTopics(topic),
		kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()), kgo.FetchMaxWait(50*time.Millisecond))
	if err != nil {
		return nil, fmt.Errorf("bigdata/kafka: %w", err)
	}
	pctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	buf := stream.NewBuffer(1<<16, func() { cancel(); wg.Wait(); cl.Close() })
	wg.Add(1)
	go func() {
		defer wg.Done()
		for pctx.Err() == nil {
			fs := cl.PollFetches(pctx)
			for _, fe := range fs.Errors() {
				if !errors.Is(fe.Err, context.Canceled) {
					buf.PutErr(fmt.Errorf("bigdata/kafka: fetch %s: %w", fe.Topic, fe.Err))
				}
			}
			for _, r := range fs.Records() {
				e, err := stream.Decode(r.Value)
				if err != nil {
					buf.PutErr(err)
					continue
				}
				buf.Put(e)
			}
		}
	}()
	return buf, nil
}

// Close implements stream.Broker: it closes the client (the broker keeps running).
func (b *client) Close() error { b.cl.Close(); return nil }
