// Package vec holds the float32 vector loops on the hot path of a training
// step outside the matrix multiply: the SGD update (y += alpha*x), ReLU and
// its gradient, and row sums (a bias gradient).  Each is a plain Go loop
// (its reference, named ...Generic) with an AVX-512 twin in assembly,
// chosen at start-up; results are bit-identical to the Go loop.
//
// # Overview
//
//   - [Axpy]: y[i] += alpha*x[i], rounded after the product and after the
//     sum (no fused multiply-add), so SGD's p -= lr*g keeps its bits.
//   - [ReLU]: dst[i] = max(src[i], 0) (NaN stays NaN, −0 becomes +0).
//   - [ReLUGrad]: dst[i] = g[i] where y[i] > 0 as an integer, else +0.
//   - [Add]: dst[i] = a[i] + b[i] (gradient accumulation, row sums).
//
// # Errors
//
// Every function panics with a message naming it if its slices have
// different lengths.
//
// # Concepts
//
// Course: "De bucles for a operaciones vectorizadas".
//
// These loops do one or two arithmetic operations per element loaded, so
// they run at memory speed, not at the arithmetic peak: the gain of SIMD
// over the scalar loop is that one instruction moves 16 floats, and that
// the loop has no branch per element.  A profile of the MLP training step
// (dl/nn BenchmarkMLPStep) put the scalar versions at ~13% of the step.
package vec
