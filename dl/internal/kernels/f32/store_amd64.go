//go:build !dlbd_noasm

package f32

import (
	"unsafe"

	"github.com/dlbd/dlbd/dl/internal/kernels/gemm"
)

// storeTileAVX512 is gemm.StoreTile's loop for a float32 C and at most
// 32 columns (store_amd64.s).
//
//go:noescape
func storeTileAVX512(dst *float32, ldd int, t *float32, ldt, rows int, mlo, mhi uint64, bias *float32)

// storeTile is the gemm.MicroKernel.Store of the AVX-512 kernels (float32,
// AVX512_BF16 and AMX): a tile copied to C with its bias by one call per
// 32 columns while it is in L1, the same bits as gemm.StoreTile, which
// does the rest (a 16-bit output goes through half's AVX-512 row encoder
// there).
func storeTile(p *gemm.Args[float32], t *float32, ldt, i0, j0, mb, nb int) {
	if p.CH != nil || mb == 0 || nb == 0 {
		gemm.StoreTile(p, t, ldt, i0, j0, mb, nb)
		return
	}
	ts := unsafe.Slice(t, (mb-1)*ldt+nb)
	for s := 0; s < nb; s += 32 {
		w := min(nb-s, 32)
		var bias *float32
		if p.Bias != nil {
			_ = p.Bias[j0+s+w-1] // the columns' bias lies inside Bias
			bias = &p.Bias[j0+s]
		}
		at := i0*p.LDC + j0 + s
		_ = p.C[at+(mb-1)*p.LDC+w-1] // the block lies inside C
		storeTileAVX512(&p.C[at], 4*p.LDC, &ts[s], 4*ldt, mb, uint64(1)<<min(w, 16)-1, uint64(1)<<max(w-16, 0)-1, bias)
	}
}

// storeTile16AVX2 is gemm.StoreTile's loop for a float32 C and 16
// columns on AVX2 CPUs (store_amd64.s): rows > 0.
//
//go:noescape
func storeTile16AVX2(dst *float32, ldd int, t *float32, ldt, rows int, bias *float32)

// storeTileAVX2 is the gemm.MicroKernel.Store of the AVX2 kernel: a whole
// tile's 16 columns with their bias by storeTile16AVX2 (the same bits as
// gemm.StoreTile, whose bias loop and row copies took 9 % of a batch-1
// Transformer inference on AVX2), other blocks by gemm.StoreTile.
func storeTileAVX2(p *gemm.Args[float32], t *float32, ldt, i0, j0, mb, nb int) {
	if p.CH != nil || mb == 0 || nb != 16 {
		gemm.StoreTile(p, t, ldt, i0, j0, mb, nb)
		return
	}
	var bias *float32
	if p.Bias != nil {
		_ = p.Bias[j0+15] // the columns' bias lies inside Bias
		bias = &p.Bias[j0]
	}
	at := i0*p.LDC + j0
	_ = p.C[at+(mb-1)*p.LDC+15] // the block lies inside C
	storeTile16AVX2(&p.C[at], 4*p.LDC, t, 4*ldt, mb, bias)
}
