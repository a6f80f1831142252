// Package vec holds the float32 vector loops on the hot path of a training
// step outside the matrix multiply: the SGD and Adam updates, LayerNorm's
// rows, ReLU and its gradient, sums, and the exponentials of softmax and
// cross-entropy.
// Each is a plain Go loop (its reference, named ...Generic, or exp64) with
// an AVX-512 twin in assembly and, for most, an AVX2 one for CPUs
// without AVX-512, chosen at start-up; results are bit-identical to the
// Go loop.
//
// # Overview
//
//   - [Axpy]: y[i] += alpha*x[i], rounded after the product and after the
//     sum (no fused multiply-add), so SGD's p -= lr*g keeps its bits.
//   - [Adam]: one Adam or AdamW step of a float32 parameter and its two
//     moments, each operation rounded as the Go loop rounds it (the
//     square root and both divisions too), so dl/optim's update keeps
//     its bits; 16 lanes make it ~5x faster than the scalar loop (3.3M
//     parameters: 9.2 -> 1.9 ms, BenchmarkAdam), which
//     was 7% of the bfloat16 Transformer step.
//   - [LayerNormRow], [LayerNormGradRow]: one row of the fused
//     LayerNorm, forward and backward, in float64 arithmetic on float32
//     (AVX-512, 8 lanes; AVX2, 4) or float64 rows; their sums run over
//     16 lanes in an order the Go loops follow too, so all give the same
//     bits (forward and backward of [1024, 256]: 1.38 -> 0.60 ms with
//     AVX-512, 1.83 -> 0.57 ms with AVX2 on a Zen 3, dl's
//     BenchmarkLayerNorm).
//   - [Dot64], [SoftmaxGrad]: a row of the fused attention's backward,
//     D = Σ dY·Y and dS = P·(dP − D)·scale, in float64 lanes (the dot
//     product over 16 lanes in the order of the LayerNorm rows).
//   - [ReLU]: dst[i] = max(src[i], 0) (NaN stays NaN, −0 becomes +0).
//   - [ReLUGrad]: dst[i] = g[i] where y[i] > 0 as an integer, else +0.
//   - [Add]: dst[i] = a[i] + b[i] (gradient accumulation, row sums).
//   - [Max]: the largest element, NaN if there is one.
//   - [Gather2Rows], [ScatterAdd2Rows], [CopyRows], [MaxPool2Row]: the
//     strided rows of a stride-2 convolution's im2col and col2im, of
//     padding, and of 2×2 max pooling (the index of each maximum kept for
//     backward).  Their AVX2 loops take a row's last elements 4 or 1 at
//     a time rather than under masks, which cost more on a Zen 3; with
//     the AVX2 max pooling, dl/nn's BenchmarkCNNStep net=lenet5 on one
//     thread went from ~17.0 to ~13.8 ms there.
//   - [Exp], [ExpSum], [ExpScale]: e^x in float64 lanes (within 2 ulp of
//     math.Exp), Σ exp(x − shift) and scale·exp(x − shift) of float32
//     rows: softmax's normaliser and cross-entropy's gradient.
//   - [GELU], [GELUGrad]: x·Φ(x) and g·(Φ(x) + x·φ(x)) in float32 lanes
//     (within 7 ulp of the float64 formula; gelu.go says how), the MLP
//     activation of a Transformer block.  Unlike the others they are not
//     bit-identical across builds: without assembly they run the float64
//     formula instead of their float32 Go reference.
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
// Most of these loops do one or two arithmetic operations per element
// loaded, so they run at memory speed, not at the arithmetic peak: the
// gain of SIMD over the scalar loop is that one instruction moves 16
// floats, and that the loop has no branch per element.  A profile of the
// MLP training step (dl/nn BenchmarkMLPStep) put the scalar versions at
// ~13% of the step.  The exponential is the exception: ~30 operations per
// element, where 8 lanes and interleaved dependency chains make the fused
// cross-entropy of [256, 8192] logits ~9x faster than math.Exp in a loop,
// and GELU (~45 operations per element, two exponentials and a division
// for its gradient), where math.Erf in a scalar loop was 48% of the
// Transformer training step of dl/nn's BenchmarkTransformerStep and the
// 16-lane loop is ~110x faster (1.1 ms against 128 ms per 2²⁰ elements).
package vec
