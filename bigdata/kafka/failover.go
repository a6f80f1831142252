package kafka

import (
	"context"
	"fmt"
	"time"

	"github.com/dlbd/dlbd/bigdata/internal/linked"
)

// FailoverConfig configures Failover.
type FailoverConfig struct {
	Topic     string // created afresh (deleted first if it exists); default "failover"
	Records   int    // numbered records to produce; default 100,000
	KillAfter int    // kill the partition leader after this many acknowledgements; default 30 % of Records
}

// FailoverReport is what Failover measured.
type FailoverReport struct {
	Records     int // records produced
	Acked       int // acknowledged by the cluster (acks=all: every in-sync replica has them)
	Unacked     int // whose production failed (FirstErr says why)
	Consumed    int // distinct records a consumer read back
	Duplicates  int // records read more than once
	Missing     int // acknowledged records never read: data lost
	KilledAfter int // acknowledgements before the leader was killed

	OldLeader, NewLeader int32 // node.id of the partition leader before and after

	Gap     time.Duration // longest time between two consecutive acknowledgements: the failover pause
	Resumed time.Duration // from the kill to the acknowledgement that ended that pause
	Elapsed time.Duration // from the first record produced to the last consumed

	FirstErr string // the first production error, if any
}

// Failover is a failover drill on a cluster of 3 or more brokers (Config.Brokers): an
// idempotent producer with acks=all writes numbered records to a one-partition topic
// (replication factor 3, min.insync.replicas 2) while a consumer reads them; after
// KillAfter acknowledgements the partition leader is killed with SIGKILL. Kafka elects a
// new leader among the in-sync replicas, the producer retries there, and the report says
// whether every acknowledged record was read exactly once and how long writing paused.
// The killed broker stays down (its entry in srv.Nodes becomes nil).
func Failover(ctx context.Context, srv *Server, cfg FailoverConfig) (*FailoverReport, error) {
	alive := 0
	for _, n := range srv.Nodes {
		if n != nil {
			alive++
		}
	}
	if alive < 3 {
		return nil, fmt.Errorf("bigdata/kafka: Failover needs a cluster of at least 3 running brokers (Config{Brokers: 3}), %s has %d", srv.Addr, alive)
	}
	if cfg.Topic == "" {
		cfg.Topic = "failover"
	}
	if cfg.Records == 0 {
		cfg.Records = 100_000
	}
	if cfg.KillAfter == 0 {
		cfg.KillAfter = cfg.Records * 3 / 10
	}
	drill, err := linked.KafkaFailover.Get()
	if err != nil {
		return nil, err
	}
	kill := func(leader int32) error {
		n, err := srv.Node(leader)
		if err != nil {
			return err
		}
		if err := n.Kill(); err != nil {
			return err
		}
		srv.Nodes[n.ID-1] = nil
		srv.fill()
		return nil
	}
	rep, err := drill(ctx, srv.Addr, cfg.Topic, cfg.Records, cfg.KillAfter, kill)
	if rep == nil {
		return nil, err
	}
	r := FailoverReport(*rep)
	return &r, err
}
