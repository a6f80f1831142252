package cuda

import (
	"errors"
	"strings"
	"testing"
)

func TestErrorFormat(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  *Error
		want string
	}{
		{"full", &Error{Lib: "cuda", Call: "cuMemAlloc_v2", Detail: "1.0 GiB on cuda:0", Code: 2,
			Name: "CUDA_ERROR_OUT_OF_MEMORY", Msg: "out of memory"},
			"cuda: cuMemAlloc_v2(1.0 GiB on cuda:0): CUDA_ERROR_OUT_OF_MEMORY (2): out of memory"},
		{"no-detail", &Error{Call: "cuInit", Code: 100, Name: "CUDA_ERROR_NO_DEVICE", Msg: "no CUDA-capable device is detected"},
			"cuda: cuInit: CUDA_ERROR_NO_DEVICE (100): no CUDA-capable device is detected"},
		{"no-name", &Error{Call: "cuInit", Code: 999}, "cuda: cuInit: status (999)"},
		{"msg-equals-name", &Error{Call: "nvrtcCompileProgram", Code: 6, Name: "NVRTC_ERROR_COMPILATION", Msg: "NVRTC_ERROR_COMPILATION"},
			"cuda: nvrtcCompileProgram: NVRTC_ERROR_COMPILATION (6)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.err.Error(); got != tc.want {
				t.Errorf("Error() = %q; want %q", got, tc.want)
			}
		})
	}
}

func TestErrorKinds(t *testing.T) {
	for _, tc := range []struct {
		code int
		want error
	}{
		{2, ErrOutOfMemory}, {100, ErrNoDevice}, {101, ErrNoDevice}, {34, ErrNoDriver}, {803, ErrNoDriver}, {1, nil}, {700, nil},
	} {
		err := drvCheck(int32(tc.code), "cuTest", "")
		if got := errors.Unwrap(err); got != tc.want {
			t.Errorf("drvCheck(%d) unwraps to %v; want %v", tc.code, got, tc.want)
		}
	}
	if drvCheck(0, "cuTest", "") != nil {
		t.Error("drvCheck(CUDA_SUCCESS) must be nil")
	}
	if err := blasCheck(3, "cublasCreate_v2", ""); !errors.Is(err, ErrOutOfMemory) ||
		!strings.Contains(err.Error(), "CUBLAS_STATUS_ALLOC_FAILED (3)") {
		t.Errorf("blasCheck(ALLOC_FAILED) = %v; want CUBLAS_STATUS_ALLOC_FAILED wrapping ErrOutOfMemory", err)
	}
	if err := ncclCheck(5, "ncclAllReduce", "rank 0/2", 0); !strings.Contains(err.Error(), "ncclAllReduce(rank 0/2): ncclInvalidUsage (5)") {
		t.Errorf("ncclCheck(5) = %q; want the call, its detail and ncclInvalidUsage", err)
	}
}

func TestLoadErrorFormat(t *testing.T) {
	e := &LoadError{Lib: "libcuda", Tried: []string{"libcuda.so.1", "/usr/local/nvidia/lib64/libcuda.so.1"},
		Reason: "libcuda.so.1: cannot open shared object file: No such file or directory", kind: ErrNoDriver}
	want := "cuda: libcuda not found (2 places tried, first libcuda.so.1: libcuda.so.1: cannot open shared object file: " +
		"No such file or directory); is an NVIDIA driver installed? (a CPU-only machine has none: that is fine)"
	if e.Error() != want {
		t.Errorf("Error() =\n%q\nwant\n%q", e.Error(), want)
	}
	if !errors.Is(e, ErrNoDriver) {
		t.Error("a driver LoadError must wrap ErrNoDriver")
	}
	m := &LoadError{Lib: "cuBLAS", Tried: []string{"/x/libcublas.so.11"}, Missing: []string{"cublasGemmEx"}, kind: ErrNoLibrary}
	if got := m.Error(); !strings.Contains(got, "cuBLAS at /x/libcublas.so.11 lacks cublasGemmEx") || !errors.Is(m, ErrNoLibrary) {
		t.Errorf("missing-symbol LoadError = %q", got)
	}
}

func TestBytesString(t *testing.T) {
	for n, want := range map[int64]string{512: "512 B", 2048: "2.0 KiB", 3 << 20: "3.0 MiB", 80 << 30: "80.0 GiB"} {
		if got := bytesString(n); got != want {
			t.Errorf("bytesString(%d) = %q; want %q", n, got, want)
		}
	}
}
