package optim

import (
	"github.com/dlbd/dlbd/dl/internal/kernels/f32"
	"github.com/dlbd/dlbd/dl/internal/kernels/vec"
)

// float is the element type of parameters the optimizers update in place.
type float interface{ ~float32 | ~float64 }

// sgdPieces is sgdUpdate over pieces of the parameter on dl's threads
// (f32.ForRange), with the same result on any number of threads.
func sgdPieces[T float](p, g, buf []T, c SGDConfig, first bool) {
	f32.ForRange(len(p), func(lo, hi int) { sgdUpdate(p[lo:hi], g[lo:hi], piece(buf, lo, hi), c, first) })
}

// sgdUpdate applies one SGD step to the parameter p with gradient g, in
// PyTorch's order (torch.optim.SGD, "Algorithm" in its documentation):
//
//	d = g + λ·p                     (weight decay λ)
//	b = d            on the first step, else  b = μ·b + (1−τ)·d   (momentum μ, dampening τ)
//	d = d + μ·b      if Nesterov, else  d = b
//	p = p − γ·d                     (learning rate γ)
//
// buf is the momentum buffer b (unused when μ = 0); first reports whether
// it has never been written.
func sgdUpdate[T float](p, g, buf []T, c SGDConfig, first bool) {
	lr, mu, damp, wd := T(c.LR), T(c.Momentum), T(1-c.Dampening), T(c.WeightDecay)
	if mu == 0 && wd == 0 { // plain SGD, p = p − γ·g: a branch-free saxpy
		if p32, ok := any(p).([]float32); ok {
			vec.Axpy(float32(-lr), any(g).([]float32)[:len(p)], p32) // p + (−γ)·g rounds like p − γ·g
			return
		}
		g = g[:len(p)]
		for i := range p {
			p[i] -= lr * g[i]
		}
		return
	}
	_ = g[len(p)-1] // one bounds check instead of one per element
	for i := range p {
		d := g[i]
		if wd != 0 {
			d += wd * p[i]
		}
		if mu != 0 {
			if first {
				buf[i] = d
			} else {
				buf[i] = mu*buf[i] + damp*d
			}
			if c.Nesterov {
				d += mu * buf[i]
			} else {
				d = buf[i]
			}
		}
		p[i] -= lr * d
	}
}
