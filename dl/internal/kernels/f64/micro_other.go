//go:build !amd64 || dlbd_noasm

package f64

import "github.com/dlbd/dlbd/dl/internal/kernels/gemm"

// simdKernels is empty without assembly (other architectures, or -tags
// dlbd_noasm): Kernel SIMD is then not Available and Auto uses Blocked.
var simdKernels []*gemm.MicroKernel[float64]
