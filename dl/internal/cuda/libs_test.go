package cuda

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// needLib skips when a toolkit library is absent (CPU machines and CI
// usually lack them), except under DL_REQUIRE_CUDA=1, where it fails.
// These tests need no GPU: cuBLAS, NVRTC and NCCL load without one, and
// NVRTC even compiles. Point DL_CUDA_LIB_DIRS or PYTHONPATH at NVIDIA's
// wheels (pip install --target DIR nvidia-cuda-nvrtc nvidia-cublas
// nvidia-nccl-cu13) to run them on a laptop.
func needLib(t *testing.T, load func() error) {
	t.Helper()
	if err := load(); err != nil {
		if os.Getenv("DL_REQUIRE_CUDA") == "1" {
			t.Fatalf("DL_REQUIRE_CUDA=1 but: %v", err)
		}
		if !errors.Is(err, ErrNoLibrary) {
			t.Fatalf("a missing library must be ErrNoLibrary, got %v", err)
		}
		t.Skipf("skipped: %v", err)
	}
}

// TestRealLibrarySymbols binds every table against the real libraries:
// all required symbols resolve, and the legacy trap exists (libcublas
// exports a handle-less "cublasSgemm" beside "cublasSgemm_v2").
func TestRealLibrarySymbols(t *testing.T) {
	for _, tc := range []struct {
		lib  *library
		load func() error
	}{{nvrtc, LoadNVRTC}, {cublas, LoadBLAS}, {nccl, LoadNCCL}} {
		t.Run(tc.lib.spec.display, func(t *testing.T) {
			needLib(t, tc.load)
			t.Logf("loaded %s", tc.lib.path)
			for _, s := range tc.lib.syms {
				if !s.optional && !bound(s.fn) {
					t.Errorf("%s: required symbol not bound", s.names[0])
				}
			}
		})
	}
	t.Run("cublas-legacy-api-exists", func(t *testing.T) {
		needLib(t, LoadBLAS)
		h, err := dlopen(cublas.path)
		if err != nil {
			t.Fatal(err)
		}
		legacy, ok := dlsym(h, "cublasSgemm")
		if !ok {
			t.Skip("this cuBLAS no longer exports the legacy cublasSgemm: blas.go's trap comment is out of date")
		}
		if v2, _ := dlsym(h, "cublasSgemm_v2"); v2 == legacy {
			t.Error("cublasSgemm and cublasSgemm_v2 are the same function here: the trap comment in blas.go is wrong")
		}
	})
}

func TestRealLibraryErrorNames(t *testing.T) {
	t.Run("cublas", func(t *testing.T) {
		needLib(t, LoadBLAS)
		if err := blasCheck(3, "cublasCreate_v2", ""); !strings.Contains(err.Error(), "CUBLAS_STATUS_ALLOC_FAILED (3)") {
			t.Errorf("blasCheck(3) = %q; want the library's name for status 3", err)
		}
	})
	t.Run("nvrtc", func(t *testing.T) {
		needLib(t, LoadNVRTC)
		if err := nvrtcCheck(6, "nvrtcCompileProgram", ""); !strings.Contains(err.Error(), "NVRTC_ERROR_COMPILATION (6)") {
			t.Errorf("nvrtcCheck(6) = %q", err)
		}
	})
	t.Run("nccl", func(t *testing.T) {
		needLib(t, LoadNCCL)
		v, err := NCCLVersion()
		if err != nil || v < 21000 {
			t.Errorf("NCCLVersion() = %d, %v; want >= 2.10 (bf16 and Avg)", v, err)
		}
		if err := ncclCheck(4, "ncclAllReduce", "", 0); !strings.Contains(err.Error(), "ncclInvalidArgument (4): invalid argument") {
			t.Errorf("ncclCheck(4) = %q; want the library's message", err)
		}
	})
}

const testKernel = `extern "C" __global__ void scale(float* x, float a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= a;
}`

func TestNVRTCCompile(t *testing.T) {
	needLib(t, LoadNVRTC)
	cache := t.TempDir()
	t.Setenv("DL_CUDA_CACHE", cache)
	ma, mi, err := NVRTCVersion()
	if err != nil {
		t.Fatal(err)
	}
	archs, err := SupportedArchs()
	if err != nil || len(archs) == 0 {
		t.Fatalf("SupportedArchs() = %v, %v", archs, err)
	}
	t.Logf("NVRTC %d.%d supports %v", ma, mi, archs)
	target, err := TargetFor(90, archs)
	if err != nil {
		t.Fatal(err)
	}
	im, err := Compile(testKernel, "scale.cu", target)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(im.Data, []byte("\x7fELF")) {
		t.Errorf("CUBIN for %s does not start with an ELF header: % x", target, im.Data[:8])
	}
	if again, _ := Compile(testKernel, "scale.cu", target); again != im {
		t.Error("a second Compile of the same source must come from the cache")
	}
	// A new process finds it on disk: empty the in-memory cache and compile again.
	if files, _ := filepath.Glob(filepath.Join(cache, "*."+target)); len(files) != 1 {
		t.Fatalf("disk cache holds %q; want one .%s file", files, target)
	}
	compiledMu.Lock()
	clear(compiled)
	compiledMu.Unlock()
	fromDisk, err := Compile(testKernel, "scale.cu", target)
	if err != nil || !bytes.Equal(fromDisk.Data, im.Data) || fromDisk.Target != target {
		t.Errorf("Compile from the disk cache = %v, %v; want the same %d-byte CUBIN", fromDisk, err, len(im.Data))
	}
	ptx, err := Compile(testKernel, "scale.cu", "compute_"+target[len("sm_"):])
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(ptx.Data, []byte(".entry scale(")) || ptx.Data[len(ptx.Data)-1] != 0 {
		t.Errorf("PTX should declare .entry scale( and end in NUL:\n%s", ptx.Data)
	}
	_, err = Compile("extern \"C\" __global__ void broken(float* x) { x[0] = undefined_name; }", "broken.cu", target)
	var ce *CompileError
	if !errors.As(err, &ce) || !strings.Contains(ce.Log, "undefined_name") || !strings.Contains(err.Error(), "broken.cu") {
		t.Errorf("Compile(broken) = %v; want a *CompileError whose log names undefined_name", err)
	}
	if !slices.Contains(archs, 90) {
		t.Errorf("NVRTC without sm_90 (the course's H200/H100): %v", archs)
	}
}
