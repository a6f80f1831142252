//go:build !dlbd_noasm

package f32

import (
	"testing"

	"github.com/dlbd/dlbd/dl/internal/kernels/gemm"
	"github.com/dlbd/dlbd/dl/internal/kernels/gemm/gemmtest"
)

// TestPackAVX512 checks the assembly packing against gemm.PackA/PackB.
func TestPackAVX512(t *testing.T) {
	if !haveAVX512 {
		t.Skip("no AVX-512")
	}
	gemmtest.PackSuite(t, gemmtest.PackFuncs[float32]{MR: 14, NR: 32, PackA: packA512, PackB: packB512})
	t.Run("8x48", func(t *testing.T) {
		gemmtest.PackSuite(t, gemmtest.PackFuncs[float32]{MR: 8, NR: 48, PackA: packA512, PackB: packB512})
	})
}

// TestPackAVX2 checks the AVX2 kernel's packing against gemm.PackA and
// gemm.PackB.
func TestPackAVX2(t *testing.T) {
	if !haveAVX2 {
		t.Skip("no AVX2 with FMA")
	}
	gemmtest.PackSuite(t, gemmtest.PackFuncs[float32]{MR: 6, NR: 16, PackA: packA6, PackB: packB16})
}

// TestKernelByShape checks which micro-kernel products of float32
// operands take: 8x48 where its tiles leave clearly less padding (the
// 16-, 32- and 64-row products of convolutions, the 144-row input
// gradient), 14x32 elsewhere (rows that 14 divides, short wide rows).
func TestKernelByShape(t *testing.T) {
	if !haveAVX512 {
		t.Skip("no AVX-512")
	}
	for _, c := range []struct {
		m, n, k int
		want    string
	}{
		{16, 838, 144, "avx512-8x48"},
		{32, 2688, 288, "avx512-8x48"},
		{16, 144, 1676, "avx512-8x48"},
		{144, 2156, 32, "avx512-8x48"},
		{224, 1024, 256, "avx512-14x32"},
		{64, 61, 576, "avx512-14x32"},
		{768, 768, 768, "avx512-14x32"}, // a near tie stays
		{40, 10, 70, "avx512-14x32"},    // narrow: the transposed product
	} {
		if got := kernels.SIMDKernelShape(gemm.NoHalf, c.m, c.n, c.k); got != c.want {
			t.Errorf("%dx%dx%d: %s, want %s", c.m, c.n, c.k, got, c.want)
		}
	}
	if got := kernels.SIMDKernelShape(gemm.Float16, 16, 838, 144); got != "avx512-14x32" {
		t.Errorf("float16 operands: %s, want avx512-14x32 (16-bit operands keep the default kernel)", got)
	}
}
