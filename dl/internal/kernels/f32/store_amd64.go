//go:build !noasm

package f32

import (
	"unsafe"

	"github.com/dlbd/dlbd/dl/internal/kernels/gemm"
	"github.com/dlbd/dlbd/dl/internal/kernels/half"
)

// storeTileAVX512 is gemm.StoreTile's loop for a float32 C and at most
// 32 columns (store_amd64.s).
//
//go:noescape
func storeTileAVX512(dst *float32, ldd int, t *float32, ldt, rows int, mlo, mhi uint64, bias *float32)

// storeTile is the gemm.MicroKernel.Store of the AVX-512 kernels (float32,
// AVX512_BF16 and AMX): the bias added, and the result rounded to 16 bits
// (half.EncodeBFloat16Rows, EncodeFloat16Rows) or copied to C, by one
// call per tile while it is in L1; the same bits as gemm.StoreTile.
func storeTile(p *gemm.Args[float32], t *float32, ldt, i0, j0, mb, nb int) {
	if mb == 0 || nb == 0 || nb > 32 {
		gemm.StoreTile(p, t, ldt, i0, j0, mb, nb)
		return
	}
	ts := unsafe.Slice(t, (mb-1)*ldt+nb)
	var bias []float32
	if p.Bias != nil {
		bias = p.Bias[j0 : j0+nb]
	}
	at := i0*p.LDC + j0
	switch {
	case p.CH != nil && p.Half == gemm.BFloat16:
		half.EncodeBFloat16Rows(p.CH[at:], p.LDC, ts, ldt, mb, nb, bias)
	case p.CH != nil:
		half.EncodeFloat16Rows(p.CH[at:], p.LDC, ts, ldt, mb, nb, bias)
	default:
		var b *float32
		if bias != nil {
			b = &bias[0]
		}
		_ = p.C[at+(mb-1)*p.LDC+nb-1] // the block lies inside C
		storeTileAVX512(&p.C[at], 4*p.LDC, t, 4*ldt, mb, uint64(1)<<min(nb, 16)-1, uint64(1)<<max(nb-16, 0)-1, b)
	}
}
