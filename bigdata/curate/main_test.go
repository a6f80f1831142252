package curate

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/dlbd/dlbd/bigdata/spark"
)

// sparkURL is the Spark Connect server the live tests use: $SPARK_REMOTE, the running
// local server, or one this test binary starts and stops. Empty with -short.
var sparkURL string

func TestMain(m *testing.M) { os.Exit(run(m)) }

func run(m *testing.M) int {
	for _, a := range os.Args[1:] {
		if a == "-test.short" || a == "-test.short=true" {
			return m.Run()
		}
	}
	if sparkURL = os.Getenv(spark.RemoteEnv); sparkURL == "" {
		if s, ok := spark.Running(spark.Config{}); ok {
			sparkURL = s.URL
		} else {
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			defer cancel()
			s, err := spark.Start(ctx, spark.Config{Watch: os.Getpid()})
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				return 1
			}
			defer s.Stop()
			sparkURL = s.URL
		}
	}
	return m.Run()
}

// session connects to the test server, or skips with -short.
func session(t *testing.T) *spark.Session {
	t.Helper()
	if sparkURL == "" {
		t.Skip("needs a Spark Connect server: skipped with -short")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	s, err := spark.Connect(ctx, sparkURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}
