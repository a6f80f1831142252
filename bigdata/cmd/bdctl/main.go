// Command bdctl starts, stops and checks the local servers of the Big Data notebooks, for
// make and for people:
//
//	bdctl spark start|stop|status   the Spark Connect server (127.0.0.1:15002)
//	bdctl spark cluster start [--workers N] | stop | status
//	                                a standalone cluster (master, N workers of 1 core) and its
//	                                Spark Connect server (sc://127.0.0.1:15003)
//	bdctl kafka start|stop|status   a Kafka broker in KRaft mode (127.0.0.1:19092)
//	bdctl kafka start --brokers 3   three brokers (19092, 19094, 19096): replication factor 3,
//	                                min.insync.replicas 2
//
// Servers started here run until stopped (no watched process).
package main

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/dlbd/dlbd/bigdata/spark"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "bdctl:", err)
		os.Exit(1)
	}
}

func usage() error {
	return fmt.Errorf("usage: bdctl spark|kafka start|stop|status, bdctl spark cluster start [--workers N]|stop|status, bdctl kafka start --brokers N")
}

func run(args []string) error {
	if len(args) < 1 {
		return usage()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	switch args[0] {
	case "spark":
		if len(args) >= 3 && args[1] == "cluster" {
			return clusterCmd(ctx, args[2], args[3:])
		}
		if len(args) != 2 {
			return usage()
		}
		return sparkCmd(ctx, args[1])
	case "kafka":
		if len(args) < 2 {
			return usage()
		}
		return kafkaCmd(ctx, args[1], args[2:])
	}
	return usage()
}

func sparkCmd(ctx context.Context, verb string) error {
	switch verb {
	case "start":
		if s, ok := spark.Running(spark.Config{}); ok {
			fmt.Printf("spark: already running at %s (pid %d, log %s)\n", s.URL, s.PID, s.Log)
			return nil
		}
		t := time.Now()
		s, err := spark.Start(ctx, spark.Config{})
		if err != nil {
			return err
		}
		fmt.Printf("spark: Spark Connect server at %s in %.1f s (pid %d, log %s)\n", s.URL, time.Since(t).Seconds(), s.PID, s.Log)
		return nil
	case "stop":
		return spark.Stop(spark.Config{})
	case "status":
		if s, ok := spark.Running(spark.Config{}); ok {
			fmt.Printf("spark: running at %s (pid %d, since %s)\n", s.URL, s.PID, s.Started.Format(time.TimeOnly))
			return nil
		}
		return fmt.Errorf("spark: not running (bdctl spark start)")
	}
	return usage()
}
