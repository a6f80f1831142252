package jupyter

import (
	"context"
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dlbd/dlbd/bigdata/spark"
	"github.com/dlbd/dlbd/kernel/internal/kerneltest"
)

// sparkURL returns the URL of a Spark Connect server for the test: $SPARK_REMOTE, the
// local one when it runs, else one the test starts (and stops at its end).
func sparkURL(t *testing.T) string {
	t.Helper()
	if u := os.Getenv(spark.RemoteEnv); u != "" {
		return u
	}
	if s, ok := spark.Running(spark.Config{}); ok {
		return s.URL
	}
	s, err := spark.Start(kerneltest.Context(t, 3*time.Minute), spark.Config{Watch: os.Getpid()})
	if err != nil {
		t.Fatalf("start a Spark Connect server (make test installs Spark: scripts/setup.sh --test): %v", err)
	}
	t.Cleanup(func() { s.Stop() })
	return s.URL
}

// engineCells opens a DuckDB database, a Spark Connect session and a NATS JetStream
// broker (store in dir) in one cell, and prints the session's id and the broker's URL.
func engineCells(sparkURL, dir string) (open, use string) {
	open = fmt.Sprintf(`import (
	"context"

	"github.com/dlbd/dlbd/bigdata/duck"
	"github.com/dlbd/dlbd/bigdata/natsbroker"
	"github.com/dlbd/dlbd/bigdata/spark"
	"github.com/dlbd/dlbd/bigdata/stream"
	"github.com/dlbd/dlbd/kernel"
)

var ctx = context.Background()
var db = kernel.Must(duck.Open(1))
var s = kernel.Must(spark.Connect(ctx, %q))
var nb = kernel.Must(natsbroker.Start(%q))
var _ stream.Event

%%%%
fmt.Println("ids", s.ID(), nb.URL())`, sparkURL, dir)
	use = `%%
fmt.Println(kernel.Must(db.Query(ctx, "SELECT 40 + 2 AS n")).Rows[0][0])
fmt.Println(kernel.Must(s.Query(ctx, "SELECT 'spark' AS x")).Rows[0][0])
if err := nb.CreateTopic(ctx, "t"); err != nil {
	panic(err)
}
if err := nb.Publish(ctx, "t", stream.Event{Key: "a", Value: 1}); err != nil {
	panic(err)
}
fmt.Println(kernel.Must(nb.Count(ctx, "t")))`
	return open, use
}

// TestEnginesLiveOnAndCloseAtShutdown: a DuckDB database, a Spark Connect session and a
// NATS broker made in one cell are used by the next (the stateful mode keeps them), and
// %reset and the kernel's shutdown close them: the Spark server no longer has the
// session (the kernel's host released it; killed, it would have left it there until the
// server's timeout), the NATS server no longer listens, and no process holds a file of its
// store open.
func TestEnginesLiveOnAndCloseAtShutdown(t *testing.T) {
	surl := sparkURL(t)
	c := startDLBDMode(t, "stateful")
	for _, end := range []string{"%reset", "shutdown"} {
		t.Run("end="+end, func(t *testing.T) {
			store := t.TempDir()
			open, use := engineCells(surl, store)
			id, natsURL := "", ""
			if _, err := fmt.Sscanf(strings.TrimSpace(run(t, c, open)), "ids %s %s", &id, &natsURL); err != nil || id == "" {
				t.Fatalf("the opening cell printed no ids (%v)", err)
			}
			if got := strings.Fields(run(t, c, use)); strings.Join(got, " ") != "42 spark 1" {
				t.Fatalf("the next cell printed %q; want 42, spark and 1 from the values made above", got)
			}
			u, err := url.Parse(natsURL)
			if err != nil {
				t.Fatal(err)
			}
			if n := openFilesUnder(t, store); n == 0 {
				t.Fatalf("no process has a file of the NATS store %s open while the broker runs: the open-file check below would prove nothing", store)
			}
			if end == "%reset" {
				run(t, c, "%reset")
			} else if err := c.ShutdownWith(kerneltest.Context(t, 30*time.Second), false); err != nil {
				t.Fatalf("shutdown: %v", err)
			}
			existed, err := spark.Release(kerneltest.Context(t, 30*time.Second), surl, id)
			if err != nil {
				t.Fatal(err)
			}
			if existed {
				t.Errorf("after %s, the Spark server still had the session %s: the kernel did not close it", end, id)
			}
			if n := openFilesUnder(t, store); n != 0 {
				t.Errorf("after %s, %d files of the NATS store are still open", end, n)
			}
			if conn, err := (&net.Dialer{Timeout: time.Second}).DialContext(context.Background(), "tcp", u.Host); err == nil {
				conn.Close()
				t.Errorf("after %s, the NATS server at %s still listens", end, natsURL)
			}
			if end == "shutdown" {
				if code := c.ExitCode(); code != 0 {
					t.Errorf("kernel exit status %d; want 0", code)
				}
				if out := c.Output(); strings.Contains(out, "closing what the cells left open") {
					t.Errorf("the host failed to close a resource:\n%s", out)
				}
			}
		})
	}
}

// openFilesUnder counts the file descriptors of this machine's processes that point
// under dir (Linux /proc; skips elsewhere).
func openFilesUnder(t *testing.T, dir string) int {
	t.Helper()
	fds, err := filepath.Glob("/proc/[0-9]*/fd/*")
	if err != nil || len(fds) == 0 {
		kerneltest.Missing(t, "cannot list open files (/proc): %v", err)
	}
	n := 0
	for _, fd := range fds {
		if target, err := os.Readlink(fd); err == nil && strings.HasPrefix(target, dir+string(filepath.Separator)) {
			n++
		}
	}
	return n
}
