package gemm

import "fmt"

// Float is the element type of the kernels.
type Float interface{ ~float32 | ~float64 }

// Args bundles the arguments of one GEMM call, as passed to BLAS:
// C = Alpha*op(A)*op(B) + Beta*C, op(X) = X or Xᵀ, all row-major.
type Args[T Float] struct {
	Op             string // caller's name for error messages, e.g. "f32.Gemm"
	TransA, TransB bool
	M, N, K        int
	Alpha          T
	A              []T
	LDA            int
	B              []T
	LDB            int
	Beta           T
	C              []T
	LDC            int

	// Half, when not NoHalf, stores A and B as 16-bit floats in AH and BH
	// (same layouts and leading dimensions; A and B are unused).
	Half   Half
	AH, BH []uint16

	// RoundB, with a 16-bit Half, keeps B in float32 (in B; BH unused):
	// each element is rounded to Half's format as the packing reads it,
	// so the product equals, bit for bit, the one on B cast to Half first,
	// without the cast's full-size copy (autocast's float32 weights).
	// Only float32 Args take it.
	RoundB bool

	// Bias, when set, holds N values, one per column of C, added to every
	// row of the product: C[i][j] = Alpha·acc[i][j] + Bias[j], the
	// product rounded first, then the sum (Beta must be 0).  It is what
	// copying the bias into every row of C and multiplying with Beta = 1
	// computes (Linear's forward), without that copy: where the
	// micro-kernel's tiles are stored through an epilogue (see epilogue.go)
	// the sum is made while the tile is in cache.
	Bias []T

	// CH, when set (float32 Args with a 16-bit Half), receives the result
	// rounded to Half's format, row stride LDC, and C is not used (it may
	// be nil): the product of half operands in half precision, rounded
	// once from its float32 accumulation (Beta must be 0).
	CH []uint16
}

// ArgError is the panic value for inconsistent GEMM arguments.
type ArgError struct {
	Op  string // the call, e.g. "f32.Gemm"
	Msg string // what is wrong and how to fix it
}

// Error implements error.
func (e *ArgError) Error() string { return e.Op + ": " + e.Msg }

func (p *Args[T]) fail(format string, args ...any) {
	panic(&ArgError{Op: p.Op, Msg: fmt.Sprintf(format, args...)})
}

// Check panics with an *ArgError if the dimensions, leading dimensions or
// slice lengths are inconsistent, so that the kernels (which use unsafe
// pointer arithmetic) can never read or write out of bounds.
func (p *Args[T]) Check() {
	if p.M < 0 || p.N < 0 || p.K < 0 {
		p.fail("negative dimension m=%d n=%d k=%d", p.M, p.N, p.K)
	}
	ar, ac := p.M, p.K // A as stored
	if p.TransA {
		ar, ac = p.K, p.M
	}
	br, bc := p.K, p.N
	if p.TransB {
		br, bc = p.N, p.K
	}
	lenA, lenB := len(p.A), len(p.B)
	switch p.Half {
	case NoHalf:
	case Float16, BFloat16:
		lenA, lenB = len(p.AH), len(p.BH)
		if p.RoundB {
			lenB = len(p.B)
		}
	default:
		p.fail("unknown operand format %v; use NoHalf, Float16 or BFloat16", p.Half)
	}
	if _, f32 := any(p.B).([]float32); p.RoundB && (p.Half == NoHalf || !f32) {
		p.fail("RoundB rounds a float32 B to the 16-bit format of A; set Half to Float16 or BFloat16 and use float32 Args")
	}
	p.need("A", lenA, ar, ac, p.LDA, "lda")
	p.need("B", lenB, br, bc, p.LDB, "ldb")
	p.checkEpilogue()
	if p.CH != nil {
		p.need("CH", len(p.CH), p.M, p.N, p.LDC, "ldc")
		return
	}
	p.need("C", len(p.C), p.M, p.N, p.LDC, "ldc")
}

func (p *Args[T]) need(name string, n, rows, cols, ld int, ldName string) {
	if ld < max(cols, 1) {
		p.fail("%s = %d is less than max(1, %d), the number of columns of %s as stored; pass the row stride of %s",
			ldName, ld, cols, name, name)
	}
	// Like BLAS, an empty operand may be nil: with m == 0 or n == 0
	// nothing is read, and with k == 0 A and B are not read.
	if p.M == 0 || p.N == 0 || rows == 0 || cols == 0 {
		return
	}
	if need := (rows-1)*ld + cols; n < need {
		p.fail("len(%s) = %d, want at least %d for a %dx%d matrix with %s = %d",
			name, n, need, rows, cols, ldName, ld)
	}
}

// Trivial handles the cases without a product: it reports true (and has
// set C = beta*C where needed) when m, n or k is zero or alpha is zero.
func (p *Args[T]) Trivial() bool {
	if p.M == 0 || p.N == 0 {
		return true
	}
	if p.K != 0 && p.Alpha != 0 {
		return false
	}
	for i := 0; i < p.M; i++ {
		row := p.C[i*p.LDC : i*p.LDC+p.N]
		if p.Beta == 0 {
			clear(row) // beta == 0: C is overwritten, never read
			continue
		}
		if p.Beta != 1 {
			for j := range row {
				row[j] *= p.Beta
			}
		}
	}
	return true
}

// roundedB returns p with B cast to its Half format (the used extent of
// B, in a new BH) and RoundB cleared, for the kernels and paths that read
// only 16-bit operands.  Simplification: this is the full-size copy that
// RoundB saves where the kernel rounds while packing (MicroKernel.RoundB).
func (p *Args[T]) roundedB() Args[T] {
	q := *p
	q.RoundB, q.B = false, nil
	rows, cols := p.K, p.N
	if p.TransB {
		rows, cols = p.N, p.K
	}
	if rows == 0 || cols == 0 || p.M == 0 {
		q.BH = nil
		return q
	}
	b := any(p.B).([]float32)[:(rows-1)*p.LDB+cols]
	q.BH = make([]uint16, len(b))
	p.Half.encodeAll(q.BH, b)
	return q
}
