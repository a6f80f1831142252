package cuda

import "fmt"

// Gemm describes C = op(A)·op(B) + Beta·C on ROW-major matrices, the
// layout of dl, NumPy and C arrays: C is M×N, op(A) is M×K, op(B) is K×N,
// each stored densely (A is M×K, or K×M when TransA is Trans).
type Gemm struct {
	TransA, TransB      Op
	M, N, K             int
	A, B, C             DevPtr
	AType, BType, CType DataType    // element types; zero: float32
	Compute             ComputeType // zero: Compute32F
	// LDA, LDB, LDC are the row strides (leading dimensions, in elements)
	// of A, B and C as stored; zero: dense rows.
	LDA, LDB, LDC int
	// Alpha scales the product; zero means 1 (the plain product).
	Alpha float64
	// Beta scales the old C. Zero (the default) overwrites C without
	// reading it, so a NaN-poisoned output is fine.
	Beta float64
}

// colMajor is one cuBLAS call's shape arguments.
type colMajor struct {
	ta, tb        Op
	m, n, k       int
	a             DevPtr
	lda           int
	b             DevPtr
	ldb, ldc      int
	aType, bType  DataType
	compute       ComputeType
	cType         DataType
	c             DevPtr
	beta, alpha   float64
	allFloat32Def bool // plain fp32 with default compute: Sgemm
}

// toColMajor rewrites a row-major product for column-major cuBLAS.
// A row-major R×C matrix, read column-major, is its C×R transpose. So
// instead of C = op(A)·op(B) we ask cuBLAS for Cᵀ = op(B)ᵀ·op(A)ᵀ: swap the
// operands and the sizes M and N, keep the transpose flags, and Cᵀ comes
// out column-major, which is C row-major. No data moves.
func (g Gemm) toColMajor() colMajor {
	ld := func(given int, t Op, notTransCols, transCols int) int {
		if given > 0 {
			return given
		}
		if t != NoTrans {
			notTransCols = transCols
		}
		return max(notTransCols, 1) // cuBLAS insists on ld >= 1, even when K = 0
	}
	alpha := g.Alpha
	if alpha == 0 {
		alpha = 1
	}
	comp := g.Compute
	if comp == 0 {
		comp = Compute32F
	}
	return colMajor{
		ta: g.TransB, tb: g.TransA, m: g.N, n: g.M, k: g.K,
		a: g.B, lda: ld(g.LDB, g.TransB, g.N, g.K), // op(B) is K×N: stored K×N (ld N) or N×K (ld K)
		b: g.A, ldb: ld(g.LDA, g.TransA, g.K, g.M), // op(A) is M×K: stored M×K (ld K) or K×M (ld M)
		c: g.C, ldc: ld(g.LDC, NoTrans, g.N, g.N),
		aType: g.BType, bType: g.AType, cType: g.CType, compute: comp,
		alpha: alpha, beta: g.Beta,
		allFloat32Def: g.AType == R32F && g.BType == R32F && g.CType == R32F && comp == Compute32F,
	}
}

// RowMajorGemm runs g: through cublasSgemm_v2 for plain float32 (so the
// handle's math mode, see SetMath, applies), cublasDgemm_v2 when all three
// types are R64F, and cublasGemmEx otherwise.
func (b *BLAS) RowMajorGemm(g Gemm) error {
	if g.M < 0 || g.N < 0 || g.K < 0 || (g.TransA != NoTrans && g.TransA != Trans) || (g.TransB != NoTrans && g.TransB != Trans) {
		return fmt.Errorf("cuda: gemm with M=%d N=%d K=%d TransA=%d TransB=%d: sizes must be >= 0 and ops NoTrans or Trans",
			g.M, g.N, g.K, g.TransA, g.TransB)
	}
	if g.M == 0 || g.N == 0 {
		return nil
	}
	c := g.toColMajor()
	if g.AType == R64F && g.BType == R64F && g.CType == R64F {
		return b.Dgemm(c.ta, c.tb, c.m, c.n, c.k, c.alpha, c.a, c.lda, c.b, c.ldb, c.beta, c.c, c.ldc)
	}
	if c.allFloat32Def {
		return b.Sgemm(c.ta, c.tb, c.m, c.n, c.k, float32(c.alpha), c.a, c.lda, c.b, c.ldb, float32(c.beta), c.c, c.ldc)
	}
	return b.GemmEx(c.ta, c.tb, c.m, c.n, c.k, float32(c.alpha), c.a, c.aType, c.lda, c.b, c.bType, c.ldb,
		float32(c.beta), c.c, c.cType, c.ldc, c.compute)
}
