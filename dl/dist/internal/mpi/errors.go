package mpi

import (
	"fmt"
	"strings"
)

// Error is a failed MPI call.
type Error struct {
	Call string // e.g. "MPI_Allreduce"
	Code int    // the MPI error code
	Msg  string // MPI_Error_string's text
}

// Error returns e.g. "mpi: MPI_Allreduce: MPI_ERR_TRUNCATE: message truncated (code 15)".
func (e *Error) Error() string {
	return fmt.Sprintf("mpi: %s: %s (code %d)", e.Call, e.Msg, e.Code)
}

// LoadError says that no usable libmpi was found.
type LoadError struct {
	Tried  []string // what was tried, in order
	Reason string   // the first loader error, or the missing symbols
}

// Error says what to install.
func (e *LoadError) Error() string {
	return fmt.Sprintf("mpi: cannot load Open MPI (tried %s): %s; install it with: sudo apt-get install openmpi-bin libopenmpi3 "+
		"(or set DLBD_LIBMPI to the path of libmpi.so.40)", strings.Join(e.Tried, ", "), e.Reason)
}

// check turns an MPI return code into nil or an *Error.
func check(rc int32, call string) error {
	if rc == 0 {
		return nil
	}
	return &Error{Call: call, Code: int(rc), Msg: errorString(rc)}
}

// errorString is MPI_Error_string.
func errorString(rc int32) string {
	if mpiErrorString == nil {
		return "unknown error"
	}
	buf := make([]byte, 256) // MPI_MAX_ERROR_STRING
	var n int32
	if mpiErrorString(rc, &buf[0], &n) != 0 || n <= 0 || int(n) > len(buf) {
		return "unknown error"
	}
	return string(buf[:n])
}
