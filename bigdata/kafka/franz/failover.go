package franz

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/dlbd/dlbd/bigdata/internal/linked"
)

func init() { linked.KafkaFailover.Set(failover) }

// failover implements linked.KafkaFailover.
func failover(ctx context.Context, addr, topic string, records, killAfter int, kill func(leader int32) error) (*linked.KafkaFailoverReport, error) {
	if records < 1 || killAfter < 1 || killAfter >= records {
		return nil, fmt.Errorf("bigdata/kafka: failover drill with %d records killing the leader after %d acknowledgements: want 1 <= killAfter < records", records, killAfter)
	}
	seeds := strings.Split(addr, ",")
	admc, err := kgo.NewClient(kgo.SeedBrokers(seeds...))
	if err != nil {
		return nil, fmt.Errorf("bigdata/kafka: %w", err)
	}
	defer admc.Close()
	adm := kadm.NewClient(admc)
	c := &client{addr: addr, cl: admc}
	if err := c.CreateTopic(ctx, topic); err != nil {
		return nil, err
	}
	// The topic is ready when its partition has a leader and every replica is in sync.
	leader := func() (int32, error) {
		md, err := adm.Metadata(ctx, topic)
		if err != nil {
			return -1, err
		}
		p, ok := md.Topics[topic].Partitions[0]
		if !ok {
			return -1, fmt.Errorf("topic %s has no partition 0 yet", topic)
		}
		if p.Err != nil {
			return -1, p.Err
		}
		if len(p.ISR) != len(p.Replicas) {
			return p.Leader, fmt.Errorf("partition 0 of %s: in-sync replicas %v of %v", topic, p.ISR, p.Replicas)
		}
		return p.Leader, nil
	}
	if _, err := waitLeader(ctx, leader, func(int32) bool { return true }); err != nil {
		return nil, err
	}

	rep := &linked.KafkaFailoverReport{Records: records, KilledAfter: killAfter}
	counts := make([]atomic.Int32, records)
	var consumed atomic.Int64
	cons, err := kgo.NewClient(kgo.SeedBrokers(seeds...), kgo.ConsumeTopics(topic),
		kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()), kgo.FetchMaxWait(50*time.Millisecond))
	if err != nil {
		return nil, fmt.Errorf("bigdata/kafka: %w", err)
	}
	cctx, stopConsumer := context.WithCancel(ctx)
	var cwg sync.WaitGroup
	var bad atomic.Int64
	cwg.Add(1)
	go func() {
		defer cwg.Done()
		for cctx.Err() == nil {
			fs := cons.PollFetches(cctx)
			fs.EachRecord(func(r *kgo.Record) {
				if len(r.Value) != 8 {
					bad.Add(1)
					return
				}
				i := binary.BigEndian.Uint64(r.Value)
				if i >= uint64(records) {
					bad.Add(1)
					return
				}
				if counts[i].Add(1) == 1 {
					consumed.Add(1)
				}
			})
		}
	}()
	defer func() { stopConsumer(); cwg.Wait(); cons.Close() }()

	// acks=all (every in-sync replica has the record) and idempotence are franz-go's
	// defaults; they are spelled out here because the drill is about them.
	prod, err := kgo.NewClient(kgo.SeedBrokers(seeds...), kgo.DefaultProduceTopic(topic),
		kgo.RequiredAcks(kgo.AllISRAcks()), kgo.RecordDeliveryTimeout(2*time.Minute))
	if err != nil {
		return nil, fmt.Errorf("bigdata/kafka: %w", err)
	}
	defer prod.Close()
	var (
		mu       sync.Mutex
		ackTimes = make([]time.Time, 0, records)
		acked    = make([]bool, records)
		killOnce sync.Once
		killed   = make(chan error, 1)
		killedAt time.Time
	)
	// The records after gate wait for the kill, so the failover happens mid-stream: records
	// in flight when the leader dies, more produced while a new one is elected.
	gate := killAfter + max(1, min(5000, (records-killAfter)/2))
	waitKill := func() error {
		select {
		case err := <-killed:
			if err != nil {
				return fmt.Errorf("bigdata/kafka: kill the leader after %d acknowledgements: %w", killAfter, err)
			}
			return nil
		case <-ctx.Done():
			return fmt.Errorf("bigdata/kafka: waiting for %d acknowledgements before killing the leader: %w", killAfter, ctx.Err())
		case <-time.After(2 * time.Minute):
			mu.Lock()
			defer mu.Unlock()
			return fmt.Errorf("bigdata/kafka: only %d of %d records acknowledged within 2 minutes, fewer than the %d after which the leader was to be killed (first error: %s)", len(ackTimes), gate, killAfter, rep.FirstErr)
		}
	}
	start := time.Now()
	for i := range records {
		if i == gate {
			if err := waitKill(); err != nil {
				return nil, err
			}
		}
		v := make([]byte, 8)
		binary.BigEndian.PutUint64(v, uint64(i))
		prod.Produce(ctx, &kgo.Record{Value: v}, func(_ *kgo.Record, err error) {
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				rep.Unacked++
				if rep.FirstErr == "" {
					rep.FirstErr = err.Error()
				}
				return
			}
			acked[i] = true
			ackTimes = append(ackTimes, time.Now())
			if len(ackTimes) == killAfter {
				// Kill outside the callback: the client waits for its callbacks.
				killOnce.Do(func() {
					go func() {
						old, err := leader()
						if err == nil {
							rep.OldLeader = old
							killedAt = time.Now()
							err = kill(old)
						}
						killed <- err
					}()
				})
			}
		})
	}
	if gate >= records { // too few records to hold any back: the kill may still be under way
		if err := waitKill(); err != nil {
			return nil, err
		}
	}
	if err := prod.Flush(ctx); err != nil {
		return nil, fmt.Errorf("bigdata/kafka: flush the producer: %w", err)
	}
	mu.Lock()
	rep.Acked = len(ackTimes)
	for j := 1; j < len(ackTimes); j++ {
		if d := ackTimes[j].Sub(ackTimes[j-1]); d > rep.Gap {
			rep.Gap, rep.Resumed = d, ackTimes[j].Sub(killedAt)
		}
	}
	mu.Unlock()
	rep.NewLeader, err = waitLeader(ctx, func() (int32, error) {
		l, err := leader()
		if err != nil && l >= 0 { // a replica out of sync (the dead one) is expected now
			err = nil
		}
		return l, err
	}, func(l int32) bool { return l >= 0 && l != rep.OldLeader })
	if err != nil {
		return nil, err
	}
	// Every acknowledged record must come back; wait for the consumer to catch up.
	deadline := time.Now().Add(time.Minute)
	for consumed.Load() < int64(rep.Acked) && time.Now().Before(deadline) && ctx.Err() == nil {
		time.Sleep(50 * time.Millisecond)
	}
	stopConsumer()
	cwg.Wait()
	rep.Elapsed = time.Since(start)
	for i := range records {
		n := counts[i].Load()
		if n > 0 {
			rep.Consumed++
		}
		if n > 1 {
			rep.Duplicates++
		}
		if acked[i] && n == 0 {
			rep.Missing++
		}
	}
	if b := bad.Load(); b > 0 {
		return rep, fmt.Errorf("bigdata/kafka: %d records of %s were not the drill's numbered records", b, topic)
	}
	return rep, nil
}

// waitLeader polls leader until ok accepts it without error (within a minute).
func waitLeader(ctx context.Context, leader func() (int32, error), ok func(int32) bool) (int32, error) {
	deadline := time.Now().Add(time.Minute)
	for {
		l, err := leader()
		if err == nil && ok(l) {
			return l, nil
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return -1, fmt.Errorf("bigdata/kafka: partition 0 has no usable leader within a minute (last: %d, %v)", l, errors.Join(err, ctx.Err()))
		}
		time.Sleep(100 * time.Millisecond)
	}
}
