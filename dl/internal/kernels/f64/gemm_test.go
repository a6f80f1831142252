package f64

import (
	"github.com/dlbd/dlbd/dl/internal/kernels/gemm"
	"testing"

	"gonum.org/v1/gonum/blas"

	"github.com/dlbd/dlbd/dl/internal/kernels/gemm/gemmtest"
)

// api is this package's GemmWith in the form the shared tests call.
var api = gemmtest.API[float64]{
	Op: "f64.Gemm", Kernels: kernels, SetThreads: SetThreads,
	GemmWith: func(kern int, tA, tB byte, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
		GemmWith(Kernel(kern), blas.Transpose(tA), blas.Transpose(tB), m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
	},
}

// TestGemm runs every kernel and micro-kernel through the shared suite.
func TestGemm(t *testing.T) { gemmtest.TestAPI(t, api) }

func TestKernelString(t *testing.T) {
	for k, want := range map[Kernel]string{Auto: "auto", Naive: "naive", Blocked: "blocked", Gonum: "gonum", SIMD: "simd", 9: "Kernel(9)"} {
		if got := k.String(); got != want {
			t.Errorf("Kernel(%d).String() = %q; want %q", int(k), got, want)
		}
	}
	if Kernel(9).Available() {
		t.Errorf("Kernel(9).Available() = true; want false")
	}
}

func TestSetThreads(t *testing.T) {
	defer gemm.SetDynamic(gemm.SetDynamic(false)) // the setting as it is, whatever the machine's load
	defer SetThreads(0)
	SetThreads(0)
	if prev := SetThreads(3); prev != 0 {
		t.Errorf("SetThreads(3) after SetThreads(0) returned %d; want the previous setting 0", prev)
	}
	if got := Threads(); got != 3 {
		t.Errorf("Threads() after SetThreads(3) = %d; want 3", got)
	}
	if prev := SetThreads(-1); prev != 3 {
		t.Errorf("SetThreads(-1) returned %d; want the previous setting 3", prev)
	}
	if got := Threads(); got < 1 {
		t.Errorf("Threads() after reset = %d; want GOMAXPROCS", got)
	}
}
func TestGemmBatched(t *testing.T) {
	gemmtest.TestBatched(t, api, func(kern int, tA, tB byte, m, n, k int, alpha float64, a []float64, lda, strideA int, b []float64, ldb, strideB int, beta float64, c []float64, ldc, strideC int, batch int) {
		GemmBatchedWith(Kernel(kern), blas.Transpose(tA), blas.Transpose(tB), m, n, k, alpha, a, lda, strideA, b, ldb, strideB, beta, c, ldc, strideC, batch)
	})
}
