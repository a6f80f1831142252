// Package gemm holds the dtype-independent machinery of dlbd's matrix
// multiply kernels, written once with type parameters and used by the f32
// and f64 packages: argument checks, the course's naive triple loop, and the
// BLIS-style five-loop blocked driver with packing, cache blocking and
// goroutine parallelism.  The dtype packages add what differs per type: the
// SIMD micro-kernels (assembly) and the binding to gonum's BLAS.
//
// # Overview
//
// Every entry point computes C = alpha*op(A)*op(B) + beta*C on row-major
// matrices, with the conventions of gonum's blas.Float32Level3.Sgemm: op(A)
// is m x k, op(B) is k x n, C is m x n, lda/ldb/ldc are row strides in
// elements, and C is never read when beta == 0 (NaN in C is overwritten).
//
//   - [Naive] is the triple loop of the course ("de bucles for a operaciones
//     vectorizadas"): read it first.
//   - [Blocked] is the GotoBLAS/BLIS algorithm: it packs blocks of A and B
//     into the order a small register-blocked micro-kernel ([MicroKernel])
//     reads them, so that the inner loops run out of L1/L2 cache.  Its
//     goroutines share the packed B block and take chunks of C from atomic
//     counters (job.go); the helpers are pool workers (pool.go) that spin
//     briefly after each task and then park, and live for the process.
//   - [Kernels.RunBatched] runs strided batches (torch.bmm).
//   - With [Args.Half] set, A and B are 16-bit floats that the packing
//     decodes (half.go): mixed precision without float32 copies.
//
// The dtype packages' kernels are tested by the gemmtest suite: every code
// path against a float64 truth with a rounding-error bound.
//
// # Errors
//
// [Args.Check] panics with a *ArgError naming the call, the argument and the
// fix when dimensions, leading dimensions or slice lengths are inconsistent,
// like gonum's BLAS does.  All later unsafe pointer arithmetic relies on it.
//
// # Concepts
//
// Course: "Computación eficiente para Deep Learning", "De bucles for a
// operaciones vectorizadas".
// Paper: Goto and van de Geijn 2008, Anatomy of High-Performance Matrix
// Multiplication (ACM TOMS 34(3)); Van Zee and van de Geijn 2015, BLIS
// (ACM TOMS 41(3)).
package gemm
