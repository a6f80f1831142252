package frontend

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/go-zeromq/zmq4"
	"go.uber.org/goleak"

	"github.com/dlbd/dlbd/kernel/internal/wire"
)

// TestRunLeavesNoGoroutine runs the front end in this process in front of the
// fake kernel, passes one request through it, ends it with ctx, and checks
// that every goroutine it started (forwarding loops, signal relay, the
// process watcher, zmq4's own) has ended. One is exempt: in zmq4 v0.17.0
// closing a PUB socket never stops its writer goroutine (socket.Close does
// not call pubMWriter.Close); Run makes one PUB socket, and the process
// exits right after Run returns.
func TestRunLeavesNoGoroutine(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent(),
		goleak.IgnoreAnyFunction("github.com/go-zeromq/zmq4.(*pubMWriter).run"))
	path, ci := connFile(t)
	ready := filepath.Join(t.TempDir(), "ready")
	exe, _ := os.Executable()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	type result struct {
		status int
		err    error
	}
	done := make(chan result, 1)
	go func() {
		status, err := Run(ctx, Options{ConnectionFile: path, Log: os.Stderr, Command: func(f string) ([]string, []string, error) {
			return []string{exe, f}, append(os.Environ(), "FRONTEND_TEST_ROLE=kernel", "FRONTEND_TEST_READY="+ready), nil
		}})
		done <- result{status, err}
	}()
	signer, _ := wire.NewSigner(ci.SignatureScheme, []byte(ci.Key))
	dealer := zmq4.NewDealer(context.Background(), zmq4.WithDialerRetry(10*time.Millisecond), zmq4.WithDialerMaxRetries(300))
	if err := dealer.Dial(ci.Endpoint(ci.ShellPort)); err != nil {
		t.Fatal(err)
	}
	req := wire.Encode(signer, wire.Parts{Header: []byte(`{"msg_id":"leak-1","msg_type":"kernel_info_request","session":"s","username":"u","date":"","version":"5.3"}`)})
	if err := dealer.SendMulti(zmq4.NewMsgFrom(req...)); err != nil {
		t.Fatal(err)
	}
	m, err := dealer.Recv()
	dealer.Close()
	if err != nil {
		t.Fatalf("no kernel_info_reply through the front end: %v", err)
	}
	if p, err := wire.Decode(signer, m.Frames); err != nil || parseHeader(p.Header).MsgType != "kernel_info_reply" {
		t.Fatalf("reply %q, %v; want a signed kernel_info_reply", m.Frames, err)
	}
	cancel()
	r := <-done
	if r.err != nil || r.status != 7 {
		t.Errorf("Run = %d, %v; want the fake kernel's status 7 after SIGTERM", r.status, r.err)
	}
}
