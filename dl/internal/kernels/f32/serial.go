package f32

import "github.com/dlbd/dlbd/dl/internal/kernels/gemm"

// GemmSerial is Gemm on the calling goroutine alone, with transposes as
// booleans, for work that ForEach already spreads over the threads (one
// attention head per goroutine).  It returns the context's error
// (dl.SetCancel) instead of panicking, so that it may run on a helper
// goroutine; inconsistent arguments still panic with a *gemm.ArgError.
func GemmSerial(tA, tB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) error {
	p := gemm.Args[float32]{
		Op: "f32.GemmSerial", TransA: tA, TransB: tB,
		M: m, N: n, K: k, Alpha: alpha, A: a, LDA: lda, B: b, LDB: ldb, Beta: beta, C: c, LDC: ldc,
	}
	return kernels.RunSerial(&p)
}

// ForEach runs f(i) for every i < n on up to Threads() goroutines (the
// caller's and the GEMM kernels' pool), and returns the first error an f
// returned; f must not panic.  See gemm.ForEach.
func ForEach(n int, f func(i int) error) error { return gemm.ForEach(kernels.Threads(), n, f) }

// ElementGrain is the fewest elements ForRange gives a goroutine of an
// elementwise loop: PyTorch CPU's at::internal::GRAIN_SIZE, 32768.
const ElementGrain = 32768

// ForRange runs f over [0, n) in contiguous pieces of at least
// ElementGrain elements on up to Threads() goroutines: the elementwise
// loops of dl (casts, activations, sums, the optimisers' updates).  See
// gemm.ForRange.
func ForRange(n int, f func(lo, hi int)) { gemm.ForRange(kernels.Threads(), n, ElementGrain, f) }

// GemmHalfSerial is GemmHalf on the calling goroutine alone, with
// transposes as booleans, as GemmSerial is Gemm's: the fused attention's
// bfloat16 products, one head per goroutine.  It returns the context's
// error instead of panicking; inconsistent arguments, or an h that is not
// Float16 or BFloat16, panic with a *gemm.ArgError.
func GemmHalfSerial(h Half, tA, tB bool, m, n, k int, alpha float32, a []uint16, lda int, b []uint16, ldb int, beta float32, c []float32, ldc int) error {
	p := halfArgs("f32.GemmHalfSerial", h, transpose(tA), transpose(tB), m, n, k, alpha, a, lda, ldb, beta, c, ldc)
	p.BH = b
	return kernels.RunSerial(&p)
}
