package optim

import (
	"math"

	"github.com/dlbd/dlbd/dl/internal/kernels/f32"
	"github.com/dlbd/dlbd/dl/internal/kernels/vec"
)

// adamPieces is adamUpdate over pieces of the parameter on dl's threads
// (f32.ForRange): each element's update depends on that element alone, so
// the result is the same on any number of threads.
func adamPieces[T float](p, g, m, v, vmax []T, c adamCoeffs) {
	p32, isF32 := any(p).([]float32)
	if isF32 && !c.amsgrad {
		g32, m32, v32, vc := any(g).([]float32), any(m).([]float32), any(v).([]float32), c.vec()
		f32.ForRange(len(p), func(lo, hi int) { vec.Adam(p32[lo:hi], g32[lo:hi], m32[lo:hi], v32[lo:hi], vc) })
		return
	}
	f32.ForRange(len(p), func(lo, hi int) {
		adamUpdate(p[lo:hi], g[lo:hi], m[lo:hi], v[lo:hi], piece(vmax, lo, hi), c)
	})
}

// vec returns c's scalars rounded to float32 as adamUpdate[float32] rounds
// them, for vec.Adam (the same update, 16 lanes at a time with AVX-512).
func (c adamCoeffs) vec() vec.AdamCoeffs {
	bc1, bc2 := c.biasCorrections()
	return vec.AdamCoeffs{
		Beta1: float32(c.beta1), Beta2: float32(c.beta2),
		OneMinusB1: float32(1 - c.beta1), OneMinusB2: float32(1 - c.beta2),
		StepSize: float32(c.lr / bc1), BC2Sqrt: float32(math.Sqrt(bc2)), Eps: float32(c.eps),
		Decay: float32(1 - c.lr*c.weightDecay), WeightDecay: float32(c.weightDecay), Decoupled: c.decoupled,
	}
}

// biasCorrections returns 1 − β1ᵗ and 1 − β2ᵗ.
func (c adamCoeffs) biasCorrections() (bc1, bc2 float64) {
	t := float64(c.step)
	return 1 - math.Pow(c.beta1, t), 1 - math.Pow(c.beta2, t)
}

// piece is s[lo:hi], or nil for a nil s (an optional buffer).
func piece[T any](s []T, lo, hi int) []T {
	if s == nil {
		return nil
	}
	return s[lo:hi]
}

// adamCoeffs are the per-step scalars of Adam, computed in float64 once per
// step as PyTorch computes them in Python floats.
type adamCoeffs struct {
	lr, beta1, beta2, eps, weightDecay float64
	decoupled                          bool // AdamW: p ← p·(1−γλ) instead of g ← g + λp
	amsgrad                            bool
	step                               int // t, starting at 1
}

// adamUpdate applies one Adam (or AdamW) step to p with gradient g and the
// moment buffers m, v (and vmax for AMSGrad), following PyTorch's
// single-tensor implementation of torch.optim.Adam / AdamW:
//
//	p = p·(1 − γλ)                  AdamW only (decoupled weight decay)
//	g = g + λ·p                     Adam only, when λ ≠ 0
//	m = β1·m + (1−β1)·g
//	v = β2·v + (1−β2)·g²
//	vmax = max(vmax, v)             AMSGrad only; v̂ below uses vmax then
//	p = p − (γ / (1−β1ᵗ)) · m / (√v / √(1−β2ᵗ) + ε)
//
// The last line is the documented m̂ / (√v̂ + ε) with m̂ = m/(1−β1ᵗ) and
// v̂ = v/(1−β2ᵗ), rearranged as PyTorch does: ε is added after dividing √v by
// √(1−β2ᵗ), not to v̂ under the root.
func adamUpdate[T float](p, g, m, v, vmax []T, c adamCoeffs) {
	bc1, bc2 := c.biasCorrections()
	stepSize := T(c.lr / bc1)
	bc2Sqrt := T(math.Sqrt(bc2))
	b1, b2, eps := T(c.beta1), T(c.beta2), T(c.eps)
	omb1, omb2 := T(1-c.beta1), T(1-c.beta2) // 1−β in float64 first, as PyTorch's alpha=1-beta
	decay := T(1 - c.lr*c.weightDecay)
	wd := T(c.weightDecay)
	_ = g[len(p)-1]
	_ = m[len(p)-1]
	_ = v[len(p)-1]
	for i := range p {
		gi := g[i]
		if c.decoupled {
			p[i] *= decay
		} else if wd != 0 {
			gi += wd * p[i]
		}
		m[i] = b1*m[i] + omb1*gi
		v[i] = b2*v[i] + omb2*gi*gi
		vi := v[i]
		if c.amsgrad {
			vmax[i] = max(vmax[i], vi)
			vi = vmax[i]
		}
		denom := T(math.Sqrt(float64(vi)))/bc2Sqrt + eps
		p[i] -= stepSize * (m[i] / denom)
	}
}
