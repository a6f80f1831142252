package dl

import (
	"fmt"
	"math"

	"github.com/dlbd/dlbd/dl/internal/cancel"
	"github.com/dlbd/dlbd/dl/internal/kernels/vec"
)

// BatchNorm normalises x [N, C, ...] per channel (axis 1) and applies the
// affine map weight·x̂ + bias (weight and bias are [C] or nil), like
// torch.nn.functional.batch_norm:
// x̂ = (x − mean) / √(var + eps).
//
// In training mode mean and var are the statistics of the batch (over
// every axis but 1, var biased), and runningMean and runningVar (both [C],
// or both nil) are updated in place, as PyTorch does:
// running = (1 − momentum)·running + momentum·batch, with the unbiased
// variance (× M/(M − 1), M the values per channel) for runningVar.  In
// evaluation mode (training false) the running statistics normalise,
// and must be given.  Backward is the closed form
// dx = weight·rstd·(g − mean(g) − x̂·mean(g·x̂)) in training mode (the
// statistics depend on x) and dx = weight·rstd·g in evaluation mode;
// dweight = Σ g·x̂, dbias = Σ g.  The running statistics never require
// grad.
//
// Half x (under autocast) may have Float32 parameters and statistics, as
// in PyTorch; the result has x's dtype.  On host devices one goroutine
// handles a channel, in float64; elsewhere it is composed of
// differentiable ops.  It panics with a *ShapeError for an x of rank
// below 2 or parameters that are not [C], and a *ValueError in training
// mode when a channel has a single value, or in evaluation mode without
// running statistics.
// Paper: Ioffe and Szegedy 2015, Batch Normalization (arXiv:1502.03167).
func BatchNorm(x, runningMean, runningVar, weight, bias *Tensor, training bool, momentum, eps float64) *Tensor {
	const op = "BatchNorm"
	x.live(op)
	requireFloat(op, x, runningMean, runningVar, weight, bias)
	if len(x.shape) < 2 {
		panic(shapeErr(op, [][]int{x.shape}, "pass [N, C] or [N, C, H, W]", "input of shape %v has no channel axis (axis 1)", x.shape))
	}
	c := x.shape[1]
	for _, p := range []*Tensor{runningMean, runningVar, weight, bias} {
		if p == nil {
			continue
		}
		p.live(op)
		sameDevice(op, x, p)
		if p.dtype != x.dtype && !(x.dtype.IsHalf() && p.dtype == Float32) {
			sameDType(op, x, p)
		}
		if len(p.shape) != 1 || p.shape[0] != c {
			panic(shapeErr(op, [][]int{x.shape, p.shape}, fmt.Sprintf("weight, bias and running statistics must be [%d]", c),
				"parameter of shape %v for input of shape %v (%d channels)", p.shape, x.shape, c))
		}
	}
	if (runningMean == nil) != (runningVar == nil) {
		panic(&ValueError{Op: op, Reason: "one running statistic is nil and the other is not", Fix: "pass both running mean and variance, or neither"})
	}
	if !training && runningMean == nil {
		panic(&ValueError{Op: op, Reason: "evaluation mode needs the running statistics, and they are nil",
			Fix: "pass running mean and variance, or normalise with the batch statistics (training true)"})
	}
	m := 0
	if c > 0 {
		m = x.n / c
	}
	if training && m <= 1 && x.n > 0 {
		panic(&ValueError{Op: op, Reason: fmt.Sprintf("training mode needs more than 1 value per channel, got input of shape %v", x.shape),
			Fix: "use a batch of more than one sample (or larger feature maps), or evaluation mode"})
	}
	if !x.dev.IsHost() || forceGeneric {
		return batchNormGeneric(op, x, runningMean, runningVar, weight, bias, training, momentum, eps)
	}
	return batchNormHost(op, x, runningMean, runningVar, weight, bias, training, momentum, eps, m)
}

// float64sOr returns t's values as float64, or n copies of def for nil.
func float64sOr(t *Tensor, n int, def float64) []float64 {
	if t == nil {
		v := make([]float64, n)
		for i := range v {
			v[i] = def
		}
		return v
	}
	return t.Float64s()
}

// setFloat64s writes vals into t (any dtype and device), invisibly to autograd.
func setFloat64s(t *Tensor, vals []float64) {
	src := t.opts().FromFloat64s(vals, t.shape...)
	NoGrad(func() { t.CopyInPlace(src) })
	src.Release()
}

// batchNormHost is BatchNorm on a host device: statistics, the update of
// the running ones and the output one channel per goroutine, in float64.
func batchNormHost(op string, x, rMean, rVar, weight, bias *Tensor, training bool, momentum, eps float64, m int) *Tensor {
	c := x.shape[1]
	inner := numel(x.shape[2:])
	outer := 0
	if c*inner > 0 {
		outer = x.n / (c * inner)
	}
	w, b := float64sOr(weight, c, 1), float64sOr(bias, c, 0)
	mean, rstd := make([]float64, c), make([]float64, c)
	var batchVar []float64
	if training {
		batchVar = make([]float64, c)
	} else {
		rm, rv := rMean.Float64s(), rVar.Float64s()
		for ch := range c {
			mean[ch], rstd[ch] = rm[ch], 1/math.Sqrt(rv[ch]+eps)
		}
	}
	x32 := compute32(x)
	y := newTensor(op, x.dev, x32.dtype, x.shape)
	var err error
	if x32.dtype == Float64 {
		err = bnForward(y.v(op).f64(), x32.v(op).f64(), outer, c, inner, w, b, mean, rstd, batchVar, eps)
	} else {
		err = bnForward(y.v(op).f32(), x32.v(op).f32(), outer, c, inner, w, b, mean, rstd, batchVar, eps)
	}
	y = finish(y, x.dtype, []*Tensor{x}, x32)
	if err != nil {
		y.Release()
		panic(&CanceledError{Op: op, Cause: err})
	}
	if training && rMean != nil && x.n > 0 {
		rm, rv := rMean.Float64s(), rVar.Float64s()
		for ch := range c {
			rm[ch] = (1-momentum)*rm[ch] + momentum*mean[ch]
			rv[ch] = (1-momentum)*rv[ch] + momentum*batchVar[ch]*float64(m)/float64(m-1)
		}
		setFloat64s(rMean, rm)
		setFloat64s(rVar, rv)
	}
	if !needsGrad(x, weight, bias) {
		return y
	}
	record(op, y, []*Tensor{x, weight, bias}, nil, func(gy *Tensor) []*Tensor {
		x32, g32 := compute32(x), compute32(gy)
		var gx *Tensor
		if x.requiresGrad {
			gx = newTensor(op, x.dev, x32.dtype, x.shape)
		}
		sg, sgx := make([]float64, c), make([]float64, c)
		var err error
		if x32.dtype == Float64 {
			err = bnBackward(optF64(op, gx), g32.v(op).f64(), x32.v(op).f64(), outer, c, inner, w, mean, rstd, sg, sgx, training)
		} else {
			err = bnBackward(optF32(op, gx), g32.v(op).f32(), x32.v(op).f32(), outer, c, inner, w, mean, rstd, sg, sgx, training)
		}
		if x32 != x {
			x32.Release()
		}
		if g32 != gy {
			g32.Release()
		}
		if err != nil {
			gx.Release()
			panic(&CanceledError{Op: op + " backward", Cause: err})
		}
		var gw, gb *Tensor
		if gx != nil {
			gx = finish(gx, x.dtype, nil)
		}
		if weight != nil && weight.requiresGrad {
			gw = weight.opts().FromFloat64s(sgx, c)
		}
		if bias != nil && bias.requiresGrad {
			gb = bias.opts().FromFloat64s(sg, c)
		}
		return []*Tensor{gx, gw, gb}
	})
	return y
}

// bnForward normalises x, seen as [outer, c, inner], per channel; with
// batchVar set (training) it first computes mean, rstd and the biased
// batch variance of each channel.
func bnForward[F float](y, x []F, outer, c, inner int, w, b, mean, rstd, batchVar []float64, eps float64) error {
	if y32, ok := any(y).([]float32); ok {
		return bnForward32(y32, any(x).([]float32), outer, c, inner, w, b, mean, rstd, batchVar, eps)
	}
	return forEachThread(c, func(ch int) error {
		if err := cancel.Err(); err != nil {
			return err
		}
		if batchVar != nil {
			s := 0.0
			for o := range outer {
				for _, v := range x[(o*c+ch)*inner:][:inner] {
					s += float64(v)
				}
			}
			mu := s / float64(outer*inner)
			q := 0.0
			for o := range outer {
				for _, v := range x[(o*c+ch)*inner:][:inner] {
					d := float64(v) - mu
					q += d * d
				}
			}
			v := q / float64(outer*inner)
			mean[ch], batchVar[ch], rstd[ch] = mu, v, 1/math.Sqrt(v+eps)
		}
		scale := w[ch] * rstd[ch]
		shift := b[ch] - mean[ch]*scale
		for o := range outer {
			off := (o*c + ch) * inner
			dst := y[off:][:inner]
			for i, v := range x[off:][:inner] {
				dst[i] = F(float64(v)*scale + shift)
			}
		}
		return nil
	})
}

// bnBackward computes, per channel, sg = Σ g and sgx = Σ g·x̂ and, when gx
// is not nil, the input gradient.
func bnBackward[F float](gx, g, x []F, outer, c, inner int, w, mean, rstd, sg, sgx []float64, training bool) error {
	if g32, ok := any(g).([]float32); ok {
		gx32, _ := any(gx).([]float32)
		return bnBackward32(gx32, g32, any(x).([]float32), outer, c, inner, w, mean, rstd, sg, sgx, training)
	}
	return forEachThread(c, func(ch int) error {
		if err := cancel.Err(); err != nil {
			return err
		}
		mu, r := mean[ch], rstd[ch]
		s, sx := 0.0, 0.0
		for o := range outer {
			off := (o*c + ch) * inner
			xs := x[off:][:inner]
			for i, gv := range g[off:][:inner] {
				s += float64(gv)
				sx += float64(gv) * (float64(xs[i]) - mu) * r
			}
		}
		sg[ch], sgx[ch] = s, sx
		if gx == nil {
			return nil
		}
		k := w[ch] * r
		var a, bb float64 // dx = k·(g − a − x̂·bb)
		if training {
			mcount := float64(outer * inner)
			a, bb = s/mcount, sx/mcount
		}
		for o := range outer {
			off := (o*c + ch) * inner
			xs, dst := x[off:][:inner], gx[off:][:inner]
			for i, gv := range g[off:][:inner] {
				xh := (float64(xs[i]) - mu) * r
				dst[i] = F(k * (float64(gv) - a - xh*bb))
			}
		}
		return nil
	})
}

// bnForward32 is bnForward for float32 with the SIMD loops of
// dl/internal/kernels/vec: the statistics summed in float64 (Σx, then
// Σ(x − μ)²), the normalisation x·scale + shift rounded in float32.
func bnForward32(y, x []float32, outer, c, inner int, w, b, mean, rstd, batchVar []float64, eps float64) error {
	return forEachThread(c, func(ch int) error {
		if err := cancel.Err(); err != nil {
			return err
		}
		planes, stride := x[ch*inner:], c*inner // the channel's planes: outer rows of inner
		if batchVar != nil {
			mu := vec.SumRows64(planes, inner, outer, stride) / float64(outer*inner)
			v := vec.SqDevRows64(planes, inner, outer, stride, mu) / float64(outer*inner)
			mean[ch], batchVar[ch], rstd[ch] = mu, v, 1/math.Sqrt(v+eps)
		}
		scale := w[ch] * rstd[ch]
		shift := b[ch] - mean[ch]*scale
		vec.AffineRows(y[ch*inner:], planes, inner, outer, stride, float32(scale), float32(shift))
		return nil
	})
}

// bnBackward32 is bnBackward for float32 with the SIMD loops: Σg and
// Σg·x in float64, Σg·x̂ = rstd·(Σg·x − μ·Σg), and the input gradient
// k·(g − a − x̂·bb) as one affine map of g and x in float32.
func bnBackward32(gx, g, x []float32, outer, c, inner int, w, mean, rstd, sg, sgx []float64, training bool) error {
	return forEachThread(c, func(ch int) error {
		if err := cancel.Err(); err != nil {
			return err
		}
		mu, r := mean[ch], rstd[ch]
		off, stride := ch*inner, c*inner // the channel's planes: outer rows of inner
		s, sx := vec.SumDotRows64(g[off:], x[off:], inner, outer, stride)
		sx = r * (sx - mu*s)
		sg[ch], sgx[ch] = s, sx
		if gx == nil {
			return nil
		}
		k := w[ch] * r
		var a, bb float64
		if training {
			mcount := float64(outer * inner)
			a, bb = s/mcount, sx/mcount
		}
		// k·(g − a − (x − μ)·r·bb) = k·g − k·r·bb·x + k·(r·bb·μ − a)
		ag, ax, c0 := float32(k), float32(-k*r*bb), float32(k*(r*bb*mu-a))
		vec.Affine2Rows(gx[off:], g[off:], x[off:], inner, outer, stride, ag, ax, c0)
		return nil
	})
}

// batchNormGeneric is BatchNorm composed of differentiable ops, for
// devices without host memory.  Each temporary is handed to releaseWith
// as soon as the op that consumes it exists.
func batchNormGeneric(op string, x, rMean, rVar, weight, bias *Tensor, training bool, momentum, eps float64) *Tensor {
	c := x.shape[1]
	axes := []int{0}
	bshape := []int{1, c}
	for i := 2; i < len(x.shape); i++ {
		axes = append(axes, i)
		bshape = append(bshape, 1)
	}
	param := func(p *Tensor) *Tensor { // [C] as [1, C, 1, ...] in x's dtype
		r := p.Reshape(bshape...)
		if r.dtype == x.dtype {
			return r
		}
		q := r.AsType(x.dtype)
		releaseWith(q, r)
		return q
	}
	var xhat *Tensor
	if training {
		mean := x.MeanKeepDim(axes...) // Float32 for a half x under autocast
		meanC := mean.AsType(x.dtype)
		xc := x.Sub(meanC)
		sq := xc.Mul(xc)
		v := sq.MeanKeepDim(axes...)
		releaseWith(v, sq)
		if rMean != nil && x.n > 0 {
			m := float64(x.n / c)
			mv, vv := mean.Float64s(), v.Float64s()
			rm, rv := rMean.Float64s(), rVar.Float64s()
			for ch := range c {
				rm[ch] = (1-momentum)*rm[ch] + momentum*mv[ch]
				rv[ch] = (1-momentum)*rv[ch] + momentum*vv[ch]*m/(m-1)
			}
			setFloat64s(rMean, rm)
			setFloat64s(rVar, rv)
		}
		releaseWith(xc, mean, meanC)
		ve := v.AddScalar(eps)
		rstd := ve.Pow(-0.5)
		releaseWith(rstd, v, ve)
		rstdC := rstd.AsType(x.dtype)
		xhat = xc.Mul(rstdC)
		releaseWith(xhat, xc, rstd, rstdC)
	} else {
		var rm, rstd *Tensor
		NoGrad(func() {
			m, ve := rMean.Detach(), rVar.Detach().AddScalar(eps)
			r := ve.Pow(-0.5)
			rm, rstd = param(m), param(r)
			releaseWith(rm, m)
			releaseWith(rstd, ve, r)
		})
		xs := x.Sub(rm)
		releaseWith(xs, rm)
		xhat = xs.Mul(rstd)
		releaseWith(xhat, xs, rstd)
	}
	y := xhat
	if weight != nil {
		wp := param(weight)
		y = xhat.Mul(wp)
		releaseWith(y, xhat, wp)
	}
	if bias != nil {
		bp := param(bias)
		yb := y.Add(bp)
		releaseWith(yb, y, bp)
		y = yb
	}
	if y.dtype != x.dtype {
		yc := y.AsType(x.dtype)
		releaseWith(yc, y)
		y = yc
	}
	return y
}
