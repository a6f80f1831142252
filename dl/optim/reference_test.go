package optim

import (
	"math"
	"testing"
)

// The reference loops below are written from PyTorch's documented
// algorithms (torch.optim.SGD / Adam / AdamW, "Algorithm" boxes), in
// float64, one scalar at a time, independently of the kernels under test.

type refSGD struct {
	lr, momentum, dampening, wd float64
	nesterov                    bool
	b                           []float64
	t                           int
}

func (r *refSGD) step(theta, g []float64) {
	r.t++
	if r.b == nil {
		r.b = make([]float64, len(theta))
	}
	for i := range theta {
		gt := g[i]
		if r.wd != 0 {
			gt = gt + r.wd*theta[i]
		}
		if r.momentum != 0 {
			if r.t > 1 {
				r.b[i] = r.momentum*r.b[i] + (1-r.dampening)*gt
			} else {
				r.b[i] = gt
			}
			if r.nesterov {
				gt = gt + r.momentum*r.b[i]
			} else {
				gt = r.b[i]
			}
		}
		theta[i] = theta[i] - r.lr*gt
	}
}

type refAdam struct {
	lr, beta1, beta2, eps, wd float64
	amsgrad, decoupled        bool
	m, v, vmax                []float64
	t                         int
}

func (r *refAdam) step(theta, g []float64) {
	r.t++
	if r.m == nil {
		r.m, r.v, r.vmax = make([]float64, len(theta)), make([]float64, len(theta)), make([]float64, len(theta))
	}
	for i := range theta {
		gt := g[i]
		if r.decoupled {
			theta[i] = theta[i] - r.lr*r.wd*theta[i]
		} else if r.wd != 0 {
			gt = gt + r.wd*theta[i]
		}
		r.m[i] = r.beta1*r.m[i] + (1-r.beta1)*gt
		r.v[i] = r.beta2*r.v[i] + (1-r.beta2)*gt*gt
		mhat := r.m[i] / (1 - math.Pow(r.beta1, float64(r.t)))
		var vhat float64
		if r.amsgrad {
			r.vmax[i] = math.Max(r.vmax[i], r.v[i])
			vhat = r.vmax[i] / (1 - math.Pow(r.beta2, float64(r.t)))
		} else {
			vhat = r.v[i] / (1 - math.Pow(r.beta2, float64(r.t)))
		}
		theta[i] = theta[i] - r.lr*mhat/(math.Sqrt(vhat)+r.eps)
	}
}

// quadGrad is the gradient of Σ c_i (θ_i − a_i)² / 2 plus a term that
// changes sign, so momentum and AMSGrad's max both matter.
func quadGrad(theta []float64, step int) []float64 {
	g := make([]float64, len(theta))
	for i, th := range theta {
		c := 0.5 + float64(i%3)
		a := float64(i) - 2
		g[i] = c*(th-a) + 0.3*math.Sin(float64(step*(i+1)))
	}
	return g
}

func initTheta(n int) []float64 {
	theta := make([]float64, n)
	for i := range theta {
		theta[i] = math.Cos(float64(i)) * 1.5
	}
	return theta
}

func closeRel(a, b, tol float64) bool {
	return math.Abs(a-b) <= tol*math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
}

func TestSGDUpdateMatchesReference(t *testing.T) {
	cfgs := []SGDConfig{
		{LR: 0.1},
		{LR: 0.1, WeightDecay: 0.01},
		{LR: 0.05, Momentum: 0.9},
		{LR: 0.05, Momentum: 0.9, Dampening: 0.5, WeightDecay: 0.1},
		{LR: 0.05, Momentum: 0.9, Nesterov: true, WeightDecay: 0.1},
	}
	const n, steps = 7, 6
	for _, c := range cfgs {
		ref := &refSGD{lr: c.LR, momentum: c.Momentum, dampening: c.Dampening, wd: c.WeightDecay, nesterov: c.Nesterov}
		want := initTheta(n)
		p64, buf64 := initTheta(n), make([]float64, n)
		p32, buf32 := toF32(initTheta(n)), make([]float32, n)
		for s := range steps {
			ref.step(want, quadGrad(want, s))
			sgdUpdate(p64, quadGrad(p64, s), buf64, c, s == 0)
			sgdUpdate(p32, toF32(quadGrad(toF64(p32), s)), buf32, c, s == 0)
		}
		for i := range want {
			if !closeRel(p64[i], want[i], 1e-13) || !closeRel(float64(p32[i]), want[i], 1e-5) {
				t.Errorf("SGD %+v after %d steps: θ[%d] = %v (float64), %v (float32); want %v", c, steps, i, p64[i], p32[i], want[i])
			}
		}
	}
}

func TestAdamUpdateMatchesReference(t *testing.T) {
	type cfg struct {
		name            string
		wd              float64
		amsgrad, adamw  bool
		lr, b1, b2, eps float64
	}
	cfgs := []cfg{
		{name: "adam", lr: 0.1, b1: 0.9, b2: 0.999, eps: 1e-8},
		{name: "adam/wd", lr: 0.1, b1: 0.9, b2: 0.999, eps: 1e-8, wd: 0.1},
		{name: "adam/amsgrad", lr: 0.1, b1: 0.8, b2: 0.99, eps: 1e-6, amsgrad: true},
		{name: "adamw", lr: 0.1, b1: 0.9, b2: 0.999, eps: 1e-8, wd: 0.05, adamw: true},
		{name: "adamw/amsgrad/bigeps", lr: 0.01, b1: 0.5, b2: 0.9, eps: 0.1, wd: 0.3, adamw: true, amsgrad: true},
	}
	const n, steps = 7, 8
	for _, c := range cfgs {
		t.Run(c.name, func(t *testing.T) {
			ref := &refAdam{lr: c.lr, beta1: c.b1, beta2: c.b2, eps: c.eps, wd: c.wd, amsgrad: c.amsgrad, decoupled: c.adamw}
			want := initTheta(n)
			p64, m64, v64, x64 := initTheta(n), make([]float64, n), make([]float64, n), make([]float64, n)
			p32, m32, v32, x32 := toF32(initTheta(n)), make([]float32, n), make([]float32, n), make([]float32, n)
			for s := range steps {
				co := adamCoeffs{lr: c.lr, beta1: c.b1, beta2: c.b2, eps: c.eps, weightDecay: c.wd, decoupled: c.adamw, amsgrad: c.amsgrad, step: s + 1}
				ref.step(want, quadGrad(want, s))
				adamUpdate(p64, quadGrad(p64, s), m64, v64, x64, co)
				adamUpdate(p32, toF32(quadGrad(toF64(p32), s)), m32, v32, x32, co)
			}
			for i := range want {
				if !closeRel(p64[i], want[i], 1e-12) || !closeRel(float64(p32[i]), want[i], 2e-5) {
					t.Errorf("after %d steps: θ[%d] = %v (float64), %v (float32); want %v", steps, i, p64[i], p32[i], want[i])
				}
			}
		})
	}
}

func toF32(v []float64) []float32 {
	out := make([]float32, len(v))
	for i, x := range v {
		out[i] = float32(x)
	}
	return out
}

func toF64(v []float32) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = float64(x)
	}
	return out
}
