//go:build !amd64 || dlbd_noasm

package f32

import "github.com/dlbd/dlbd/dl/internal/kernels/gemm"

// simdKernels is empty without assembly (other architectures, or -tags
// dlbd_noasm): Kernel SIMD is then not Available and Auto uses Blocked.
var simdKernels []*gemm.MicroKernel[float32]

// bf16Kernels is nil without assembly: bfloat16 products decode to float32.
var bf16Kernels *gemm.MicroKernel[float32]

// tileKernels is empty without assembly.
var tileKernels []*gemm.MicroKernel[float32]
