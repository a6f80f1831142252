package vec

import "math"

// AdamCoeffs are the float32 scalars of one Adam or AdamW step, computed
// once per step by the optimiser (dl/optim) in float64 and rounded.
type AdamCoeffs struct {
	Beta1, Beta2 float32 // β1, β2
	OneMinusB1   float32 // 1 − β1, computed in float64 first
	OneMinusB2   float32 // 1 − β2, computed in float64 first
	StepSize     float32 // γ / (1 − β1ᵗ)
	BC2Sqrt      float32 // √(1 − β2ᵗ)
	Eps          float32 // ε
	Decay        float32 // 1 − γλ: AdamW's p ← p·(1 − γλ) when Decoupled
	WeightDecay  float32 // λ: Adam's g ← g + λp when not Decoupled and λ ≠ 0
	Decoupled    bool    // AdamW (decoupled weight decay)
}

// Adam applies one Adam (or AdamW) step to the parameters p with the
// gradient g and the moment buffers m and v, element by element, exactly
// as the Go loop of adamGeneric rounds it (each product, sum, quotient
// and square root rounded to float32, no fused multiply-add):
//
//	p = p·Decay                     Decoupled only
//	g = g + WeightDecay·p           not Decoupled, WeightDecay ≠ 0
//	m = Beta1·m + OneMinusB1·g
//	v = Beta2·v + OneMinusB2·g·g
//	p = p − StepSize·(m / (√v / BC2Sqrt + Eps))
//
// g is not written.  It panics unless the four slices have equal lengths.
func Adam(p, g, m, v []float32, c AdamCoeffs) {
	check("Adam", len(p), len(g))
	check("Adam", len(p), len(m))
	check("Adam", len(p), len(v))
	n := adamVec(p, g, m, v, &c)
	adamGeneric(p[n:], g[n:], m[n:], v[n:], &c)
}

// adamGeneric is Adam's reference loop.
func adamGeneric(p, g, m, v []float32, c *AdamCoeffs) {
	g, m, v = g[:len(p)], m[:len(p)], v[:len(p)]
	for i := range p {
		gi := g[i]
		if c.Decoupled {
			p[i] *= c.Decay
		} else if c.WeightDecay != 0 {
			gi += c.WeightDecay * p[i]
		}
		m[i] = c.Beta1*m[i] + c.OneMinusB1*gi
		v[i] = c.Beta2*v[i] + c.OneMinusB2*gi*gi
		denom := float32(math.Sqrt(float64(v[i])))/c.BC2Sqrt + c.Eps
		p[i] -= c.StepSize * (m[i] / denom)
	}
}
