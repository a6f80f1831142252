package f32

import (
	"fmt"
	"testing"

	"gonum.org/v1/gonum/blas"

	"github.com/dlbd/dlbd/dl/internal/kernels/gemm"
	"github.com/dlbd/dlbd/dl/internal/kernels/gemm/gemmtest"
)

// api is this package's GemmWith in the form the shared tests call.
var api = gemmtest.API[float32]{
	Op: "f32.Gemm", Kernels: kernels, SetThreads: SetThreads,
	GemmWith: func(kern int, tA, tB byte, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
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
	gemmtest.TestBatched(t, api, func(kern int, tA, tB byte, m, n, k int, alpha float32, a []float32, lda, strideA int, b []float32, ldb, strideB int, beta float32, c []float32, ldc, strideC int, batch int) {
		GemmBatchedWith(Kernel(kern), blas.Transpose(tA), blas.Transpose(tB), m, n, k, alpha, a, lda, strideA, b, ldb, strideB, beta, c, ldc, strideC, batch)
	})
}

// TestGemmEpilogue: a bias and a 16-bit output (gemm.Args.Bias, CH)
// through every public kernel (SIMD picks the AMX or AVX512_BF16 kernel
// for bfloat16 operands where the CPU has one) and through the driver
// with each assembly micro-kernel, whose tiles this package's
// AVX-512 Store writes: the same bits as the plain product plus the
// bias, rounded.
func TestGemmEpilogue(t *testing.T) {
	for _, k := range []Kernel{Auto, Naive, Blocked, Gonum, SIMD} {
		if !k.Available() {
			continue
		}
		gemmtest.Epilogue(t, k.String(), func(p *gemm.Args[float32]) { GemmArgs(k, p) })
	}
	for _, mk := range kernels.SIMD {
		for _, nt := range []int{1, 2} {
			gemmtest.Epilogue(t, fmt.Sprintf("%s/threads=%d", mk.Name, nt), func(p *gemm.Args[float32]) {
				p.Check()
				gemm.Blocked(mk, nt, p)
			})
		}
	}
}
