//go:build !dlbd_noasm

package f64

import (
	"unsafe"

	"github.com/dlbd/dlbd/dl/internal/kernels/gemm"
)

// transposePanelAVX512 transposes blocks of rows x 8 doubles, zero-padded
// to width lanes (rows <= width <= 8, strides in bytes):
// dst[(8b+j)*dstStride/8 + i] = src[i*srcStride/8 + 8b + j] for i < rows
// and 0 for rows <= i < width, j < 8, b < blocks (pack_amd64.s).
//
//go:noescape
func transposePanelAVX512(dst *float64, dstStride int, src *float64, srcStride int, rows, width, blocks int)

// copyPanelAVX512 copies count rows of valid doubles and zero-pads each to
// width (valid <= width <= 16; strides in bytes) (pack_amd64.s).
//
//go:noescape
func copyPanelAVX512(dst *float64, dstStride int, src *float64, srcStride int, valid, width, count int)

// add returns p advanced by n doubles.
func add(p *float64, n int) *float64 { return (*float64)(unsafe.Add(unsafe.Pointer(p), 8*n)) }

// transposeRows packs `rows` rows of src (row stride ld) into columns of
// width lanes at dst (stride width, rows <= width, 8 < width <= 16),
// zero-padded: two 8-row transposes.
func transposeRows(dst []float64, width int, src *float64, ld, rows, blocks int) {
	transposePanelAVX512(&dst[0], 8*width, src, 8*ld, min(rows, 8), 8, blocks)
	if rows > 8 {
		src = add(src, 8*ld)
	}
	transposePanelAVX512(&dst[8], 8*width, src, 8*ld, max(rows-8, 0), width-8, blocks)
}

// packA512 is gemm.PackA for AVX-512 (MR = 14): 8x8 transposes (A) or
// masked row copies (Aᵀ) instead of scalar loops.
func packA512(dst []float64, p *gemm.Args[float64], ic, pc, mc, kc, mr int) {
	if mr <= 8 || mr > 16 || p.Half != gemm.NoHalf { // transposeRows makes 9..16 lanes; half: the reference
		gemm.PackA(dst, p, ic, pc, mc, kc, mr)
		return
	}
	for q := 0; q*mr < mc; q++ {
		rows := min(mr, mc-q*mr)
		panel := dst[q*mr*kc : (q+1)*mr*kc]
		i0 := ic + q*mr
		if p.TransA {
			copyPanelAVX512(&panel[0], 8*mr, &p.A[pc*p.LDA+i0], 8*p.LDA, rows, mr, kc)
			continue
		}
		blocks := kc / 8
		if blocks > 0 {
			transposeRows(panel, mr, &p.A[i0*p.LDA+pc], p.LDA, rows, blocks)
		}
		for s := blocks * 8; s < kc; s++ { // the last kc%8 columns
			d := panel[s*mr : s*mr+mr]
			for r := range d {
				d[r] = 0
				if r < rows {
					d[r] = p.A[(i0+r)*p.LDA+pc+s]
				}
			}
		}
	}
}

// packB512 is gemm.PackB for AVX-512 (NR = 16): masked row copies (B) or
// two 8-row transposes per micro-panel (Bᵀ).
func packB512(dst []float64, p *gemm.Args[float64], pc, jc, kc, nc, nr int) {
	if nr <= 8 || nr > 16 || p.Half != gemm.NoHalf {
		gemm.PackB(dst, p, pc, jc, kc, nc, nr)
		return
	}
	for q := 0; q*nr < nc; q++ {
		cols := min(nr, nc-q*nr)
		panel := dst[q*nr*kc : (q+1)*nr*kc]
		j0 := jc + q*nr
		if !p.TransB {
			copyPanelAVX512(&panel[0], 8*nr, &p.B[pc*p.LDB+j0], 8*p.LDB, cols, nr, kc)
			continue
		}
		blocks := kc / 8
		if blocks > 0 {
			transposeRows(panel, nr, &p.B[j0*p.LDB+pc], p.LDB, cols, blocks)
		}
		for s := blocks * 8; s < kc; s++ {
			d := panel[s*nr : s*nr+nr]
			for j := range d {
				d[j] = 0
				if j < cols {
					d[j] = p.B[(j0+j)*p.LDB+pc+s]
				}
			}
		}
	}
}
