package spark

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/dlbd/dlbd/bigdata/internal/service"
)

func TestConnectUnreachable(t *testing.T) {
	l, _ := net.Listen("tcp", "127.0.0.1:0")
	addr := l.Addr().String()
	l.Close() // nothing listens there now
	begin := time.Now()
	_, err := Connect(context.Background(), "sc://"+addr)
	if !errors.Is(err, ErrUnreachable) || !strings.Contains(err.Error(), "spark.Ensure") {
		t.Errorf("Connect(closed port) = %v; want ErrUnreachable naming the fix", err)
	}
	if d := time.Since(begin); d > 10*time.Second {
		t.Errorf("Connect to a closed port took %v; want an error within seconds", d)
	}
	if _, err := Connect(context.Background(), "http://"+addr); err == nil || !strings.Contains(err.Error(), "sc://host:port") {
		t.Errorf("Connect(http URL) = %v; want an error showing the sc:// form", err)
	}
}

func TestConnectSilentServerDoesNotHang(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go func() { // accept and never answer
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			defer c.Close()
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	begin := time.Now()
	_, err = Connect(ctx, "sc://"+l.Addr().String())
	if !errors.Is(err, ErrUnreachable) || !strings.Contains(err.Error(), "does not answer as Spark Connect") {
		t.Errorf("Connect(silent server) = %v; want ErrUnreachable saying it is not Spark Connect", err)
	}
	if d := time.Since(begin); d > 10*time.Second {
		t.Errorf("Connect to a silent server took %v; want it bounded by the context", d)
	}
}

func TestStartErrors(t *testing.T) {
	ctx := context.Background()
	_, err := Start(ctx, Config{Java: "/nonexistent/bin/java", Dir: t.TempDir()})
	if !errors.Is(err, service.ErrNoJava) || !strings.Contains(err.Error(), "scripts/setup.sh") {
		t.Errorf("Start without Java = %v; want ErrNoJava naming scripts/setup.sh", err)
	}
	_, err = Start(ctx, Config{Home: t.TempDir(), Dir: t.TempDir()})
	if err == nil || !strings.Contains(err.Error(), "bin/spark-submit") {
		t.Errorf("Start with an empty SPARK_HOME = %v; want an error naming bin/spark-submit", err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	port := l.Addr().(*net.TCPAddr).Port
	_, err = Start(ctx, Config{Port: port, Dir: t.TempDir()})
	if !errors.Is(err, service.ErrPortBusy) || !strings.Contains(err.Error(), fmt.Sprint(port)) {
		t.Errorf("Start on a busy port = %v; want ErrPortBusy naming the port", err)
	}
}
