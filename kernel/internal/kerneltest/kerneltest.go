// Package kerneltest holds the helpers that the tests of the kernel
// packages share: skipping when the installed kernel is missing, finding the
// checkout, writing throw-away kernelspecs.
//
// # Overview
//
// Tests that need the kernel `make kernel` installs call [Missing] when it
// is absent: they skip, or fail under DLBD_REQUIRE_KERNEL=1 (`make test`).
// [RepoRoot] finds the checkout and [WriteSpec] writes a kernelspec into a
// temporary Jupyter data directory.
//
// # Errors
//
// Every helper fails the test (t.Fatal) on an environment error.
//
// # Concepts
//
//   - Jupyter data directory: a directory whose kernels/<name>/kernel.json
//     files are kernelspecs (https://jupyter-client.readthedocs.io/en/latest/kernels.html#kernel-specs).
package kerneltest

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/dlbd/dlbd/internal/checkout"
)

// Missing skips the test because a prerequisite is absent, or fails it when
// DLBD_REQUIRE_KERNEL=1 (set by `make test`, where everything must exist).
func Missing(t testing.TB, format string, args ...any) {
	t.Helper()
	if os.Getenv("DLBD_REQUIRE_KERNEL") == "1" {
		t.Fatalf("DLBD_REQUIRE_KERNEL=1 but "+format, args...)
	}
	t.Skipf(format+" (set DLBD_REQUIRE_KERNEL=1 to make this a failure)", args...)
}

// RepoRoot returns the dlbd checkout holding the working directory.
func RepoRoot(t testing.TB) string {
	t.Helper()
	dir, err := checkout.Find(".")
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// WriteSpec writes kernelJSON as kernels/<name>/kernel.json under a fresh
// temporary directory and returns that directory (a Jupyter data dir).
func WriteSpec(t testing.TB, name, kernelJSON string) string {
	t.Helper()
	dataDir := t.TempDir()
	dir := filepath.Join(dataDir, "kernels", name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "kernel.json"), []byte(kernelJSON), 0o644); err != nil {
		t.Fatal(err)
	}
	return dataDir
}

// Context returns a context that ends after d or at the end of the test.
func Context(t testing.TB, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}
