package main

import (
	"context"
	"fmt"
	"time"

	"github.com/dlbd/dlbd/bigdata/kafka"
)

func kafkaCmd(ctx context.Context, verb string) error {
	switch verb {
	case "start":
		if s, ok := kafka.Running(kafka.Config{}); ok {
			fmt.Printf("kafka: already running at %s (pid %d)\n", s.Addr, s.PID)
			return nil
		}
		t := time.Now()
		s, err := kafka.Start(ctx, kafka.Config{})
		if err != nil {
			return err
		}
		fmt.Printf("kafka: broker at %s in %.1f s (pid %d, log %s)\n", s.Addr, time.Since(t).Seconds(), s.PID, s.Log)
		return nil
	case "stop":
		return kafka.Stop(kafka.Config{})
	case "status":
		if s, ok := kafka.Running(kafka.Config{}); ok {
			fmt.Printf("kafka: running at %s (pid %d)\n", s.Addr, s.PID)
			return nil
		}
		return fmt.Errorf("kafka: not running (bdctl kafka start)")
	}
	return usage()
}
