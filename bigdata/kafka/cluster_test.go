package kafka

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/dlbd/dlbd/bigdata/stream"
)

// TestClusterFailover starts 3 brokers (replication factor 3, min.insync.replicas 2),
// produces 100,000 numbered records with acks=all and kills the partition leader with
// SIGKILL after 30,000 acknowledgements: every acknowledged record is read exactly once.
// make cluster-test runs it (DLBD_CLUSTER_TEST=1): 3 JVMs, about 40 s.
func TestClusterFailover(t *testing.T) {
	if os.Getenv("DLBD_CLUSTER_TEST") == "" {
		t.Skip("starts 3 Kafka brokers: run by `make cluster-test` (DLBD_CLUSTER_TEST=1)")
	}
	if err := Installed(Config{}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	dir := t.TempDir()
	cfg := Config{Port: 19292, Brokers: 3, Dir: dir, Watch: os.Getpid()}
	t0 := time.Now()
	srv, err := Start(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := Stop(cfg); err != nil {
			t.Error(err)
		}
		if s, ok := recorded(cfg); ok {
			t.Errorf("brokers still running after Stop: %s", s.Addr)
		}
	})
	t.Logf("3 brokers up in %.1f s at %s", time.Since(t0).Seconds(), srv.Addr)
	if got, ok := Running(Config{Port: 19292, Dir: dir}); !ok || len(got.Nodes) != 3 || got.Addr != srv.Addr {
		t.Fatalf("Running found %+v, %v; want the 3 brokers at %s", got, ok, srv.Addr)
	}

	rep, err := Failover(ctx, srv, FailoverConfig{Records: 100_000, KillAfter: 30_000})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("failover: %+v", *rep)
	if rep.Acked != rep.Records || rep.Unacked != 0 {
		t.Errorf("%d of %d records acknowledged, %d failed (%s); with 2 of 3 replicas in sync every record should be", rep.Acked, rep.Records, rep.Unacked, rep.FirstErr)
	}
	if rep.Missing != 0 || rep.Duplicates != 0 || rep.Consumed != rep.Acked {
		t.Errorf("read back %d distinct records of %d acknowledged: %d missing, %d duplicated; want each exactly once", rep.Consumed, rep.Acked, rep.Missing, rep.Duplicates)
	}
	if rep.NewLeader == rep.OldLeader || rep.NewLeader < 1 || rep.OldLeader < 1 {
		t.Errorf("leader %d -> %d; want a new leader", rep.OldLeader, rep.NewLeader)
	}
	if rep.Gap <= 0 || rep.Resumed <= 0 {
		t.Errorf("longest pause %v ending %v after the kill: the failover pause should follow the kill", rep.Gap, rep.Resumed)
	}
	if srv.Nodes[rep.OldLeader-1] != nil || strings.Contains(srv.Addr, srv.Nodes[rep.NewLeader-1].Addr) == false {
		t.Errorf("after the kill the server lists %s", srv.Addr)
	}

	// The two survivors still serve the stream package's clients.
	b, err := Connect(ctx, srv.Addr)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if err := b.CreateTopic(ctx, "tras-el-fallo"); err != nil {
		t.Fatal(err)
	}
	events := stream.Events(time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC), stream.EventsConfig{N: 50, Seed: 1})
	if err := b.Publish(ctx, "tras-el-fallo", events...); err != nil {
		t.Fatalf("publish with one broker down (min.insync.replicas 2 of 3): %v", err)
	}
}

func TestBrokersConfigErrors(t *testing.T) {
	if _, err := Start(context.Background(), Config{Brokers: -1, Dir: t.TempDir()}); err == nil || !strings.Contains(err.Error(), "at least 1 broker") {
		t.Errorf("Start with Brokers -1 = %v", err)
	}
	srv := &Server{Addr: "127.0.0.1:1", Nodes: []*Node{{ID: 1}}}
	if _, err := Failover(context.Background(), srv, FailoverConfig{}); err == nil || !strings.Contains(err.Error(), "at least 3 running brokers") {
		t.Errorf("Failover on one broker = %v", err)
	}
	if _, err := srv.Node(7); err == nil || !strings.Contains(err.Error(), "node.id 7") {
		t.Errorf("Node(7) = %v", err)
	}
}
