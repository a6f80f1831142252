package cuda

import (
	"errors"
	"fmt"
	"strings"
)

// Sentinel errors. Every error of this package wraps one of them (or none,
// for an ordinary failed call), so callers test with errors.Is.
var (
	// ErrNoDriver means libcuda.so.1 could not be loaded or initialised:
	// a machine without an NVIDIA driver, a driver too old for a symbol we
	// need, or the toolkit's stub library found instead of the real one.
	ErrNoDriver = errors.New("cuda: no usable CUDA driver")
	// ErrNoDevice means the driver loaded but reports no GPU (or the
	// ordinal asked for does not exist).
	ErrNoDevice = errors.New("cuda: no CUDA device")
	// ErrNoLibrary means a toolkit library (cuBLAS, NVRTC or NCCL) was not
	// found or lacks a symbol this package needs.
	ErrNoLibrary = errors.New("cuda: CUDA library not found")
	// ErrOutOfMemory is wrapped by a failed call whose status means
	// "out of memory" (CUDA_ERROR_OUT_OF_MEMORY, CUBLAS_STATUS_ALLOC_FAILED).
	ErrOutOfMemory = errors.New("cuda: out of memory")
)

// Error is a failed call into one of the CUDA libraries. It carries the
// call, the numeric status and the library's own name and description of
// that status, e.g.
//
//	cuda: cuMemAlloc_v2(1.0 GiB): CUDA_ERROR_OUT_OF_MEMORY (2): out of memory
type Error struct {
	Lib    string // "cuda" (driver), "cublas", "nvrtc" or "nccl"
	Call   string // the C function, e.g. "cuMemAlloc_v2"
	Detail string // the arguments that matter, e.g. "1.0 GiB"; may be empty
	Code   int    // the status the call returned
	Name   string // the status's C name, e.g. "CUDA_ERROR_OUT_OF_MEMORY"
	Msg    string // the library's description of the status
	kind   error  // sentinel returned by Unwrap; nil for an ordinary failure
}

// Error formats the failure as "cuda: CALL(DETAIL): NAME (CODE): MSG".
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("cuda: ")
	b.WriteString(e.Call)
	if e.Detail != "" {
		b.WriteString("(" + e.Detail + ")")
	}
	name := e.Name
	if name == "" {
		name = "status"
	}
	fmt.Fprintf(&b, ": %s (%d)", name, e.Code)
	if e.Msg != "" && e.Msg != e.Name {
		b.WriteString(": " + e.Msg)
	}
	return b.String()
}

// Unwrap returns ErrOutOfMemory, ErrNoDevice or ErrNoDriver when the
// status means one of those, and nil otherwise.
func (e *Error) Unwrap() error { return e.kind }

// LoadError reports a library that could not be loaded: every place that
// was tried, in order, and why the last attempts failed.
type LoadError struct {
	Lib     string   // "libcuda", "cuBLAS", "NVRTC" or "NCCL"
	Tried   []string // sonames and paths tried, in search order
	Reason  string   // the dynamic loader's message for the first failure, or the missing symbols
	Missing []string // required symbols absent from a library that did load
	kind    error    // ErrNoDriver or ErrNoLibrary
}

// Error names the library, the number of places tried and the reason.
func (e *LoadError) Error() string {
	if len(e.Missing) > 0 {
		return fmt.Sprintf("cuda: %s at %s lacks %s (too old? set DL_CUDA_LIB_DIRS to a newer one)",
			e.Lib, e.Tried[len(e.Tried)-1], strings.Join(e.Missing, ", "))
	}
	hint := "set DL_CUDA_LIB_DIRS to the folder that holds it"
	if e.kind == ErrNoDriver {
		hint = "is an NVIDIA driver installed? (a CPU-only machine has none: that is fine)"
	}
	return fmt.Sprintf("cuda: %s not found (%d places tried, first %s: %s); %s",
		e.Lib, len(e.Tried), first(e.Tried), e.Reason, hint)
}

// Unwrap returns ErrNoDriver for the driver and ErrNoLibrary otherwise.
func (e *LoadError) Unwrap() error { return e.kind }

func first(s []string) string {
	if len(s) == 0 {
		return "(none)"
	}
	return s[0]
}

// Status codes that change an error's kind. The numbers are frozen in the
// C headers (cuda.h, cublas_api.h); names and messages come from the
// libraries at run time.
const (
	cudaErrorOutOfMemory    = 2   // CUDA_ERROR_OUT_OF_MEMORY
	cudaErrorNotInit        = 3   // CUDA_ERROR_NOT_INITIALIZED
	cudaErrorStubLibrary    = 34  // CUDA_ERROR_STUB_LIBRARY: the toolkit's link-time stub, not a driver
	cudaErrorNoDevice       = 100 // CUDA_ERROR_NO_DEVICE
	cudaErrorInvalidDevice  = 101 // CUDA_ERROR_INVALID_DEVICE
	cudaErrorSystemNotReady = 802 // CUDA_ERROR_SYSTEM_NOT_READY (fabric manager not running)
	cudaErrorDriverMismatch = 803 // CUDA_ERROR_SYSTEM_DRIVER_MISMATCH: libcuda and kernel module differ
	cudaErrorCompat         = 804 // CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE
	cublasStatusAlloc       = 3   // CUBLAS_STATUS_ALLOC_FAILED
)

// driverKind classifies a driver status: which sentinel, if any, it wraps.
func driverKind(code int) error {
	switch code {
	case cudaErrorOutOfMemory:
		return ErrOutOfMemory
	case cudaErrorNoDevice, cudaErrorInvalidDevice:
		return ErrNoDevice
	case cudaErrorNotInit, cudaErrorStubLibrary, cudaErrorSystemNotReady, cudaErrorDriverMismatch, cudaErrorCompat:
		return ErrNoDriver
	}
	return nil
}

// bytesString prints a byte count the way the OOM messages do: 1.5 GiB.
func bytesString(n int64) string {
	const kib, mib, gib = 1 << 10, 1 << 20, 1 << 30
	switch {
	case n >= gib:
		return fmt.Sprintf("%.1f GiB", float64(n)/gib)
	case n >= mib:
		return fmt.Sprintf("%.1f MiB", float64(n)/mib)
	case n >= kib:
		return fmt.Sprintf("%.1f KiB", float64(n)/kib)
	}
	return fmt.Sprintf("%d B", n)
}
