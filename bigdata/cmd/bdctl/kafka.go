package main

import (
	"context"
	"flag"
	"fmt"
	"path/filepath"
	"time"

	"github.com/dlbd/dlbd/bigdata/kafka"
)

// kafkaCmd runs `bdctl kafka start [--brokers N]|stop|status`.
func kafkaCmd(ctx context.Context, verb string, args []string) error {
	fs := flag.NewFlagSet("bdctl kafka "+verb, flag.ContinueOnError)
	brokers := fs.Int("brokers", 1, "number of brokers (3: replication factor 3, min.insync.replicas 2)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 0 || (verb != "start" && *brokers != 1) {
		return usage()
	}
	switch verb {
	case "start":
		if s, ok := kafka.Running(kafka.Config{}); ok {
			set := false
			fs.Visit(func(f *flag.Flag) { set = set || f.Name == "brokers" })
			if set && len(s.Nodes) != *brokers {
				return fmt.Errorf("kafka: %d brokers already run at %s: bdctl kafka stop first to start %d", len(s.Nodes), s.Addr, *brokers)
			}
			fmt.Printf("kafka: already running at %s (pid %d)\n", s.Addr, s.PID)
			return nil
		}
		t := time.Now()
		s, err := kafka.Start(ctx, kafka.Config{Brokers: *brokers})
		if err != nil {
			return err
		}
		if *brokers == 1 {
			fmt.Printf("kafka: broker at %s in %.1f s (pid %d, log %s)\n", s.Addr, time.Since(t).Seconds(), s.PID, s.Log)
			return nil
		}
		fmt.Printf("kafka: %d brokers at %s in %.1f s (logs in %s)\n", len(s.Nodes), s.Addr, time.Since(t).Seconds(), filepath.Dir(s.Log))
		return nil
	case "stop":
		return kafka.Stop(kafka.Config{})
	case "status":
		if s, ok := kafka.Running(kafka.Config{}); ok {
			fmt.Printf("kafka: %d broker(s) running at %s\n", len(s.Nodes), s.Addr)
			return nil
		}
		return fmt.Errorf("kafka: not running (bdctl kafka start)")
	}
	return usage()
}
