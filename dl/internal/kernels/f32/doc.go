// Package f32 multiplies float32 matrices: the GEMM kernels behind dl's
// MatMul, from the course's triple loop to an AVX-512 assembly kernel.
//
// # Overview
//
// [Gemm] computes C = alpha*op(A)*op(B) + beta*C on row-major slices, with
// the signature and semantics of gonum's blas.Float32Level3.Sgemm, using
// the fastest available kernel; [GemmWith] picks one explicitly:
//
//   - [Naive]: the course's "bucles for" (i, j, p), one goroutine.
//   - [Blocked]: packing and cache blocking (GotoBLAS/BLIS) around a
//     portable Go micro-kernel, on [Threads] goroutines.
//   - [Gonum]: gonum's BLAS, the "use a library" baseline.
//   - [SIMD]: the same driver around a Go-assembly micro-kernel (AVX-512
//     14x32, or AVX2 6x16), chosen at start-up from the CPU's features.
//
// [GemmBatched] computes a strided batch of products (like torch.bmm).
// [GemmHalf] takes A and B as float16 or bfloat16 bits and accumulates in
// float32, decoding while it packs (mixed precision's matmuls, with no
// float32 copy of the operands); it equals Gemm on the decoded operands
// bit for bit, except for bfloat16 with SIMD (and so Auto) on CPUs with
// AVX512_BF16: there a VDPBF16PS micro-kernel multiplies pairs of
// bfloat16 values at twice the float32 rate (~180 GFLOP/s per core here
// against ~90), summing each pair in the instruction's order and treating
// subnormals as zero, within float32 rounding of the exact product, like
// PyTorch's CPU autocast (oneDNN).  The Blocked kernel and the other
// micro-kernels keep the bit-identical decoding path.
// [SetThreads] sets the goroutines per call (like torch.set_num_threads).
//
// All kernels pass the same tests (dl/internal/kernels/gemm/gemmtest).
// Speeds are measured by BenchmarkGemm, BenchmarkGemmShapes (the MLP
// training step's products), BenchmarkGemmBatched and, against NumPy's
// OpenBLAS and PyTorch in the same run, `make bench` (scripts/bench).  On
// this project's 2-core Zen 4 machine (measured with make bench, December
// 2026) SIMD runs at about 1.0x OpenBLAS
// (float32 ~95 GFLOP/s per core, 93% of the FMA peak, at n >= 256), the
// portable Blocked kernel at ~4-8 GFLOP/s and gonum at ~10-17.
//
// # Errors
//
// Inconsistent arguments (negative sizes, leading dimensions smaller than
// a row, slices too short, an unknown transpose or kernel) panic with a
// *gemm.ArgError naming the argument and the fix, like gonum's BLAS.
//
// # Concepts
//
// Course: "Computación eficiente para Deep Learning", "De bucles for a
// operaciones vectorizadas".
// Paper: Goto and van de Geijn 2008, Anatomy of High-Performance Matrix
// Multiplication (ACM TOMS 34(3)).
//
// A matrix multiply does 2mnk floating-point operations on only
// (mk + kn + mn) numbers, so it can run at the CPU's arithmetic peak if
// every number loaded from memory is reused many times from registers and
// caches.  The naive loop reuses nothing and runs at memory speed; the
// blocked kernel reuses packed blocks from L1/L2; SIMD adds 16-wide fused
// multiply-adds.
package f32
