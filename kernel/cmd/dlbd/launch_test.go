package main

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLaunchArguments(t *testing.T) {
	err := run(context.Background(), []string{"launch", "-repo", "/r"})
	if err == nil || !strings.Contains(err.Error(), "want exactly one connection file argument, got 0") {
		t.Errorf("launch without a connection file: %v", err)
	}
}

// TestLaunchReportsMissingKernel runs the front end's path up to the point where
// it asks package kernel for GoNB's command line, in a checkout without
// bin/gonb: the error must name the fix.
func TestLaunchReportsMissingKernel(t *testing.T) {
	repo := t.TempDir()
	conn := filepath.Join(t.TempDir(), "kernel-1.json")
	if err := os.WriteFile(conn, []byte(`{"transport":"tcp","ip":"127.0.0.1","shell_port":0,"key":"k","signature_scheme":"hmac-sha256"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	err := run(context.Background(), []string{"launch", "-repo", repo, conn})
	if err == nil || !strings.Contains(err.Error(), filepath.Join(repo, "bin", "gonb")+" not found") || !strings.Contains(err.Error(), "make kernel") {
		t.Errorf("launch in a checkout without bin/gonb: %v; want the missing binary and `make kernel`", err)
	}
	var st exitStatus
	if errors.As(err, &st) {
		t.Errorf("error %v is an exit status; want a launch failure", err)
	}
}

func TestExitStatusError(t *testing.T) {
	var err error = exitStatus(3)
	var st exitStatus
	if !errors.As(err, &st) || int(st) != 3 || err.Error() != "kernel exited with status 3" {
		t.Errorf("exitStatus(3) = %v", err)
	}
}
