package jupyter

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dlbd/dlbd/kernel/internal/kerneltest"
	"github.com/dlbd/dlbd/kernel/internal/proc"
)

func TestStartTimeoutKillsKernel(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	// A "kernel" that never listens, and whose child ignores SIGTERM.
	_, ks := writeSpec(t, "mute", map[string]any{
		"argv": []string{"/bin/sh", "-c", "(trap '' TERM; sleep 60) & echo $! > " + pidFile + "; sleep 60"},
	})
	start := time.Now()
	_, err := Start(kerneltest.Context(t, 2*time.Second), Options{Spec: ks})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Start(kernel that never listens) = %v; want a deadline error", err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("Start took %v to give up; want about the 2 s deadline", d)
	}
	data, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatalf("the fake kernel did not record its child: %v", err)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(data)))
	// SIGKILL is delivered asynchronously: a loaded machine can show the child still
	// runnable for a moment after the group kill, so wait (bounded) for it to die.
	deadline := time.Now().Add(5 * time.Second)
	for {
		p, err := proc.Read(pid)
		if err != nil || p.State == "Z" {
			break
		}
		if time.Now().After(deadline) {
			t.Errorf("child %v of the failed kernel still alive 5 s after Start gave up; want it killed with the process group", p)
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
}
