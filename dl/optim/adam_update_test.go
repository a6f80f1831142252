package optim

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// TestAdamVectorMatchesLoop: the float32 update that adamPieces runs
// through vec.Adam (AVX-512 where the CPU has it) gives the bits of
// adamUpdate's Go loop, for AdamW, Adam with and without L2 decay, over
// several steps, on lengths with and without a vector tail.
func TestAdamVectorMatchesLoop(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, n := range []int{1, 16, 45, 70001} {
		for _, c := range []adamCoeffs{
			{lr: 1e-3, beta1: 0.9, beta2: 0.999, eps: 1e-8, weightDecay: 1e-2, decoupled: true},
			{lr: 3e-4, beta1: 0.8, beta2: 0.99, eps: 1e-6, weightDecay: 0.1},
			{lr: 1e-2, beta1: 0.9, beta2: 0.999, eps: 1e-8},
		} {
			vals := func() []float32 {
				s := make([]float32, n)
				for i := range s {
					s[i] = float32(r.NormFloat64() * math.Pow(2, float64(r.IntN(20)-10)))
				}
				return s
			}
			p, m, v := vals(), make([]float32, n), make([]float32, n)
			wp, wm, wv := append([]float32(nil), p...), make([]float32, n), make([]float32, n)
			for step := 1; step <= 3; step++ {
				c.step = step
				g := vals()
				adamPieces(p, g, m, v, nil, c)
				adamUpdate(wp, g, wm, wv, nil, c)
				for i := range p {
					if math.Float32bits(p[i]) != math.Float32bits(wp[i]) || m[i] != wm[i] || v[i] != wv[i] {
						t.Fatalf("%s n=%d step %d: element %d: p, m, v = %v, %v, %v; the Go loop gives %v, %v, %v",
							fmt.Sprintf("%+v", c), n, step, i, p[i], m[i], v[i], wp[i], wm[i], wv[i])
					}
				}
			}
		}
	}
}
