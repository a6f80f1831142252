package bench

import (
	"math"
	"time"

	"github.com/dlbd/dlbd/dl"
)

// checkEntries is the number of entries of C compared with a float64
// reference after the warm-up.
const checkEntries = 64

// problem holds the operands of one size: A and B on the device, and
// their values (rounded to the dtype) on the host in float64 for the
// check.
type problem struct {
	n      int
	a, b   *dl.Tensor
	a64    []float64
	b64    []float64
	picked [][2]int // the (i, j) entries the check compares
}

// newProblem draws A and B (standard normal) from gen, rounds them to dt
// and moves them to dev; withCheck keeps their float64 values and picks
// the entries for check.
func newProblem(gen *dl.Generator, n int, dt dl.DType, dev dl.Device, withCheck bool) *problem {
	p := &problem{n: n}
	opts := dl.Options{Generator: gen}
	for _, dst := range []struct {
		t   **dl.Tensor
		f64 *[]float64
	}{{&p.a, &p.a64}, {&p.b, &p.b64}} {
		h := opts.Randn(n, n)
		hd := h.AsType(dt) // the values the kernel will see
		if withCheck {
			*dst.f64 = hd.Float64s()
		}
		*dst.t = hd.To(dev)
		for _, tmp := range []*dl.Tensor{h, hd} { // release what is not the operand
			if tmp != *dst.t {
				tmp.Release()
			}
		}
	}
	for range checkEntries {
		p.picked = append(p.picked, [2]int{int(gen.Uint64() % uint64(n)), int(gen.Uint64() % uint64(n))})
	}
	return p
}

func (p *problem) release() {
	p.a.Release()
	p.b.Release()
}

// point is a kernel being measured at one size.
type point struct {
	res  *MatMulResult
	call func() // one product, finished (synchronised) when it returns
	reps int    // samples this point takes
}

// warmUp checks kernel k's product (the warm-up call: first touch of the
// output's memory, code paths, caches), calibrates the number of products per
// sample and decides how many samples fit in budget.
func (p *problem) warmUp(k dl.MatMulKernel, res *MatMulResult, budget time.Duration, reps int) *point {
	c := dl.MatMulWith(k, p.a, p.b)
	res.RelErr = p.check(c.Float64s())
	c.Release()
	call := func() {
		c := dl.MatMulWith(k, p.a, p.b)
		synchronize(c)
		c.Release()
	}
	inner, one := calibrate(call)
	res.Inner = inner
	return &point{res: res, call: call, reps: repsFor(budget, one*float64(inner), reps)}
}

// check returns the largest error of the picked entries of c (n×n,
// row-major) relative to Σ_p |a_ip·b_pj|, the scale of the rounding
// errors of a dot product.
func (p *problem) check(c []float64) float64 {
	worst := 0.0
	for _, ij := range p.picked {
		i, j := ij[0], ij[1]
		var sum, scale float64
		for q := range p.n {
			x := p.a64[i*p.n+q] * p.b64[q*p.n+j]
			sum += x
			scale += math.Abs(x)
		}
		if scale == 0 {
			continue
		}
		if e := math.Abs(c[i*p.n+j]-sum) / scale; e > worst || math.IsNaN(e) {
			worst = e
		}
	}
	return worst
}
