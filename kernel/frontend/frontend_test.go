package frontend

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/go-zeromq/zmq4"

	"github.com/dlbd/dlbd/kernel/internal/kerneltest"
	"github.com/dlbd/dlbd/kernel/internal/proc"
	"github.com/dlbd/dlbd/kernel/internal/wire"
	"github.com/dlbd/dlbd/kernel/jupyter"
	"github.com/dlbd/dlbd/kernel/protocol"
)

// TestMain lets the test binary play two more roles, chosen by
// FRONTEND_TEST_ROLE: "frontend" runs Run in front of the fake kernel (the test
// binary again, as "kernel"), "kernel" runs the fake kernel. Argument 1 is
// the connection file.
func TestMain(m *testing.M) {
	switch os.Getenv("FRONTEND_TEST_ROLE") {
	case "frontend":
		status, err := Run(context.Background(), Options{
			ConnectionFile: os.Args[1],
			Command: func(connFile string) ([]string, []string, error) {
				// os/exec keeps the last of duplicate variables.
				return []string{os.Args[0], connFile}, append(os.Environ(), "FRONTEND_TEST_ROLE=kernel"), nil
			},
		})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(status)
	case "frontend-stateful", "frontend-unavailable":
		var unavailable error
		if os.Getenv("FRONTEND_TEST_ROLE") == "frontend-unavailable" {
			unavailable = errors.New("no C compiler (gcc) on PATH")
		}
		status, err := Run(context.Background(), Options{
			ConnectionFile: os.Args[1],
			Command: func(connFile string) ([]string, []string, error) {
				return []string{os.Args[0], connFile}, append(os.Environ(), "FRONTEND_TEST_ROLE=kernel"), nil
			},
			Executor: func(*proc.Guard, []string) (Executor, error) { return newFakeExecutor(unavailable), nil },
		})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(status)
	case "kernel":
		os.Exit(runFakeKernel(os.Args[1]))
	}
	os.Exit(m.Run())
}

// testSpec returns a kernelspec running this test binary in role.
func testSpec(t testing.TB, role string) *jupyter.KernelSpec {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return &jupyter.KernelSpec{Name: "frontend-" + role, Spec: protocol.Spec{
		Argv: []string{exe, "{connection_file}"}, InterruptMode: "message",
		Env: map[string]string{"FRONTEND_TEST_ROLE": role},
	}}
}

// start starts the fake kernel behind the front end, for one test.
func start(t testing.TB, role string) *jupyter.Client {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := jupyter.Start(ctx, jupyter.Options{Spec: testSpec(t, role), ShutdownTimeout: 5 * time.Second})
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func TestForwardsAndRoutesControlReplies(t *testing.T) {
	c := start(t, "frontend")
	ex, err := c.Execute(kerneltest.Context(t, 10*time.Second), "hola")
	if err != nil || ex.Stdout() != "hola\n" {
		t.Fatalf("Execute = stdout %q, %v; want hola", ex.Stdout(), err)
	}
	for _, m := range ex.Outputs {
		for _, id := range m.Identities {
			if strings.HasPrefix(string(id), "dlbd-frontend-") {
				t.Errorf("iopub topic %q carries the front end's own identity", m.Identities)
			}
		}
	}
	// The fake kernel, like GoNB, answers control requests on shell.
	m, _ := c.NewMessage("interrupt_request", nil)
	r, err := c.Request(kerneltest.Context(t, 10*time.Second), protocol.Control, m)
	if err != nil || r.Channel != protocol.Control || r.Header.MsgType != "interrupt_reply" {
		t.Errorf("interrupt_request: reply %v on %v, error %v; want interrupt_reply on control", r, r.Channel, err)
	}
	if err := c.Ping(kerneltest.Context(t, 5*time.Second)); err != nil {
		t.Errorf("Ping: %v", err)
	}
	if errs := c.DroppedErrors(); len(errs) > 0 {
		t.Errorf("client dropped messages from the front end: %v", errs)
	}
	// A control peer with an identity of its own (none of the client's
	// sockets) gets its reply too: GoNB alone would send it to nobody.
	ci := c.Connection()
	signer, _ := wire.NewSigner(ci.SignatureScheme, []byte(ci.Key))
	peer := zmq4.NewDealer(context.Background())
	defer peer.Close()
	if err := peer.Dial(ci.Endpoint(ci.ControlPort)); err != nil {
		t.Fatal(err)
	}
	req := wire.Encode(signer, wire.Parts{Header: []byte(`{"msg_id":"ctl-1","msg_type":"interrupt_request","session":"other","username":"u","date":"","version":"5.3"}`)})
	if err := peer.SendMulti(zmq4.NewMsgFrom(req...)); err != nil {
		t.Fatal(err)
	}
	recv := make(chan zmq4.Msg, 1)
	go func() { // ends with a message, or when peer is closed
		m, _ := peer.Recv()
		recv <- m
	}()
	var got zmq4.Msg
	select {
	case got = <-recv:
	case <-time.After(5 * time.Second):
		t.Fatal("no interrupt_reply for a control peer of its own within 5 s")
	}
	if p, err := wire.Decode(signer, got.Frames); err != nil || parseHeader(p.Header).MsgType != "interrupt_reply" || parseHeader(p.ParentHeader).MsgID != "ctl-1" {
		t.Errorf("control peer got %q, %v; want the signed interrupt_reply to ctl-1", got.Frames, err)
	}
}

func TestDropsUnverifiedMessages(t *testing.T) {
	c := start(t, "frontend")
	for range 2 {
		m, _ := c.NewMessage("execute_request", protocol.ExecuteRequest{Code: "forged", UserExpressions: map[string]string{}})
		if err := c.SendWithKey(kerneltest.Context(t, 5*time.Second), protocol.Shell, m, []byte("wrong")); err != nil {
			t.Fatal(err)
		}
	}
	// Frames no kernel could parse: no delimiter, and too few frames after it.
	raw := zmq4.NewDealer(context.Background())
	defer raw.Close()
	if err := raw.Dial(c.Connection().Endpoint(c.Connection().ShellPort)); err != nil {
		t.Fatal(err)
	}
	raw.SendMulti(zmq4.NewMsgFrom([]byte("garbage")))
	raw.SendMulti(zmq4.NewMsgFrom([]byte("<IDS|MSG>"), []byte("sig"), []byte("{}")))
	ex, err := c.Execute(kerneltest.Context(t, 10*time.Second), "sigo vivo")
	if err != nil || ex.Stdout() != "sigo vivo\n" {
		t.Fatalf("after unverified messages: stdout %q, %v; want the kernel alive; output:\n%s", ex.Stdout(), err, c.Output())
	}
	// The raw socket is another peer: the front end may read its frames after
	// the execution above has finished, so wait for its log lines.
	out := c.Output()
	for deadline := time.Now().Add(10 * time.Second); !strings.Contains(out, "no <IDS|MSG> delimiter") && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		out = c.Output()
	}
	if n := strings.Count(out, "shell: dropped execute_request from peer"); n != 1 {
		t.Errorf("log names the dropped execute_request %d times; want once for the peer:\n%s", n, out)
	}
	if !strings.Contains(out, "bad message signature") || !strings.Contains(out, "no <IDS|MSG> delimiter") {
		t.Errorf("log does not say why the messages were dropped:\n%s", out)
	}
}

func TestPanicReplyNamesPanicAndLine(t *testing.T) {
	c := start(t, "frontend")
	ex, err := c.Execute(kerneltest.Context(t, 10*time.Second), "panic")
	var ce *jupyter.CellError
	if !errors.As(err, &ce) {
		t.Fatalf("Execute(panic) = %v; want a cell error", err)
	}
	want := fmt.Sprintf("boom <nil> (Cell [%d] Line 3)", ex.Reply.ExecutionCount)
	if ce.EName != "panic" || ce.EValue != want {
		t.Errorf("reply ename %q, evalue %q; want panic, %q", ce.EName, ce.EValue, want)
	}
	wantTB := []string{"panic: boom <nil>", fmt.Sprintf("\tmain.main() [[ Cell [%d] Line 3 ]]", ex.Reply.ExecutionCount), "exit status 2"}
	if strings.Join(ce.Traceback, "|") != strings.Join(wantTB, "|") {
		t.Errorf("reply traceback %q; want %q", ce.Traceback, wantTB)
	}
	if errs := ex.Errors(); len(errs) != 1 || errs[0].EValue != want || errs[0].EName != "panic" {
		t.Errorf("iopub error = %+v; want the same rewrite", errs)
	}
	// The client verifies signatures: a rewritten message not signed
	// again would have been dropped, and the execution would have failed.
	if errs := c.DroppedErrors(); len(errs) > 0 {
		t.Errorf("client dropped messages: %v", errs)
	}
}

func TestIsCompleteAnsweredByFrontEnd(t *testing.T) {
	c := start(t, "frontend")
	r, err := c.IsComplete(kerneltest.Context(t, 5*time.Second), "%%\nif true {")
	if err != nil || r.Status != protocol.Incomplete || r.Indent != "\t" {
		t.Errorf("IsComplete = %+v, %v; want incomplete with one tab", r, err)
	}
}

func TestStdinRoundTrip(t *testing.T) {
	c := start(t, "frontend")
	ex, err := c.ExecuteWith(kerneltest.Context(t, 15*time.Second), protocol.ExecuteRequest{Code: "input", AllowStdin: true}, nil)
	if err != nil || ex.Stdout() != "input: \"\"\n" {
		t.Errorf("input cell: stdout %q, %v; want the empty line the client answers", ex.Stdout(), err)
	}
}

func TestHeartbeatFollowsKernel(t *testing.T) {
	c := start(t, "frontend")
	if err := c.Ping(kerneltest.Context(t, 5*time.Second)); err != nil {
		t.Fatalf("Ping: %v", err)
	}
	if _, err := c.Execute(kerneltest.Context(t, 10*time.Second), "stop heartbeat"); err != nil {
		t.Fatal(err)
	}
	if err := c.Ping(kerneltest.Context(t, time.Second)); err == nil {
		t.Errorf("Ping answered although the kernel stopped echoing")
	}
}

// startFrontEndProcess runs the front end role as a plain child process (no
// client), returning it, the fake kernel's pid once the kernel listens, and
// the kernel's ready file. env is added to the front end's environment.
func startFrontEndProcess(t *testing.T, env ...string) (*exec.Cmd, int, string) {
	t.Helper()
	dir := t.TempDir()
	ci, err := protocol.NewConnectionInfo()
	if err != nil {
		t.Fatal(err)
	}
	connFile, ready := filepath.Join(dir, "kernel-test.json"), filepath.Join(dir, "ready")
	if err := ci.WriteFile(connFile); err != nil {
		t.Fatal(err)
	}
	exe, _ := os.Executable()
	cmd := exec.Command(exe, connFile)
	cmd.Stderr = os.Stderr
	cmd.Env = append(append(os.Environ(), "FRONTEND_TEST_ROLE=frontend", "FRONTEND_TEST_READY="+ready), env...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	for i := 0; ; i++ {
		if data, err := os.ReadFile(ready); err == nil && len(data) > 0 {
			pid, _ := strconv.Atoi(string(data))
			return cmd, pid, ready
		}
		if i == 300 {
			t.Fatal("the fake kernel did not start within 3 s")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// alive reports whether pid runs (a zombie does not).
func alive(pid int) bool {
	procs, _ := jupyter.Processes()
	for _, p := range procs {
		if p.PID == pid {
			return p.Alive()
		}
	}
	return false
}

func TestSignalsForwardedAndStatusReturned(t *testing.T) {
	cmd, kid, ready := startFrontEndProcess(t)
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	for i := 0; ; i++ {
		if _, err := os.Stat(ready + ".sigint"); err == nil {
			break
		}
		if i == 300 {
			t.Fatal("the fake kernel got no SIGINT within 3 s of the front end's")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	err := cmd.Wait()
	if cmd.ProcessState.ExitCode() != 7 {
		t.Errorf("front end exited with %v; want the fake kernel's status 7 after SIGTERM", err)
	}
	if alive(kid) {
		t.Errorf("fake kernel %d alive after the front end exited", kid)
	}
}

func TestKernelDiesWithFrontEnd(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("needs /proc")
	}
	cmd, kid, _ := startFrontEndProcess(t)
	cmd.Process.Kill()
	cmd.Wait()
	for i := 0; alive(kid); i++ {
		if i == 200 {
			t.Fatalf("fake kernel %d still alive 2 s after the front end was killed", kid)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestFrontEndStopsWhenJupyterIsGone plays a Jupyter server killed with SIGKILL:
// the process named by JPY_PARENT_PID disappears without shutting its
// kernel down. The front end must notice, stop the kernel and exit by itself.
func TestFrontEndStopsWhenJupyterIsGone(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("needs /proc")
	}
	jupyterServer := startFakeParent(t)
	cmd, kid, _ := startFrontEndProcess(t, fmt.Sprintf("JPY_PARENT_PID=%d", jupyterServer.Process.Pid))
	fe := cmd.Process.Pid
	time.Sleep(3 * parentPollInterval / 2)
	if !alive(fe) {
		t.Fatal("front end exited while its Jupyter server still runs")
	}
	jupyterServer.Process.Kill()
	jupyterServer.Wait()
	for i := 0; alive(fe); i++ { // an exited front end is a zombie until Cleanup reaps it
		if i == 1500 {
			t.Fatal("front end still running 15 s after its Jupyter server was killed")
		}
		time.Sleep(10 * time.Millisecond)
	}
	for i := 0; alive(kid); i++ {
		if i == 200 {
			t.Fatalf("fake kernel %d still alive 2 s after the front end exited", kid)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
