package vec

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// adamModes are the three weight-decay modes of one step: AdamW's decay
// of p, Adam's λp added to g, and neither (λ = −0 counts as 0).
var adamModes = []struct {
	name string
	c    AdamCoeffs
}{
	{"adamw", AdamCoeffs{Decay: 1 - 1e-3*1e-2, WeightDecay: 1e-2, Decoupled: true}},
	{"adam-l2", AdamCoeffs{WeightDecay: 1e-2}},
	{"adam", AdamCoeffs{WeightDecay: float32(math.Copysign(0, -1))}},
}

// adamStep fills c's per-step scalars as dl/optim computes them.
func adamStep(c AdamCoeffs, step int) AdamCoeffs {
	const lr, b1, b2 = 1e-3, 0.9, 0.999
	t := float64(step)
	c.Beta1, c.Beta2 = b1, b2
	c.OneMinusB1, c.OneMinusB2 = float32(1-b1), float32(1-b2)
	c.StepSize = float32(lr / (1 - math.Pow(b1, t)))
	c.BC2Sqrt = float32(math.Sqrt(1 - math.Pow(b2, t)))
	c.Eps = 1e-8
	return c
}

func TestAdamMatchesGeneric(t *testing.T) {
	forCases(t, func(t *testing.T, r *rand.Rand, n, off int) {
		for _, mode := range adamModes {
			for _, step := range []int{1, 1000} {
				c := adamStep(mode.c, step)
				g := input(r, n, off)
				m := input(r, n, (off+1)%4)
				v := input(r, n, (off+2)%4)
				for i := len(specials); i < n; i++ { // past the specials, a second moment is ≥ 0
					v[i] = float32(math.Abs(float64(v[i])))
				}
				p, guards := output(t, n, (off+3)%4)
				copy(p, input(r, n, 0))
				wp, wm, wv := append([]float32(nil), p...), append([]float32(nil), m...), append([]float32(nil), v...)
				g0 := append([]float32(nil), g...)
				adamGeneric(wp, g, wm, wv, &c)
				Adam(p, g, m, v, c)
				name := fmt.Sprintf("Adam %s step %d", mode.name, step)
				compare(t, name+" p", p, wp)
				compare(t, name+" m", m, wm)
				compare(t, name+" v", v, wv)
				compare(t, name+" g (not written)", g, g0)
				guards(name)
			}
		}
	})
}

// TestAdamValues checks one step against values worked out by hand: at
// step 1 the bias corrections make the update −γ·g/(|g| + ε·…) ≈ −γ·sign(g).
func TestAdamValues(t *testing.T) {
	for _, n := range []int{3, 35} { // the Go loop alone, and vectors with a tail
		p, g, m, v := make([]float32, n), make([]float32, n), make([]float32, n), make([]float32, n)
		for i := range p {
			p[i], g[i] = 1, float32(i%3)-1 // g = −1, 0, 1, ...
		}
		c := adamStep(AdamCoeffs{}, 1)
		Adam(p, g, m, v, c)
		for i := range p {
			want := 1 - 1e-3*float64(g[i])
			if math.Abs(float64(p[i])-want) > 1e-6 {
				t.Fatalf("n=%d: p[%d] = %v after one step with g = %v; want %v", n, i, p[i], g[i], want)
			}
			if wm := 0.1 * float64(g[i]); math.Abs(float64(m[i])-wm) > 1e-7 {
				t.Fatalf("n=%d: m[%d] = %v; want (1−β1)·g = %v", n, i, m[i], wm)
			}
		}
	}
}

func TestAdamLengths(t *testing.T) {
	defer func() {
		msg := fmt.Sprint(recover())
		if !strings.Contains(msg, "Adam") || !strings.Contains(msg, "3 and 2") {
			t.Errorf("Adam with a short gradient: panic %q; want one naming Adam and the lengths 3 and 2", msg)
		}
	}()
	Adam(make([]float32, 3), make([]float32, 2), make([]float32, 3), make([]float32, 3), AdamCoeffs{})
}
