//go:build !dlbd_noasm

package f32

import "github.com/dlbd/dlbd/dl/internal/kernels/gemm"

// storeTileAVX512 is gemm.StoreTile's loop for a float32 C and at most
// 32 columns (store_amd64.s).
//
//go:noescape
func storeTileAVX512(dst *float32, ldd int, t *float32, ldt, rows int, mlo, mhi uint64, bias *float32)

// storeTile is the gemm.MicroKernel.Store of the AVX-512 kernels (float32,
// AVX512_BF16 and AMX): a tile copied to C with its bias by one call
// while it is in L1, the same bits as gemm.StoreTile, which does the
// rest (a 16-bit output goes through half's AVX-512 row encoder there).
func storeTile(p *gemm.Args[float32], t *float32, ldt, i0, j0, mb, nb int) {
	if p.CH != nil || mb == 0 || nb == 0 || nb > 32 {
		gemm.StoreTile(p, t, ldt, i0, j0, mb, nb)
		return
	}
	var bias *float32
	if p.Bias != nil {
		_ = p.Bias[j0+nb-1] // the columns' bias lies inside Bias
		bias = &p.Bias[j0]
	}
	at := i0*p.LDC + j0
	_ = p.C[at+(mb-1)*p.LDC+nb-1] // the block lies inside C
	storeTileAVX512(&p.C[at], 4*p.LDC, t, 4*ldt, mb, uint64(1)<<min(nb, 16)-1, uint64(1)<<max(nb-16, 0)-1, bias)
}
