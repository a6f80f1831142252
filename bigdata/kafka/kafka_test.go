package kafka

import (
	"context"
	"encoding/base64"
	"errors"
	"net"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/dlbd/dlbd/bigdata/internal/service"
	"github.com/dlbd/dlbd/bigdata/stream"
)

func TestStartErrors(t *testing.T) {
	ctx := context.Background()
	if _, err := Start(ctx, Config{Java: "/nonexistent/java", Dir: t.TempDir()}); !errors.Is(err, service.ErrNoJava) {
		t.Errorf("Start without Java = %v; want ErrNoJava", err)
	}
	if _, err := Start(ctx, Config{Libs: t.TempDir(), Dir: t.TempDir()}); err == nil || !strings.Contains(err.Error(), "scripts/setup.sh") {
		t.Errorf("Start without jars = %v; want an error naming scripts/setup.sh", err)
	}
	if _, err := Connect(ctx, "127.0.0.1:1"); err == nil || !strings.Contains(err.Error(), "no broker answers") {
		t.Errorf("Connect to a closed port = %v", err)
	}
}

// TestClusterIDNeverAnOption draws enough ids that about 30 of them would start with '-'
// without the redraw (one in 64), and checks none does and each decodes to 16 bytes.
func TestClusterIDNeverAnOption(t *testing.T) {
	for i := 0; i < 2000; i++ {
		id, err := newClusterID()
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasPrefix(id, "-") {
			t.Fatalf("cluster id %q starts with '-': kafka-storage would read it as an option", id)
		}
		if raw, err := base64.RawURLEncoding.DecodeString(id); err != nil || len(raw) != 16 {
			t.Fatalf("cluster id %q: %d bytes, %v; want 16 bytes of URL-safe base64", id, len(raw), err)
		}
	}
}

func TestWindowsThroughKafka(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a Kafka broker: skipped with -short")
	}
	if err := Installed(Config{}); err != nil {
		t.Skip(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	s, ok := Running(Config{})
	if !ok {
		l, err := net.Listen("tcp", "127.0.0.1:0") // a free port pair, clear of a shared broker
		if err != nil {
			t.Fatal(err)
		}
		port := l.Addr().(*net.TCPAddr).Port
		l.Close()
		s, err = Start(ctx, Config{Port: port, Dir: t.TempDir(), Watch: os.Getpid()})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Stop()
	}
	b, err := Connect(ctx, s.Addr)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	events := stream.Events(time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC), stream.EventsConfig{N: 600, Seed: 2})
	rep, err := stream.Run(ctx, b, events, stream.Config{Topic: "sensores", Rate: 2000, Trigger: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	want, late := stream.Offline(events, time.Second, 500*time.Millisecond)
	if len(rep.Windows) != len(want) || rep.Late != late {
		t.Fatalf("Kafka: %d windows, %d late; want %d, %d", len(rep.Windows), rep.Late, len(want), late)
	}
	for i := range want {
		if rep.Windows[i].Count != want[i].Count || rep.Windows[i].Sum != want[i].Sum {
			t.Errorf("window %d = %+v; want %+v", i, rep.Windows[i], want[i])
		}
	}
}
