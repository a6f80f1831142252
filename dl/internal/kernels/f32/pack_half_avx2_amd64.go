//go:build !dlbd_noasm

package f32

import (
	"sync"

	"github.com/dlbd/dlbd/dl/internal/kernels/gemm"
)

// The AVX2 kernel's packing of 16-bit operands (bfloat16 or float16 A
// and B of GemmHalf, autocast's products): a few panels at a time are
// decoded into float32 by the half package's vector loops
// (gemm.Half.DecodeTo), then packed by packA6's and packB16's float32
// loops.  gemm.PackA's element-by-element
// decoding through an accessor took 54% of a bfloat16 Transformer
// training step on an AVX2 CPU.  The values packed are the same, so are
// the products' bits.
const (
	halfRowsA = 6 * 8  // rows of op(A) decoded at a time: 8 panels
	halfColsB = 16 * 4 // columns of op(B) decoded at a time: 4 panels
)

// halfScratch holds a goroutine's decoded block (at most halfColsB
// columns or halfRowsA rows of a K block).
var halfScratch = sync.Pool{New: func() any { return new([]float32) }}

// decodeRuns sets dst[r*w:][:n] to the n 16-bit floats of format h at
// src[off+r*ld:] for each r < count.
func decodeRuns(dst []float32, w int, src []uint16, off, ld, n, count int, h gemm.Half) {
	for r := range count {
		h.DecodeTo(dst[r*w:][:n], src[off+r*ld:][:n])
	}
}

// scratchFor returns n floats from the pool's slice sp, grown if needed.
func scratchFor(sp *[]float32, n int) []float32 {
	if cap(*sp) < n {
		*sp = make([]float32, n)
	}
	return (*sp)[:n]
}

// packHalfA6 is packA6 for a 16-bit A (mr = 6).
func packHalfA6(dst []float32, p *gemm.Args[float32], ic, pc, mc, kc int) {
	sp := halfScratch.Get().(*[]float32)
	defer halfScratch.Put(sp)
	for i := 0; i < mc; i += halfRowsA {
		rows := min(halfRowsA, mc-i)
		buf := scratchFor(sp, rows*kc)
		q := gemm.Args[float32]{A: buf, TransA: p.TransA}
		if p.TransA { // op(A)[i, s] = A[s, i]: kc runs of rows values
			decodeRuns(buf, rows, p.AH, pc*p.LDA+ic+i, p.LDA, rows, kc, p.Half)
			q.LDA = rows
		} else { // rows runs of kc values
			decodeRuns(buf, kc, p.AH, (ic+i)*p.LDA+pc, p.LDA, kc, rows, p.Half)
			q.LDA = kc
		}
		packA6(dst[i*kc:], &q, 0, 0, rows, kc, 6)
	}
}

// packHalfB16 is packB16 for a 16-bit B (nr = 16).
func packHalfB16(dst []float32, p *gemm.Args[float32], pc, jc, kc, nc int) {
	sp := halfScratch.Get().(*[]float32)
	defer halfScratch.Put(sp)
	for j := 0; j < nc; j += halfColsB {
		cols := min(halfColsB, nc-j)
		buf := scratchFor(sp, cols*kc)
		q := gemm.Args[float32]{B: buf, TransB: p.TransB}
		if p.TransB { // op(B)[s, j] = B[j, s]: cols runs of kc values
			decodeRuns(buf, kc, p.BH, (jc+j)*p.LDB+pc, p.LDB, kc, cols, p.Half)
			q.LDB = kc
		} else { // kc runs of cols values
			decodeRuns(buf, cols, p.BH, pc*p.LDB+jc+j, p.LDB, cols, kc, p.Half)
			q.LDB = cols
		}
		packB16(dst[j*kc:], &q, 0, 0, kc, cols, 16)
	}
}
