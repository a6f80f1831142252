package gemm

import "unsafe"

// The epilogue of a product: Args.Bias (a row added to every row of C)
// and Args.CH (the result rounded to 16 bits).  Its result is defined
// from the plain product P that the kernel computes with Beta = 0:
// P[i][j] + Bias[j], rounded to CH's format, so every path gives the
// same bits.  Where the blocked driver can, it runs the micro-kernel on
// a scratch tile and hands the tile to MicroKernel.Store, which adds the
// bias and rounds or copies the tile into the output while it is in L1:
// no copy of the bias into every row of C before the product, and for a
// half output no float32 C at all (Linear's bfloat16 forward wrote, read
// and re-read a float32 C before: 18 bytes of memory traffic per
// element, 2 now).  That needs the whole depth K in one block of the
// kernel (the tile then holds the finished product) and the ordinary
// tiled loop (not the narrow product's transposed one); elsewhere, and
// for the Naive and Gonum kernels, withEpilogue computes P into C (into
// a scratch C for CH, a kernel workspace like the packed panels, not
// counted by dl's MemoryStats) and stores it after, in bands of NR
// columns.

// hasEpilogue reports whether p adds a bias or writes CH.
func (p *Args[T]) hasEpilogue() bool { return p.Bias != nil || p.CH != nil }

// checkEpilogue panics with an *ArgError if Bias or CH are inconsistent.
func (p *Args[T]) checkEpilogue() {
	if !p.hasEpilogue() {
		return
	}
	if p.Beta != 0 {
		p.fail("beta = %v with a bias or a 16-bit output; these write C as alpha*op(A)*op(B) (+ bias): use beta = 0", p.Beta)
	}
	if p.Bias != nil && len(p.Bias) < p.N {
		p.fail("len(bias) = %d, want n = %d (one value per column of C)", len(p.Bias), p.N)
	}
	if _, f32 := any(p.C).([]float32); p.CH != nil && (!f32 || (p.Half != Float16 && p.Half != BFloat16)) {
		p.fail("a 16-bit output (CH) takes the format of 16-bit operands: set Half to Float16 or BFloat16 and use float32 Args")
	}
}

// storesTiles reports whether the blocked driver with mk writes p's
// epilogue tile by tile: K fits one block and the product is not the
// narrow one (see transposed).  A product without a product (K or Alpha
// 0) takes withEpilogue, whose Trivial handles it.
func (mk *MicroKernel[T]) storesTiles(p *Args[T]) bool {
	return p.K > 0 && p.Alpha != 0 && blockDepth(p.K, mk.KC) >= p.K && !narrow(mk, p)
}

// narrow reports whether blocked runs p as the transposed product: few
// columns, rows for at least two tiles, and a transposed product that is
// not narrow itself (2M > NR; a kernel with NR > 4·MR could loop).
func narrow[T Float](mk *MicroKernel[T], p *Args[T]) bool {
	return 2*p.N <= mk.NR && p.M >= 2*mk.MR && 2*p.M > mk.NR
}

// withEpilogue computes p through run, a kernel for products without an
// epilogue: P into C (a scratch C when p writes CH), then stored through
// mk's Store in bands of NR columns.
func (p *Args[T]) withEpilogue(mk *MicroKernel[T], run func(q *Args[T]) error) error {
	q := *p
	q.Bias, q.CH = nil, nil
	if p.CH != nil {
		ws := getWorkspace(mk, 0, 0)
		defer putWorkspace(ws)
		ws.t = aligned(ws.t, p.M*p.N)
		q.C, q.LDC = ws.t, p.N
	}
	if err := run(&q); err != nil || p.M == 0 || p.N == 0 {
		return err
	}
	for j0 := 0; j0 < p.N; j0 += mk.NR {
		mk.store(p, &q.C[j0], q.LDC, 0, j0, p.M, min(mk.NR, p.N-j0))
	}
	return nil
}

// StoreTile is the reference MicroKernel.Store: it writes the mb x nb
// block at t (row stride ldt), rows i0.. and columns j0.. of the product,
// to p's output: plus Bias[j], then into C (adding the bias in t itself;
// t may be that block of C), or rounded to Half's format into CH
// (half.EncodeBFloat16Rows, EncodeFloat16Rows).
func StoreTile[T Float](p *Args[T], t *T, ldt, i0, j0, mb, nb int) {
	ts := unsafe.Slice(t, (mb-1)*ldt+nb)
	var bias []T
	if p.Bias != nil {
		bias = p.Bias[j0 : j0+nb]
	}
	if p.CH != nil { // float32 Args (checkEpilogue)
		b32, _ := any(bias).([]float32)
		p.Half.encodeRows(p.CH[i0*p.LDC+j0:], p.LDC, any(ts).([]float32), ldt, mb, nb, b32)
		return
	}
	for i := range mb {
		row := ts[i*ldt : i*ldt+nb]
		for j, b := range bias {
			row[j] += b
		}
		copy(p.C[(i0+i)*p.LDC+j0:][:nb], row)
	}
}

// store runs mk's Store, or StoreTile, on a block of at most NR columns.
func (mk *MicroKernel[T]) store(p *Args[T], t *T, ldt, i0, j0, mb, nb int) {
	if mk.Store != nil {
		mk.Store(p, t, ldt, i0, j0, mb, nb)
		return
	}
	StoreTile(p, t, ldt, i0, j0, mb, nb)
}
