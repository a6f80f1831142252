package frontend

import (
	"os/exec"
	"testing"
	"time"

	"go.uber.org/goleak"
)

// startFakeParent starts a long sleep standing in for the Jupyter server and
// returns it; the test kills and reaps it when it wants the parent gone.
func startFakeParent(t *testing.T) *exec.Cmd {
	t.Helper()
	cmd := exec.Command("sleep", "60")
	if err := cmd.Start(); err != nil {
		t.Skipf("cannot start a stand-in parent process: %v", err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	return cmd
}

func TestWatchParentClosesWhenParentExits(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	parent := startFakeParent(t)
	stop := make(chan struct{})
	defer close(stop)
	gone := watchParent(parent.Process.Pid, 10*time.Millisecond, stop)

	select {
	case <-gone:
		t.Fatal("watchParent reported the parent gone while it is still running")
	case <-time.After(100 * time.Millisecond):
	}

	if err := parent.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = parent.Wait() // reaped: the pid no longer exists
	select {
	case <-gone:
	case <-time.After(10 * time.Second):
		t.Fatal("watchParent did not report the parent gone 10 s after it exited")
	}
}

func TestWatchParentEndsOnStop(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	parent := startFakeParent(t)
	stop := make(chan struct{})
	gone := watchParent(parent.Process.Pid, 10*time.Millisecond, stop)
	close(stop)
	// VerifyNone (deferred) retries until the watcher goroutine has returned;
	// the channel itself stays open because the parent never left.
	time.Sleep(50 * time.Millisecond)
	select {
	case <-gone:
		t.Fatal("watchParent closed its channel although the parent is alive")
	default:
	}
}

func TestWatchParentZeroPidWatchesNothing(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	gone := watchParent(0, time.Millisecond, nil)
	select {
	case <-gone:
		t.Fatal("watchParent(0) closed its channel; it must watch nothing")
	case <-time.After(20 * time.Millisecond):
	}
}

func TestJupyterParentPrefersJPYParentPID(t *testing.T) {
	t.Setenv("JPY_PARENT_PID", "4242")
	if got := jupyterParent(); got != 4242 {
		t.Fatalf("jupyterParent() = %d with JPY_PARENT_PID=4242, want 4242", got)
	}
	t.Setenv("JPY_PARENT_PID", "not-a-pid")
	if got := jupyterParent(); got <= 1 {
		t.Fatalf("jupyterParent() = %d with a bad JPY_PARENT_PID, want the front end's parent pid", got)
	}
}
