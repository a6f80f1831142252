//go:build !dlbd_noasm

package f32

import (
	"fmt"
	"sync"
)

// sgemm8x48RowsAVX512 is sgemm8x48AVX512 with B's rows read in place
// (sgemm8x48_avx512_amd64.s): row p of the 48-column panel at b + offs[p]
// bytes.
//
//go:noescape
func sgemm8x48RowsAVX512(k int, a *float32, offs *int, b, c *float32, ldc int, alpha, beta float32)

// sgemm8x16RowsAVX512 is the 8x16 tile of the same product on the lanes
// of mask only (the last columns): B's rows read, C written or added to
// (add) on those lanes (sgemm8x48_avx512_amd64.s).
//
//go:noescape
func sgemm8x16RowsAVX512(k int, a *float32, offs *int, b, c *float32, ldc int, mask int, add bool)

// sgemm6x16RowsAVX2 is sgemmAVX2 with B's rows read in place
// (sgemm_avx2_amd64.s): row p of the 16-column panel at b + offs[p] bytes.
//
//go:noescape
func sgemm6x16RowsAVX2(k int, a *float32, offs *int, b, c *float32, ldc int, alpha, beta float32)

// sgemm4x16RowsAVX2 is sgemm6x16RowsAVX2 on the first 4 rows of the
// 6-row A panel only, C written or added to (add) on those 4 rows
// (sgemm_avx2_amd64.s).
//
//go:noescape
func sgemm4x16RowsAVX2(k int, a *float32, offs *int, b, c *float32, ldc int, add bool)

// sgemm6x8RowsAVX2 is sgemm6x16RowsAVX2 on 8 columns, C written or added
// to (add) (sgemm_avx2_amd64.s).
//
//go:noescape
func sgemm6x8RowsAVX2(k int, a *float32, offs *int, b, c *float32, ldc int, add bool)

// rowsMaskedTail is the most last columns computed in place by
// sgemm8x16RowsAVX512 (two tiles); more are packed into a 48-column panel.
const rowsMaskedTail = 32

// RowsGemm is a product C = A·B (+ C) whose B is given by the starts of
// its rows in a slice instead of a matrix: an implicit GEMM, as a
// stride-1 convolution's columns are shifted runs of its padded input
// planes (row (c, i, j) of the column matrix starts at c·plane +
// i·dH·Wp + j·dW), so the columns are neither built nor packed.  A is
// packed once (NewRowsGemm) and the product runs for any number of B
// slices laid out alike (one per sample), on the calling goroutine:
// callers spread their samples over goroutines.  Each element of C is
// the sum over p of A[i][p]·B[p][j] in order of p, as the blocked
// kernels sum a product whose depth fits one K block.
//
// With AVX-512 its tiles are 8x48 (8x16 for the last columns); on AVX2
// CPUs 6x16, the tile of the AVX2 GEMM, with the last n%16 columns read
// in place by 6x8 tiles when they are 8, else packed into one panel.
type RowsGemm struct {
	m, k   int
	mr     int       // rows of a tile: 8 (AVX-512) or 6 (AVX2)
	a      []float32 // ⌈m/mr⌉ panels of k x mr
	offs   []int     // byte offsets of B's rows
	rows   []int
	maxRow int
}

// rowsScratch is a goroutine's buffers in Run: the packed last columns
// (grown to 48·k) and a tile of C.
type rowsScratch struct{ tail, tile []float32 }

var rowsScratchPool = sync.Pool{New: func() any { return &rowsScratch{tile: make([]float32, 8*48)} }}

// rowsPanelPool holds the packed A of released products: a convolution
// packs its weights at each call, and a fresh allocation of them (cleared,
// then scanned for by the garbage collector) cost more than the packing
// (~1.4 ns an element against ~0.3 for 64x576).
var rowsPanelPool sync.Pool

// rowsPanel returns n floats for a packed A, reused when one large enough
// was released; their values are undefined.
func rowsPanel(n int) []float32 {
	if p, ok := rowsPanelPool.Get().(*[]float32); ok && cap(*p) >= n {
		return (*p)[:n]
	}
	return make([]float32, n)
}

// Release hands the packed A back for reuse by a later NewRowsGemm; g
// must not be used after.  It is optional (without it the garbage
// collector frees the panels) and does nothing on nil.
func (g *RowsGemm) Release() {
	if g == nil || g.a == nil {
		return
	}
	a := g.a
	g.a = nil
	rowsPanelPool.Put(&a)
}

// NewRowsGemm returns the product with A (m x k, row stride lda) and B's
// rows starting at rows[p] (p < k), or nil when this machine has no
// kernel for it (neither AVX-512 nor AVX2 with FMA, or a build with -tags
// dlbd_noasm): callers then build the columns and use Gemm.  It panics on
// bad arguments.
func NewRowsGemm(m, k int, a []float32, lda int, rows []int) *RowsGemm {
	if !haveAVX512 && !haveAVX2 {
		return nil
	}
	if m < 0 || k < 0 || lda < max(k, 1) || len(rows) < k || (m > 0 && k > 0 && len(a) < (m-1)*lda+k) {
		panic(fmt.Sprintf("f32.NewRowsGemm: m=%d k=%d lda=%d with len(a)=%d and %d rows; want lda >= k, len(a) >= (m-1)*lda+k, k rows",
			m, k, lda, len(a), len(rows)))
	}
	mr := 8
	if !haveAVX512 {
		mr = 6
	}
	g := &RowsGemm{m: m, k: k, mr: mr, a: rowsPanel(ceilDiv(m, mr) * mr * k), offs: make([]int, k), rows: rows[:k]}
	if tail := m % mr; tail != 0 { // the last panel's missing rows are zeros, as when the panels were always fresh (no kernel stores those rows)
		clear(g.a[(m-tail)*k:])
	}
	for t := 0; t*mr < m && k > 0 && mr == 6; t++ { // the AVX2 panels: element (i, p) at p·6 + i
		panel, rows, done := g.a[t*6*k:][:6*k], min(6, m-t*6), 0
		if rows == 6 && k >= 8 { // 6x8 transposes, then the last k%8 steps
			done = k / 8 * 8
			transpose6x8AVX2(&panel[0], &a[t*6*lda], 4*lda, k/8)
		}
		for i := range rows {
			for p := done; p < k; p++ {
				panel[p*6+i] = a[(t*6+i)*lda+p]
			}
		}
	}
	for t := 0; t*8 < m && k > 0 && mr == 8; t++ { // 16x16 transposes, then the last k%16 steps
		panel, rows := g.a[t*8*k:][:8*k], min(8, m-t*8)
		if blocks := k / 16; blocks > 0 {
			transposePanelAVX512(&panel[0], 4*8, &a[t*8*lda], 4*lda, rows, 8, blocks)
		}
		for i := range rows {
			row := a[(t*8+i)*lda:][:k]
			for p := k / 16 * 16; p < k; p++ {
				panel[p*8+i] = row[p]
			}
		}
	}
	for p, r := range g.rows {
		if r < 0 {
			panic(fmt.Sprintf("f32.NewRowsGemm: rows[%d] = %d is negative", p, r))
		}
		g.offs[p] = 4 * r
		g.maxRow = max(g.maxRow, r)
	}
	return g
}

// Run sets C = A·B, or adds it to C (add), for the n columns of B: row p
// of B is b[rows[p] : rows[p]+n].  C is m x n with row stride ldc.  It
// panics if b or c is too short.
func (g *RowsGemm) Run(n int, b []float32, add bool, c []float32, ldc int) {
	if g.m == 0 || n == 0 {
		return
	}
	if n < 0 || ldc < n || len(c) < (g.m-1)*ldc+n || (g.k > 0 && len(b) < g.maxRow+n) {
		panic(fmt.Sprintf("f32.RowsGemm.Run: n=%d ldc=%d with len(b)=%d (rows reach %d) and len(c)=%d; want ldc >= n, len(b) >= %d, len(c) >= %d",
			n, ldc, len(b), g.maxRow, len(c), g.maxRow+n, (g.m-1)*ldc+n))
	}
	if g.k == 0 { // an empty sum
		for i := range g.m {
			if !add {
				clear(c[i*ldc:][:n])
			}
		}
		return
	}
	beta := float32(0)
	if add {
		beta = 1
	}
	s := rowsScratchPool.Get().(*rowsScratch)
	defer rowsScratchPool.Put(s)
	if g.mr == 6 {
		g.runAVX2(n, b, add, c, ldc, beta, s)
		return
	}
	offs := &g.offs[0]
	full := n / 48 * 48
	for j0 := 0; j0 < full; j0 += 48 {
		for i0 := 0; i0 < g.m; i0 += 8 {
			ap := g.panel(i0)
			if i0+8 <= g.m {
				sgemm8x48RowsAVX512(g.k, ap, offs, &b[j0], &c[i0*ldc+j0], ldc, 1, beta)
				continue
			}
			sgemm8x48RowsAVX512(g.k, ap, offs, &b[j0], &s.tile[0], 48, 1, 0)
			g.store(c, ldc, s.tile, 48, i0, j0, 48, add)
		}
	}
	if r := n - full; r > 0 && r <= rowsMaskedTail { // the last columns, in place, 16 at a time
		for j0 := full; j0 < n; j0 += 16 {
			mask := 1<<min(16, n-j0) - 1
			for i0 := 0; i0 < g.m; i0 += 8 {
				if i0+8 <= g.m {
					sgemm8x16RowsAVX512(g.k, g.panel(i0), offs, &b[j0], &c[i0*ldc+j0], ldc, mask, add)
					continue
				}
				sgemm8x16RowsAVX512(g.k, g.panel(i0), offs, &b[j0], &s.tile[0], 48, mask, false)
				g.store(c, ldc, s.tile, 48, i0, j0, min(16, n-j0), add)
			}
		}
	} else if r > 0 { // the last columns, packed as a panel
		if len(s.tail) < 48*g.k {
			s.tail = make([]float32, 48*g.k)
		}
		for p, row := range g.rows {
			d := s.tail[p*48:][:48]
			copy(d, b[row+full:][:r])
			clear(d[r:])
		}
		for i0 := 0; i0 < g.m; i0 += 8 {
			sgemm8x48AVX512(g.k, g.panel(i0), &s.tail[0], &s.tile[0], 48, 1, 0)
			g.store(c, ldc, s.tile, 48, i0, full, r, add)
		}
	}
}

// panel returns the packed A panel of rows i0.. (k > 0).
func (g *RowsGemm) panel(i0 int) *float32 { return &g.a[i0*g.k] }

// runAVX2 is Run with the 6x16 tiles: B's rows read in place for every
// full 16 columns, the last n%16 columns in place too when they are 8
// (6x8 tiles: callers round their columns up to 8 where B's rows have
// room), else packed into one zero-padded panel; the last rows (m%6)
// through the first 4 rows of a panel when they are 4, else computed
// into a tile and copied.
func (g *RowsGemm) runAVX2(n int, b []float32, add bool, c []float32, ldc int, beta float32, s *rowsScratch) {
	offs := &g.offs[0]
	full := n / 16 * 16
	for j0 := 0; j0 < full; j0 += 16 {
		for i0 := 0; i0 < g.m; i0 += 6 {
			ap := g.panel(i0)
			switch rows := g.m - i0; {
			case rows >= 6:
				sgemm6x16RowsAVX2(g.k, ap, offs, &b[j0], &c[i0*ldc+j0], ldc, 1, beta)
			case rows == 4: // 64 or 16 channels: no zero rows computed
				sgemm4x16RowsAVX2(g.k, ap, offs, &b[j0], &c[i0*ldc+j0], ldc, add)
			case rows < 4:
				sgemm4x16RowsAVX2(g.k, ap, offs, &b[j0], &s.tile[0], 16, false)
				g.store(c, ldc, s.tile, 16, i0, j0, 16, add)
			default:
				sgemm6x16RowsAVX2(g.k, ap, offs, &b[j0], &s.tile[0], 16, 1, 0)
				g.store(c, ldc, s.tile, 16, i0, j0, 16, add)
			}
		}
	}
	r := n - full
	if r == 0 {
		return
	}
	if r == 8 { // 8 columns in place, at half the cost of a packed panel of 16
		for i0 := 0; i0 < g.m; i0 += 6 {
			if i0+6 <= g.m {
				sgemm6x8RowsAVX2(g.k, g.panel(i0), offs, &b[full], &c[i0*ldc+full], ldc, add)
				continue
			}
			sgemm6x8RowsAVX2(g.k, g.panel(i0), offs, &b[full], &s.tile[0], 16, false)
			g.store(c, ldc, s.tile, 16, i0, full, 8, add)
		}
		return
	}
	if len(s.tail) < 16*g.k {
		s.tail = make([]float32, 16*g.k)
	}
	for p, row := range g.rows {
		d := s.tail[p*16:][:16]
		copy(d, b[row+full:][:r])
		clear(d[r:])
	}
	for i0 := 0; i0 < g.m; i0 += 6 {
		sgemmAVX2(g.k, g.panel(i0), &s.tail[0], &s.tile[0], 16, 1, 0)
		g.store(c, ldc, s.tile, 16, i0, full, r, add)
	}
}

// store writes (add: adds) the first cols columns of the rows of tile
// (row stride ld) that lie in C (rows i0.. of m) into C at column j0.
func (g *RowsGemm) store(c []float32, ldc int, tile []float32, ld, i0, j0, cols int, add bool) {
	for i := range min(g.mr, g.m-i0) {
		dst, src := c[(i0+i)*ldc+j0:][:cols], tile[i*ld:][:cols]
		if !add {
			copy(dst, src)
			continue
		}
		for j, v := range src {
			dst[j] += v
		}
	}
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }
