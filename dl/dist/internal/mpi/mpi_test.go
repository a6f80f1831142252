package mpi

import (
	"errors"
	"os"
	"strings"
	"testing"
)

// TestLoad opens Debian's libmpi and reads its version; without Open MPI
// it checks that the error says what to install.
func TestLoad(t *testing.T) {
	err := Load()
	var le *LoadError
	if errors.As(err, &le) {
		if os.Getenv("DLBD_REQUIRE_MPI") == "1" {
			t.Fatal(err)
		}
		if !strings.Contains(err.Error(), "apt-get install openmpi-bin libopenmpi3") {
			t.Errorf("Load error %q does not say what to install", err)
		}
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	v, err := LibraryVersion()
	if err != nil || !strings.Contains(v, "Open MPI") {
		t.Errorf("LibraryVersion() = %q, %v; want Open MPI's", v, err)
	}
	for _, h := range []uintptr{uintptr(Float32), uintptr(Float64), uintptr(Sum), world, errorsReturn} {
		if h == 0 {
			t.Errorf("a handle is not resolved: %v", h)
		}
	}
}

func TestErrorMessage(t *testing.T) {
	e := &Error{Call: "MPI_Allreduce", Code: 15, Msg: "MPI_ERR_TRUNCATE: message truncated"}
	if got, want := e.Error(), "mpi: MPI_Allreduce: MPI_ERR_TRUNCATE: message truncated (code 15)"; got != want {
		t.Errorf("Error() = %q; want %q", got, want)
	}
}
