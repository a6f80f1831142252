// Package reduce holds the element-wise kernels behind dl/dist's
// collectives: combining two buffers (the ring and tree algorithms) and the
// fused reduce-and-broadcast over n buffers (the shared-memory algorithm).
//
// # Overview
//
// Every kernel has a portable Go version (Combine, Fused) that documents the
// loop; on amd64 with AVX-512 the float32/float64 sums run in assembly
// (build tag dlbd_noasm disables it). Both versions add in the same order, so they
// give bit-identical results; the tests check it.
//
// # Errors
//
// Kernels panic on misuse (different lengths); they never return errors.
//
// # Concepts
//
// Fused reduce-and-broadcast: for each 256-byte stripe, load the stripe of
// all n buffers, add them in registers in rank order 0..n-1, optionally
// divide, and store the result back into all n buffers. The stores hit cache
// lines that were just loaded, so main memory sees exactly one read and one
// write of every byte: 2·n·S bytes for n buffers of S bytes, the floor of an
// in-process all-reduce.
package reduce
