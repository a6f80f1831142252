package dl

import "github.com/dlbd/dlbd/dl/internal/gls"

// Fusion is dl's stand-in for torch.compile's kernel fusion: a few
// patterns that the compiler would merge into one kernel are written here
// as single ops (FusedLinear for a bias and an activation in the GEMM's
// epilogue, the one-pass cross-entropy, LayerNorm one row at a time,
// CausalSelfAttention without the T×T scores), and the ops and layers that
// can use them do so automatically: CrossEntropy, LayerNorm and
// CausalSelfAttention run their fused kernels on host devices (nn.Block
// calls CausalSelfAttention), and nn.Sequential turns Linear followed by
// ReLU, Tanh or Sigmoid into FusedLinear.  WithoutFusion runs the unfused
// reference path instead, to compare results, memory and time.
//
// Course: "Prácticas de eficiencia computacional" (torch.compile).

// fusionOff is the goroutine-local switch; false (the default) means
// fused kernels are used where they apply.
var fusionOff = gls.New(false)

// WithoutFusion runs fn on the calling goroutine with the fused kernels
// disabled: CrossEntropy, FusedLinear and nn layers take the unfused
// path of separate ops, which computes the same function (the fused
// kernels' docs state the tolerance).  Like NoGrad it is goroutine-local;
// torch has no such switch (not compiling is its unfused path).
func WithoutFusion(fn func()) { fusionOff.With(true, fn) }

// FusionEnabled reports whether fused kernels are used on the calling
// goroutine (true outside WithoutFusion).
func FusionEnabled() bool { return !fusionOff.Get() }
