//go:build !dlbd_noasm

package f32

import (
	"fmt"
	"sync"
)

// sgemmARows12x32AVX512 and sgemmARows18x16AVX512 are RowsGemmNT's
// micro-kernels (sgemm_arows_avx512_amd64.s): a 12x32 or 18x16 tile of
// C = A·Bᵀ whose A rows come in groups of three, group g's row t at
// a + offs[g] + t·step bytes, and whose B is packed k-major (32 or 16
// floats a step); c is written, or added to (add).
//
//go:noescape
func sgemmARows12x32AVX512(k int, a *float32, offs *int, step int, b, c *float32, ldc int, add bool)

//go:noescape
func sgemmARows18x16AVX512(k int, a *float32, offs *int, step int, b, c *float32, ldc int, add bool)

// sgemmARows6x16AVX2 is the same product's 6x16 tile on AVX2 CPUs
// (sgemm_avx2_amd64.s): two groups of three rows, B packed 16 floats a
// step.
//
//go:noescape
func sgemmARows6x16AVX2(k int, a *float32, offs *int, step int, b, c *float32, ldc int, add bool)

// RowsGemmNT is a product C = A·Bᵀ (or C += A·Bᵀ) whose A is given by the
// starts of its rows in a slice, read in place, and whose B is a matrix
// whose rows run along the same depth k: a convolution's weight gradient
// gT·colᵀ computed as its transpose col·gTᵀ, where the rows of col are
// shifted runs of the padded input planes.  Only the small operand (the
// output gradient, a row per output channel) is transposed into packed
// panels; the columns are neither built nor transposed.
//
// A's rows come in groups of three equally spaced starts (the three taps
// of a kernel row, or three consecutive rows of a column matrix).  Each
// element of C is the sum over p of A[i][p]·B[j][p] in order of p (in
// blocks of 256, each block's sum added to C in order).  A RowsGemmNT is
// safe for concurrent use.
type RowsGemmNT struct {
	m, n   int
	groups []int // byte offsets of each tile's group starts, mr/3 a tile
	step   int   // bytes between the rows of a group
	mr, nr int   // the tile
	maxRow int   // the furthest start read, padding rows included
}

// rowsNTDepth is the depth of a block of B packed at once: 256 steps of
// 32 floats fill 32 KiB, within L1, while the tiles of A stream past.
const rowsNTDepth = 256

// rowsNTScratch is a goroutine's buffers in Run: a block of B packed
// and a tile of C, for either tile shape (12x32 or 18x16).
type rowsNTScratch struct{ panel, tile []float32 }

var rowsNTScratchPool = sync.Pool{New: func() any {
	return &rowsNTScratch{panel: make([]float32, 32*rowsNTDepth), tile: make([]float32, 12*32)}
}}

// NewRowsGemmNT returns the product of an m x k A whose row i starts at
// rows[i] and an n x k B, or nil when this machine has no kernel for it
// (neither AVX-512 nor AVX2 with FMA, or a build with -tags dlbd_noasm)
// or rows are not in groups of three equally spaced starts with one
// spacing (callers then use Gemm).  A last group of one or two rows reads
// its missing rows (start + step, + 2·step) too: the slice given to Run
// must hold them.
// It panics on bad arguments.
func NewRowsGemmNT(m, n int, rows []int) *RowsGemmNT {
	if !haveAVX512 && !haveAVX2 {
		return nil
	}
	if m < 0 || n < 0 || len(rows) < m {
		panic(fmt.Sprintf("f32.NewRowsGemmNT: m=%d n=%d with %d rows; want m, n >= 0 and m rows", m, n, len(rows)))
	}
	for i, r := range rows[:m] {
		if r < 0 {
			panic(fmt.Sprintf("f32.NewRowsGemmNT: rows[%d] = %d is negative", i, r))
		}
	}
	step := 1
	if m > 1 {
		step = rows[1] - rows[0]
	}
	for g := 0; 3*g < m; g++ {
		for t := 1; t < 3 && 3*g+t < m; t++ {
			if rows[3*g+t]-rows[3*g+t-1] != step {
				return nil
			}
		}
	}
	if step <= 0 {
		return nil
	}
	p := &RowsGemmNT{m: m, n: n, step: 4 * step, mr: 12, nr: 32}
	switch {
	case !haveAVX512:
		p.mr, p.nr = 6, 16
	case n <= 16:
		p.mr, p.nr = 18, 16
	}
	perTile := p.mr / 3
	tiles := ceilDiv(m, p.mr)
	p.groups = make([]int, tiles*perTile)
	for t := range tiles {
		for q := range perTile {
			g := t*perTile + q
			if 3*g >= m { // past the last row: repeat the tile's first group
				g = t * perTile
			}
			p.groups[t*perTile+q] = 4 * rows[3*g]
			p.maxRow = max(p.maxRow, rows[3*g]+2*step)
		}
	}
	return p
}

// Run sets C = A·Bᵀ, or adds it to C (add), over depth k: row i of A is
// a[rows[i] : rows[i]+k], row j of B is b[j·ldb : j·ldb+k], C is m x n
// with row stride ldc.  It panics if a, b or c is too short.
func (p *RowsGemmNT) Run(k int, a, b []float32, ldb int, add bool, c []float32, ldc int) {
	if p.m == 0 || p.n == 0 {
		return
	}
	if k < 0 || ldb < k || ldc < p.n || len(c) < (p.m-1)*ldc+p.n || len(b) < (p.n-1)*ldb+k || (k > 0 && len(a) < p.maxRow+k) {
		panic(fmt.Sprintf("f32.RowsGemmNT.Run: k=%d ldb=%d ldc=%d with len(a)=%d (rows reach %d), len(b)=%d, len(c)=%d; want ldb >= k, ldc >= %d, len(a) >= %d, len(b) >= %d, len(c) >= %d",
			k, ldb, ldc, len(a), p.maxRow, len(b), len(c), p.n, p.maxRow+k, (p.n-1)*ldb+k, (p.m-1)*ldc+p.n))
	}
	if k == 0 {
		if !add {
			for i := range p.m {
				clear(c[i*ldc:][:p.n])
			}
		}
		return
	}
	s := rowsNTScratchPool.Get().(*rowsNTScratch)
	defer rowsNTScratchPool.Put(s)
	for k0 := 0; k0 < k; k0 += rowsNTDepth {
		kc := min(rowsNTDepth, k-k0)
		acc := add || k0 > 0
		for j0 := 0; j0 < p.n; j0 += p.nr {
			panel := s.panel[:p.nr*kc]
			p.pack(panel, b[k0:], ldb, j0, kc)
			for t := 0; t*p.mr < p.m; t++ {
				i0 := t * p.mr
				offs := &p.groups[t*p.mr/3]
				if i0+p.mr <= p.m && j0+p.nr <= p.n {
					p.kernel(kc, &a[k0], offs, &panel[0], &c[i0*ldc+j0], ldc, acc)
					continue
				}
				p.kernel(kc, &a[k0], offs, &panel[0], &s.tile[0], p.nr, false)
				for i := range min(p.mr, p.m-i0) {
					dst, src := c[(i0+i)*ldc+j0:][:min(p.nr, p.n-j0)], s.tile[i*p.nr:]
					for j := range dst {
						if acc {
							dst[j] += src[j]
						} else {
							dst[j] = src[j]
						}
					}
				}
			}
		}
	}
}

func (p *RowsGemmNT) kernel(k int, a *float32, offs *int, b, c *float32, ldc int, add bool) {
	if p.mr == 6 {
		sgemmARows6x16AVX2(k, a, offs, p.step, b, c, ldc, add)
		return
	}
	if p.nr == 32 {
		sgemmARows12x32AVX512(k, a, offs, p.step, b, c, ldc, add)
		return
	}
	sgemmARows18x16AVX512(k, a, offs, p.step, b, c, ldc, add)
}

// pack writes columns j0.. of Bᵀ for depths 0..kc of b (row stride ldb)
// into panel, k-major, nr floats a step, zeros past n.
func (p *RowsGemmNT) pack(panel, b []float32, ldb, j0, kc int) {
	if p.mr == 6 {
		p.packAVX2(panel, b, ldb, j0, kc)
		return
	}
	blocks := kc / 16
	for s := 0; s < p.nr; s += 16 {
		rows, first := min(max(p.n-j0-s, 0), 16), j0*ldb
		if rows > 0 {
			first += s * ldb
		}
		if blocks > 0 {
			transposePanelAVX512(&panel[s], 4*p.nr, &b[first], 4*ldb, rows, 16, blocks)
		}
		for q := blocks * 16; q < kc; q++ {
			d := panel[q*p.nr+s:][:16]
			for i := range d {
				d[i] = 0
				if i < rows {
					d[i] = b[first+i*ldb+q]
				}
			}
		}
	}
}

// packAVX2 is pack for the 16-column panels of the AVX2 tile
// (packTransposed16), element by element with zeros for a last panel of
// fewer rows.
func (p *RowsGemmNT) packAVX2(panel, b []float32, ldb, j0, kc int) {
	rows, first := min(p.n-j0, 16), j0*ldb
	if rows == 16 {
		packTransposed16(panel, b, first, ldb, kc)
		return
	}
	for q := range kc {
		d := panel[q*16:][:16]
		for i := range d {
			d[i] = 0
			if i < rows {
				d[i] = b[first+i*ldb+q]
			}
		}
	}
}
