package gemm_test

import (
	"fmt"
	"testing"

	"github.com/dlbd/dlbd/dl/internal/kernels/gemm"
	"github.com/dlbd/dlbd/dl/internal/kernels/gemm/gemmtest"
)

// TestPortable runs the shared suite on the dtype-independent code alone:
// the naive loop and the driver with the portable Go micro-kernel, for
// both element types (the f32 and f64 packages add their assembly).
func TestPortable(t *testing.T) {
	t.Run("float32", func(t *testing.T) { gemmtest.Suite(t, portable[float32]()) })
	t.Run("float64", func(t *testing.T) { gemmtest.Suite(t, portable[float64]()) })
}

func portable[T gemm.Float]() []gemmtest.Impl[T] {
	mk := gemm.GoMicroKernel[T]()
	return []gemmtest.Impl[T]{
		{Name: "naive", Run: func(p *gemm.Args[T]) {
			if !p.Trivial() {
				gemm.Naive(p)
			}
		}},
		{Name: "go-2x4/threads=3", Run: func(p *gemm.Args[T]) { gemm.Blocked(mk, 3, p) }},
	}
}

func TestKernelName(t *testing.T) {
	for k, want := range map[int]string{gemm.KernelAuto: "auto", gemm.KernelSIMD: "simd", -1: "Kernel(-1)"} {
		if got := gemm.KernelName(k); got != want {
			t.Errorf("KernelName(%d) = %q; want %q", k, got, want)
		}
	}
}

// TestEpilogue: Args.Bias and Args.CH on the naive loop (through
// withEpilogue) and the blocked driver with the Go micro-kernel (tiles
// stored by StoreTile where K fits one block, withEpilogue elsewhere),
// on 1 and 3 goroutines.
func TestEpilogue(t *testing.T) {
	mk := gemm.GoMicroKernel[float32]()
	ks := &gemm.Kernels[float32]{Go: mk}
	gemmtest.Epilogue(t, "naive", func(p *gemm.Args[float32]) { ks.Run(gemm.KernelNaive, p) })
	for _, nt := range []int{1, 3} {
		gemmtest.Epilogue(t, fmt.Sprintf("go-2x4/threads=%d", nt), func(p *gemm.Args[float32]) {
			p.Check()
			gemm.Blocked(mk, nt, p)
		})
	}
}
