//go:build !dlbd_noasm

package f32

import (
	"testing"

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
