package optim

import (
	"math"

	"github.com/dlbd/dlbd/dl"
)

// ClipGradNorm rescales the gradients of params so that their total 2-norm
// (the norm of all gradients concatenated) is at most maxNorm, and returns
// the total norm before clipping, like torch.nn.utils.clip_grad_norm_. The
// factor is min(1, maxNorm/(norm + 1e-6)). Parameters without a gradient are
// skipped. The rescaling is in place: autograd does not see it.
func ClipGradNorm(params []*dl.Tensor, maxNorm float64) float64 {
	var sq float64
	for _, p := range params {
		if g := p.Grad(); g != nil {
			if g.DType() == dl.Float64 && g.Device().IsHost() {
				sq += sumSquares(g.Float64Data())
			} else if g.DType() == dl.Float32 && g.Device().IsHost() {
				sq += sumSquares(g.Float32Data())
			} else {
				sq += sumSquares(g.Float64s()) // a copy: other devices and dtypes
			}
		}
	}
	total := math.Sqrt(sq)
	if c := clipCoef(total, maxNorm); c < 1 {
		for _, p := range params {
			if g := p.Grad(); g != nil {
				g.ScaleInPlace(c)
			}
		}
	}
	return total
}
