package main

import (
	"context"
	"flag"
	"fmt"
	"time"

	"github.com/dlbd/dlbd/bigdata/spark"
)

// clusterCmd runs `bdctl spark cluster start|stop|status`.
func clusterCmd(ctx context.Context, verb string, args []string) error {
	fs := flag.NewFlagSet("bdctl spark cluster "+verb, flag.ContinueOnError)
	workers := fs.Int("workers", 2, "number of workers (each a JVM with 1 core)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 0 || (verb != "start" && *workers != 2) {
		return usage()
	}
	cfg := spark.ClusterConfig{Workers: *workers}
	switch verb {
	case "start":
		if c, ok := spark.RunningCluster(cfg); ok {
			fmt.Printf("spark cluster: already running at %s (master %s)\n", c.URL, c.Master)
			return nil
		}
		t := time.Now()
		c, err := spark.StartCluster(ctx, cfg)
		if err != nil {
			return err
		}
		fmt.Printf("spark cluster: master %s (UI %s), %d workers, Spark Connect at %s (driver UI %s) in %.1f s\n",
			c.Master, c.MasterUI, len(c.Workers), c.URL, c.DriverUI, time.Since(t).Seconds())
		fmt.Printf("  notebooks: SPARK_REMOTE=%s make notebook\n", c.URL)
		return nil
	case "stop":
		return spark.StopCluster(cfg)
	case "status":
		c, ok := spark.RunningCluster(cfg)
		if !ok {
			return fmt.Errorf("spark cluster: not running (bdctl spark cluster start)")
		}
		st, err := c.Status(ctx)
		if err != nil {
			return err
		}
		fmt.Printf("spark cluster: Spark Connect at %s, master %s, %d alive workers, %d/%d cores used\n",
			c.URL, c.Master, st.AliveWorkers, st.CoresUsed, st.Cores)
		return nil
	}
	return usage()
}
