package optim

import "math"

// sumSquares returns Σ gᵢ², accumulated in float64 so the total norm of
// millions of float32 gradients does not lose digits (PyTorch accumulates
// per tensor in the gradient's dtype; the results agree to float32
// rounding).
func sumSquares[T float](g []T) float64 {
	var s float64
	for _, v := range g {
		s += float64(v) * float64(v)
	}
	return s
}

// clipCoef returns the factor ClipGradNorm multiplies every gradient by,
// as torch.nn.utils.clip_grad_norm_ computes it: min(1, maxNorm/(total+1e-6)).
// The 1e-6 keeps the division finite for zero gradients and makes a clipped
// norm land just below maxNorm.
func clipCoef(total, maxNorm float64) float64 {
	return math.Min(1, maxNorm/(total+1e-6))
}
