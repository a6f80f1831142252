package netns

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"testing"
	"time"
)

// ForTest makes n hosts for a test or benchmark and removes them when it
// ends (t.Cleanup, also when it fails). Where namespaces cannot be made
// (not root, no ip) it skips, saying why, or fails when
// DLBD_REQUIRE_NETNS=1; any other error fails.
func ForTest(t testing.TB, n int) *Hosts {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	h, err := New(ctx, n)
	switch {
	case errors.Is(err, ErrUnavailable) && os.Getenv(RequireEnv) != "1":
		t.Skipf("%v (%s=1 makes this a failure)", err, RequireEnv)
	case err != nil:
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := h.Close(); err != nil {
			t.Error(err)
		}
	})
	return h
}

// ForMPITest is ForTest for a test that runs mpirun across the hosts: it
// also skips when Open MPI is missing, or fails when DLBD_REQUIRE_MPI=1,
// as the single-host MPI tests do.
func ForMPITest(t testing.TB, n int) *Hosts {
	t.Helper()
	if _, err := exec.LookPath("mpirun"); err != nil {
		if os.Getenv("DLBD_REQUIRE_MPI") == "1" {
			t.Fatal("mpirun not found (DLBD_REQUIRE_MPI=1): scripts/setup.sh --test installs Open MPI")
		}
		t.Skip("mpirun not found: apt-get install openmpi-bin libopenmpi3")
	}
	return ForTest(t, n)
}
