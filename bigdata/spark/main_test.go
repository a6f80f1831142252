package spark

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"
)

// sharedURL is the server the live tests use: $SPARK_REMOTE (make test starts one), else a
// local server this test binary starts and stops. Empty with -short.
var sharedURL string

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	if short() {
		return m.Run()
	}
	sharedURL = os.Getenv(RemoteEnv)
	if sharedURL == "" {
		if s, ok := Running(Config{}); ok {
			sharedURL = s.URL
		} else {
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			defer cancel()
			s, err := Start(ctx, Config{Watch: os.Getpid()})
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				return 1
			}
			defer s.Stop()
			sharedURL = s.URL
		}
	}
	return m.Run()
}

// short reports -short without flag.Parse having run in TestMain.
func short() bool {
	for _, a := range os.Args[1:] {
		if a == "-test.short" || a == "-test.short=true" {
			return true
		}
	}
	return false
}

// session connects to the shared server, or skips with -short.
func session(t *testing.T) *Session {
	t.Helper()
	if sharedURL == "" {
		t.Skip("needs a Spark Connect server: skipped with -short")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	s, err := Connect(ctx, sharedURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}
