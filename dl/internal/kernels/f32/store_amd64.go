//go:build !noasm

package f32

import (
	"unsafe"

	"github.com/dlbd/dlbd/dl/internal/kernels/gemm"
)

// storeTileAVX512 is gemm.StoreTile's loop for at most 32 columns
// (store_amd64.s): mode 0 writes float32, 1 bfloat16, 2 float16.
//
//go:noescape
func storeTileAVX512(dst unsafe.Pointer, ldd int, t *float32, ldt, rows int, mlo, mhi uint64, bias *float32, mode int)

// storeTile is the gemm.MicroKernel.Store of the AVX-512 kernels (float32,
// AVX512_BF16 and AMX): the bias added and the result rounded to 16 bits
// by one call per tile while it is in L1, the same bits as
// gemm.StoreTile.  Without AVX512BW (masked 16-bit stores) it is
// gemm.StoreTile.
func storeTile(p *gemm.Args[float32], t *float32, ldt, i0, j0, mb, nb int) {
	if !haveHalfPack || nb > 32 || mb == 0 || nb == 0 {
		gemm.StoreTile(p, t, ldt, i0, j0, mb, nb)
		return
	}
	mlo, mhi := uint64(1)<<min(nb, 16)-1, uint64(1)<<max(nb-16, 0)-1
	var bias *float32
	if p.Bias != nil {
		bias = &p.Bias[j0]
	}
	at := i0*p.LDC + j0
	switch {
	case p.CH == nil:
		storeTileAVX512(unsafe.Pointer(&p.C[at]), 4*p.LDC, t, 4*ldt, mb, mlo, mhi, bias, 0)
	case p.Half == gemm.BFloat16:
		storeTileAVX512(unsafe.Pointer(&p.CH[at]), 2*p.LDC, t, 4*ldt, mb, mlo, mhi, bias, 1)
	default:
		storeTileAVX512(unsafe.Pointer(&p.CH[at]), 2*p.LDC, t, 4*ldt, mb, mlo, mhi, bias, 2)
	}
}
