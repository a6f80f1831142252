package service

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// spec is a python3 HTTP server on addr, the smallest real server at hand.
func spec(t *testing.T, addr string, watch int) Spec {
	_, port, _ := net.SplitHostPort(addr)
	dir := t.TempDir()
	return Spec{Name: "test server", Addr: addr, Argv: []string{"python3", "-m", "http.server", "--bind", "127.0.0.1", port},
		Dir: dir, Log: filepath.Join(dir, "log"), StateFile: filepath.Join(dir, "state.json"), Watch: watch, Timeout: 20 * time.Second}
}

func TestStartLoadStop(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("needs python3")
	}
	addr := freeAddr(t)
	sp := spec(t, addr, 0)
	st, err := Start(context.Background(), sp)
	if err != nil {
		t.Fatal(err)
	}
	got := Load(sp.StateFile) // as another process would
	if got == nil || got.PID != st.PID || got.Addr != addr {
		t.Fatalf("Load = %+v; want the started server %+v", got, st)
	}
	if _, err := Start(context.Background(), sp); !errors.Is(err, ErrPortBusy) {
		t.Errorf("second Start on %s = %v; want ErrPortBusy", addr, err)
	}
	if err := got.Stop(10 * time.Second); err != nil {
		t.Fatal(err)
	}
	if Listening(addr) || Load(sp.StateFile) != nil {
		t.Error("after Stop the port still answers or the state file remains")
	}
}

func TestWatchedProcessExitStopsServer(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("needs python3")
	}
	// The watched process ends once the server listens, not after a fixed
	// time: a server slow to start on a loaded machine (python3 took over a
	// second in a CI run) was stopped before it listened, failing Start.
	watched := exec.Command("sleep", "600")
	if err := watched.Start(); err != nil {
		t.Fatal(err)
	}
	defer watched.Process.Kill()
	go watched.Wait()
	addr := freeAddr(t)
	st, err := Start(context.Background(), spec(t, addr, watched.Process.Pid))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Stop(5 * time.Second)
	if !Listening(addr) {
		t.Fatalf("Start returned but nothing listens on %s", addr)
	}
	watched.Process.Kill()
	deadline := time.Now().Add(15 * time.Second)
	for Listening(addr) && time.Now().Before(deadline) {
		time.Sleep(200 * time.Millisecond)
	}
	if Listening(addr) {
		t.Error("the server outlived the watched process")
	}
}

func TestStartFailuresDoNotHang(t *testing.T) {
	addr := freeAddr(t)
	sp := spec(t, addr, 0)
	sp.Argv = []string{"sh", "-c", "echo 'no hay memoria' >&2; exit 3"}
	_, err := Start(context.Background(), sp)
	if err == nil || !strings.Contains(err.Error(), "exited before listening") || !strings.Contains(err.Error(), "no hay memoria") {
		t.Errorf("a server that exits: err = %v; want the end of its log", err)
	}
	sp.Argv, sp.Timeout = []string{"sleep", "30"}, time.Second
	begin := time.Now()
	_, err = Start(context.Background(), sp)
	if err == nil || !strings.Contains(err.Error(), "did not listen") || time.Since(begin) > 15*time.Second {
		t.Errorf("a server that never listens: err = %v after %v; want a timeout error within seconds", err, time.Since(begin))
	}
}

func TestJava(t *testing.T) {
	if _, _, err := Java("/nonexistent/java"); !errors.Is(err, ErrNoJava) || !strings.Contains(err.Error(), "setup.sh") {
		t.Errorf("Java(missing) = %v", err)
	}
	if p, major, err := Java(""); err == nil {
		t.Log(fmt.Sprintf("java %s: version %d", p, major))
		if major < MinJava {
			t.Errorf("Java accepted version %d < %d", major, MinJava)
		}
	}
}

func TestStartAllKeepsOrderAndJoinsErrors(t *testing.T) {
	got, err := StartAll(4, func(i int) (int, error) {
		time.Sleep(time.Duration(4-i) * 5 * time.Millisecond) // finish in reverse order
		if i%2 == 1 {
			return -1, fmt.Errorf("server %d failed", i)
		}
		return 10 * i, nil
	})
	if fmt.Sprint(got) != "[0 -1 20 -1]" {
		t.Errorf("StartAll results = %v; want [0 -1 20 -1] (in order)", got)
	}
	if err == nil || !strings.Contains(err.Error(), "server 1 failed") || !strings.Contains(err.Error(), "server 3 failed") {
		t.Errorf("StartAll error = %v; want both failures", err)
	}
	if _, err := StartAll(2, func(int) (string, error) { return "ok", nil }); err != nil {
		t.Errorf("StartAll without failures = %v", err)
	}
}
