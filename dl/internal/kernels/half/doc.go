// Package half converts between float32 and the two 16-bit floating-point
// formats of deep learning: IEEE 754 binary16 ("float16", "half") and
// bfloat16.  dlbd stores Float16 and BFloat16 tensors as uint16 and
// computes in float32, as tensor cores and CPU autocast do, so these
// conversions sit on the hot path of mixed precision.
//
// # Overview
//
// Scalar conversions: [Float32ToFloat16], [Float16ToFloat32],
// [Float32ToBFloat16], [BFloat16ToFloat32].  Bulk conversions of slices,
// vectorised on amd64 (float16: F16C or AVX-512; bfloat16: AVX2 or
// AVX-512) with a Go fallback elsewhere or with -tags dlbd_noasm: [EncodeFloat16], [DecodeFloat16], [EncodeBFloat16],
// [DecodeBFloat16].  Bulk and scalar results are bit-identical.
// [RoundFloat16] and [RoundBFloat16] round float32 values to the 16-bit
// formats in place (a cast there and back, without the 16-bit copy).
//
// Rounding is round-to-nearest, ties to even (RNE), as in IEEE 754 and
// PyTorch's .half() / .bfloat16().  Subnormals are kept (never flushed to
// zero), overflow gives ±Inf, and NaN stays a quiet NaN with its sign.
//
// # Errors
//
// The bulk functions panic if len(dst) != len(src); the scalar ones cannot
// fail.
//
// # Concepts
//
// Course: "Prácticas de eficiencia computacional", mixed precision (AMP).
//
//	format    sign  exponent  mantissa  max          smallest normal
//	float32   1     8         23        3.4e38       1.2e-38
//	float16   1     5         10        65504        6.1e-5
//	bfloat16  1     8         7         3.4e38       1.2e-38
//
// bfloat16 is the upper half of a float32: same range, 3 significant
// decimal digits; float16 has more precision but overflows above 65504,
// which is why fp16 training needs loss scaling and bf16 does not.
// Paper: Micikevicius et al. 2018, Mixed Precision Training
// (arXiv:1710.03740); Kalamkar et al. 2019, A Study of BFLOAT16 for Deep
// Learning Training (arXiv:1905.12322).
package half
