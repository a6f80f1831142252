//go:build !dlbd_noasm

package f32

import (
	"github.com/dlbd/dlbd/dl/internal/kernels/gemm"
)

// transposePanelAVX512 transposes blocks of rows x 16 floats, zero-padded
// to width lanes (rows <= width <= 16, strides in bytes):
// dst[(16b+j)*dstStride/4 + i] = src[i*srcStride/4 + 16b + j] for i < rows
// and 0 for rows <= i < width, j < 16, b < blocks (pack_amd64.s).
//
//go:noescape
func transposePanelAVX512(dst *float32, dstStride int, src *float32, srcStride int, rows, width, blocks int)

// copyPanelAVX512 copies count rows of valid floats and zero-pads each to
// width (valid <= width <= 32; strides in bytes) (pack_amd64.s).
//
//go:noescape
func copyPanelAVX512(dst *float32, dstStride int, src *float32, srcStride int, valid, width, count int)

// packA512 is gemm.PackA for AVX-512: the same layout, written with
// 16x16 transposes (A) or masked row copies (Aᵀ) instead of scalar loops.
// pprof put the scalar packing of A at ~10% of a 1-thread n=1024 multiply.
// Half operands (p.Half) take the same path with the decoding loops.
func packA512(dst []float32, p *gemm.Args[float32], ic, pc, mc, kc, mr int) {
	a := operandA(p)
	if mr > 16 || !a.fast() { // the transposes produce at most 16 lanes
		gemm.PackA(dst, p, ic, pc, mc, kc, mr)
		return
	}
	for q := 0; q*mr < mc; q++ {
		rows := min(mr, mc-q*mr)
		panel := dst[q*mr*kc : (q+1)*mr*kc]
		i0 := ic + q*mr
		if p.TransA {
			// op(A)[i,s] = A[s,i]: row s of the panel is a contiguous run
			// of `rows` elements of A; len(A) was checked by Args.Check.
			a.copy(&panel[0], 4*mr, pc*p.LDA+i0, rows, mr, kc)
			continue
		}
		blocks := kc / 16
		if blocks > 0 {
			a.transpose(&panel[0], 4*mr, i0*p.LDA+pc, rows, mr, blocks)
		}
		// The last kc%16 columns, like gemm.PackA.
		for s := blocks * 16; s < kc; s++ {
			d := panel[s*mr : s*mr+mr]
			for r := range d {
				d[r] = 0
				if r < rows {
					d[r] = a.at((i0+r)*p.LDA + pc + s)
				}
			}
		}
	}
}

// packB512 is gemm.PackB for AVX-512 (NR = 32 or 48): masked row copies
// of at most 32 columns (B) or one 16-row transpose per 16 columns of a
// micro-panel (Bᵀ).
func packB512(dst []float32, p *gemm.Args[float32], pc, jc, kc, nc, nr int) {
	b := operandB(p)
	if (nr != 32 && nr != 48) || !b.fast() {
		gemm.PackB(dst, p, pc, jc, kc, nc, nr)
		return
	}
	for q := 0; q*nr < nc; q++ {
		cols := min(nr, nc-q*nr)
		panel := dst[q*nr*kc : (q+1)*nr*kc]
		j0 := jc + q*nr
		if !p.TransB {
			for s := 0; s < nr; s += 32 { // copies of at most 32 columns
				valid, off := min(max(cols-s, 0), 32), pc*p.LDB+j0
				if valid > 0 {
					off += s
				}
				b.copy(&panel[s], 4*nr, off, valid, min(nr-s, 32), kc)
			}
			continue
		}
		blocks := kc / 16
		if blocks > 0 {
			// Columns j0+s..j0+s+15 of op(B) are rows of B; those past
			// cols are zeros (rows = 0 reads nothing, from a valid start).
			for s := 0; s < nr; s += 16 {
				rows, first := min(max(cols-s, 0), 16), j0*p.LDB
				if rows > 0 {
					first += s * p.LDB
				}
				b.transpose(&panel[s], 4*nr, first+pc, rows, 16, blocks)
			}
		}
		for s := blocks * 16; s < kc; s++ {
			d := panel[s*nr : s*nr+nr]
			for j := range d {
				d[j] = 0
				if j < cols {
					d[j] = b.at((j0+j)*p.LDB + pc + s)
				}
			}
		}
	}
}

// transpose6x8AVX2 writes blocks of 6 rows x 8 floats (row stride in
// bytes) as 8 steps of 6: dst[(8b+j)*6 + i] = src[i*srcStride/4 + 8b + j]
// (sgemm_avx2_amd64.s).
//
//go:noescape
func transpose6x8AVX2(dst, src *float32, srcStride, blocks int)

// packA6 is gemm.PackA for the AVX2 kernel's 6-row panels of a float32 A
// read row by row (not transposed): 6x8 transposes in registers instead
// of the scalar stores with stride 6, which pprof put at 12-15% of a
// Transformer step's time on an AVX2 CPU.  Aᵀ is packed by runs
// (packRuns), 16-bit operands decoded first (packHalfA6); the last rows
// of a block go through gemm.PackA.
func packA6(dst []float32, p *gemm.Args[float32], ic, pc, mc, kc, mr int) {
	if mr == 6 && p.Half != gemm.NoHalf {
		packHalfA6(dst, p, ic, pc, mc, kc)
		return
	}
	if mr == 6 && p.TransA && p.Half == gemm.NoHalf {
		packRuns(dst, p.A, p.LDA, pc*p.LDA+ic, mc, kc, 6)
		return
	}
	if mr != 6 || p.TransA || p.Half != gemm.NoHalf || kc < 8 {
		gemm.PackA(dst, p, ic, pc, mc, kc, mr)
		return
	}
	blocks := kc / 8
	for q := 0; q*6 < mc; q++ {
		panel := dst[q*6*kc : (q+1)*6*kc]
		if rows := min(6, mc-q*6); rows < 6 {
			gemm.PackA(panel, p, ic+q*6, pc, rows, kc, 6)
			continue
		}
		first := (ic+q*6)*p.LDA + pc
		_ = p.A[first+5*p.LDA+kc-1] // the block lies inside A
		transpose6x8AVX2(&panel[0], &p.A[first], 4*p.LDA, blocks)
		for s := blocks * 8; s < kc; s++ { // the last kc%8 steps
			for r := range 6 {
				panel[s*6+r] = p.A[first+r*p.LDA+s]
			}
		}
	}
}

// transpose8x8AVX2 writes blocks of 8 rows x 8 floats (strides in bytes)
// transposed: dst[(8b+j)*dstStride/4 + i] = src[i*srcStride/4 + 8b + j]
// (sgemm_avx2_amd64.s).
//
//go:noescape
func transpose8x8AVX2(dst *float32, dstStride int, src *float32, srcStride, blocks int)

// packB16 is gemm.PackB for the AVX2 kernel's 16-column panels of a
// transposed float32 B (the products with Bᵀ of attention, of Linear's
// input gradient and of convolutions' weight gradients): two 8x8
// transposes per 8 steps instead of scalar stores with stride 16, which
// pprof put at 16% of a small ResNet's training step on an AVX2 CPU.  B
// read row by row is packed by runs (packRuns), 16-bit operands decoded
// first (packHalfB16); the last columns of a block go through
// gemm.PackB.
func packB16(dst []float32, p *gemm.Args[float32], pc, jc, kc, nc, nr int) {
	if nr == 16 && p.Half != gemm.NoHalf {
		packHalfB16(dst, p, pc, jc, kc, nc)
		return
	}
	if nr == 16 && !p.TransB && p.Half == gemm.NoHalf {
		packRuns(dst, p.B, p.LDB, pc*p.LDB+jc, nc, kc, 16)
		return
	}
	if nr != 16 || !p.TransB || p.Half != gemm.NoHalf || kc < 8 {
		gemm.PackB(dst, p, pc, jc, kc, nc, nr)
		return
	}
	for q := 0; q*16 < nc; q++ {
		panel := dst[q*16*kc : (q+1)*16*kc]
		if cols := min(16, nc-q*16); cols < 16 {
			gemm.PackB(panel, p, pc, jc+q*16, kc, cols, 16)
			continue
		}
		packTransposed16(panel, p.B, (jc+q*16)*p.LDB+pc, p.LDB, kc)
	}
}

// packTransposed16 writes kc steps of 16 rows of a row-major matrix (row
// i's kc floats at src[first+i·ld:]) into panel, k-major, 16 floats a
// step: two 8x8 transposes per 8 steps, the last kc%8 steps element by
// element.
func packTransposed16(panel, src []float32, first, ld, kc int) {
	_ = src[first+15*ld+kc-1] // the block lies inside src
	blocks := kc / 8
	if blocks > 0 {
		transpose8x8AVX2(&panel[0], 64, &src[first], 4*ld, blocks)
		transpose8x8AVX2(&panel[8], 64, &src[first+8*ld], 4*ld, blocks)
	}
	for s := blocks * 8; s < kc; s++ {
		for j := range 16 {
			panel[s*16+j] = src[first+j*ld+s]
		}
	}
}

// packRuns packs the w-wide panels (the 6x16 kernel's A, w = 6, or its
// B, w = 16) of a matrix whose k steps are contiguous runs (a transposed
// A: the weight gradient's Xᵀ; a B read by rows): step s of panel q is
// src[at + s·ld + w·q :][:w], moved as one 24- or 64-byte array instead
// of a copy call per step (gemm.PackA's and PackB's copies took 8 % of a
// Transformer training step in memmove on AVX2).  A last panel of fewer
// than w is zero-padded.
func packRuns(dst, src []float32, ld, at, n, kc, w int) {
	for q := 0; q*w < n; q++ {
		panel := dst[q*w*kc : (q+1)*w*kc]
		run := src[at+q*w:]
		cols := min(w, n-q*w)
		_ = run[(kc-1)*ld+cols-1] // the block lies inside src
		switch {
		case cols == 6 && w == 6:
			for s := range kc {
				*(*[6]float32)(panel[s*6:]) = *(*[6]float32)(run[s*ld:])
			}
		case cols == 16 && w == 16:
			for s := range kc {
				*(*[16]float32)(panel[s*16:]) = *(*[16]float32)(run[s*ld:])
			}
		default: // a last, narrower panel
			for s := range kc {
				d := panel[s*w : s*w+w]
				copy(d, run[s*ld:][:cols])
				clear(d[cols:])
			}
		}
	}
}
