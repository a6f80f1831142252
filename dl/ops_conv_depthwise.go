package dl

import (
	"github.com/dlbd/dlbd/dl/internal/cancel"
	"github.com/dlbd/dlbd/dl/internal/kernels/vec"
)

// Depthwise convolution (one input channel per group, groups = C) on host
// devices runs a direct kernel instead of im2col and GEMM.  Through GEMM
// each group's product is W_grp [Cout/C, kH·kW] times its columns
// [kH·kW, Ho·Wo]: a matrix with one row (or a few: the channel
// multiplier) and an inner dimension of 9 for a 3×3 kernel, where the
// GEMM kernel's 14-row tiles do 1/14 useful work and copying the input
// kH·kW times into the columns costs more than the arithmetic; measured
// on x [32, 64, 28, 28] with 3×3 filters it ran at about 1 GFLOP/s.  The
// direct kernel adds w[co, i, j] times a shifted row of the input to
// each output row, plane by plane, with no column buffer (oneDNN, behind
// PyTorch's CPU convolutions, has such a depthwise kernel too).  Its
// results agree with the GEMM path to rounding (TestConv2dDepthwisePaths).

// depthwiseDirect selects the direct kernel for depthwise convolutions on
// host devices (tests turn it off to compare with im2col and GEMM).
var depthwiseDirect = true

// useDepthwise reports whether g is a depthwise convolution the direct
// kernel computes.
func (g *convGeom) useDepthwise() bool { return depthwiseDirect && g.groups == g.c && g.c > 1 }

// conv2dDepthwise is Conv2d for a depthwise g on a host device.
func conv2dDepthwise(op string, x, w, b *Tensor, g *convGeom) *Tensor {
	x32, w32 := compute32(x), compute32(w)
	y := newTensor(op, x.dev, x32.dtype, []int{g.n, g.cout, g.ho, g.wo})
	if y.n > 0 {
		var bv []float64
		if b != nil {
			bv = b.Float64s()
		}
		var err error
		if y.dtype == Float64 {
			err = dwForward(y.v(op).f64(), x32.v(op).f64(), w32.v(op).f64(), bv, g)
		} else {
			err = dwForward(y.v(op).f32(), x32.v(op).f32(), w32.v(op).f32(), bv, g)
		}
		if err != nil {
			y.Release()
			releaseCasts(x, x32, w, w32)
			panic(&CanceledError{Op: op, Cause: err})
		}
	}
	return finish(y, x.dtype, []*Tensor{x, w}, x32, w32)
}

// releaseCasts releases the float32 copies among pairs (original, copy)
// that are not the original.
func releaseCasts(pairs ...*Tensor) {
	for i := 0; i+1 < len(pairs); i += 2 {
		if pairs[i+1] != pairs[i] {
			pairs[i+1].Release()
		}
	}
}

// conv2dDepthwiseBackward returns the gradients of conv2dDepthwise.
func conv2dDepthwiseBackward(op string, x, w, b, gy *Tensor, g *convGeom) []*Tensor {
	var gx, gw, gb *Tensor
	if b != nil && b.requiresGrad {
		g3 := gy.Reshape(g.n, g.cout, g.l())
		gb = reduceRaw(op, opSum, g3, []int{0, 2}, false)
		g3.Release()
	}
	if !x.requiresGrad && !w.requiresGrad {
		return []*Tensor{nil, nil, gb}
	}
	x32, w32, g32 := compute32(x), compute32(w), compute32(gy)
	if x.requiresGrad {
		gx = newTensor(op, x.dev, x32.dtype, x.shape)
	}
	if w.requiresGrad {
		gw = newTensor(op, x.dev, x32.dtype, w.shape)
	}
	var err error
	if x32.dtype == Float64 {
		err = dwBackward(optF64(op, gx), optF64(op, gw), g32.v(op).f64(), x32.v(op).f64(), w32.v(op).f64(), g)
	} else {
		err = dwBackward(optF32(op, gx), optF32(op, gw), g32.v(op).f32(), x32.v(op).f32(), w32.v(op).f32(), g)
	}
	releaseCasts(x, x32, w, w32, gy, g32)
	if err != nil {
		gx.Release()
		gw.Release()
		panic(&CanceledError{Op: op + " backward", Cause: err})
	}
	if gx != nil {
		gx = finish(gx, x.dtype, nil)
	}
	if gw != nil {
		gw = finish(gw, w.dtype, nil)
	}
	return []*Tensor{gx, gw, gb}
}

// dwTaps calls f for every kernel tap (i, j) and output row oy whose
// input row iy is inside the input, with the output columns [lo, hi)
// whose input column ox·sW + x0 is inside it.
func (g *convGeom) dwTaps(f func(r, oy, iy, x0, lo, hi int)) {
	for r := range g.kk() {
		i, j := r/g.kw, r%g.kw
		x0 := j*g.dw - g.pw
		lo, hi := validRange(x0, g.sw, g.w, g.wo)
		if lo >= hi {
			continue
		}
		for oy := range g.ho {
			if iy := oy*g.sh - g.ph + i*g.dh; iy >= 0 && iy < g.h {
				f(r, oy, iy, x0, lo, hi)
			}
		}
	}
}

// dwForward sets y to the depthwise convolution of x with w plus the bias
// bv (nil: none), one output plane per item: the plane is set to its
// channel's bias (while it is in cache, rather than the whole of y in a
// pass before, which cost a round trip of y through memory), then with
// stride 1 each output row takes its kH·kW taps from shifted runs of the
// padded plane (vec.TapRows, the taps summed in registers), else a short
// axpy per tap and output row.
func dwForward[F float](y, x, w []F, bv []float64, g *convGeom) error {
	og, kk, hw, L := g.og(), g.kk(), g.hw(), g.l()
	offs := g.tapOffs()
	return forEachThread(g.n*g.cout, func(p int) error {
		if err := cancel.Err(); err != nil {
			return err
		}
		n, co := p/g.cout, p%g.cout
		src := x[(n*g.c+co/og)*hw:][:hw]
		dst := y[p*L:][:L]
		if bv != nil {
			fillSlice(dst, F(bv[co]))
		} else {
			clear(dst)
		}
		wk := w[co*kk:][:kk]
		if g.wide() {
			sc, buf, _ := getScratch[F]([]int{g.plane()}, nil)
			defer attnPool.Put(sc)
			tapRows(dst, g.wo, paddedPlane(buf[0], src, g), g.wp(), g.ho, g.wo, offs, wk)
			return nil
		}
		g.dwTaps(func(r, oy, iy, x0, lo, hi int) {
			wv := wk[r]
			drow, srow := dst[oy*g.wo:(oy+1)*g.wo], src[iy*g.w:(iy+1)*g.w]
			if g.sw == 1 {
				axpyRow(wv, srow[lo+x0:hi+x0], drow[lo:hi])
				return
			}
			for ox := lo; ox < hi; ox++ {
				drow[ox] += wv * srow[ox*g.sw+x0]
			}
		})
		return nil
	})
}

// tapOffs returns the shifts of g's taps in a padded plane (tapOff).
func (g *convGeom) tapOffs() []int {
	offs := make([]int, g.kk())
	for r := range offs {
		offs[r] = g.tapOff(r)
	}
	return offs
}

// dwBackGeom returns, for a stride-1 g whose padding is less than the
// window (ph ≤ (kH−1)·dH, pw ≤ (kW−1)·dW), the geometry of an output
// plane padded by the window less the padding, gq, and the offsets in it
// of g's taps for the input gradient: gx(iy, ix) = Σ_(i,j) w(i,j)·
// gy(iy + pH − i·dH, ix + pW − j·dW), which is gy padded as gq says read
// at (iy + (kH−1−i)·dH, ix + (kW−1−j)·dW), a convolution of the padded
// gradient with the flipped filter.  Otherwise back is nil.
func (g *convGeom) dwBackGeom() (gq *convGeom, back []int) {
	qh, qw := (g.kh-1)*g.dh-g.ph, (g.kw-1)*g.dw-g.pw
	if !g.wide() || qh < 0 || qw < 0 {
		return nil, nil
	}
	gq = &convGeom{h: g.ho, w: g.wo, ph: qh, pw: qw}
	back = make([]int, g.kk())
	for r := range back {
		i, j := r/g.kw, r%g.kw
		back[r] = (g.kh-1-i)*g.dh*gq.wp() + (g.kw-1-j)*g.dw
	}
	return gq, back
}

// dwBackward computes the input gradient gx (one input plane per item,
// summing over its filters) and the weight gradient gw (one filter per
// item, summing over the samples in order in float64; with stride 1 in
// float32, a plane's products are summed over groups of four output rows
// in float32 first, vec.TapDots), either nil when not wanted.
func dwBackward[F float](gx, gw, gy, x, w []F, g *convGeom) error {
	og, kk, hw, L := g.og(), g.kk(), g.hw(), g.l()
	gq, back := g.dwBackGeom()
	if gy32, ok := any(gy).([]float32); ok && back != nil {
		// A nil gx or gw asserts to a nil []float32.
		return dwBackwardPadded(any(gx).([]float32), any(gw).([]float32), gy32,
			any(x).([]float32), any(w).([]float32), g, gq, back)
	}
	if gx != nil {
		err := forEachThread(g.n*g.c, func(p int) error {
			if err := cancel.Err(); err != nil {
				return err
			}
			n, c := p/g.c, p%g.c
			dst := gx[p*hw:][:hw]
			clear(dst)
			if back != nil { // gx = Σ taps of the padded gy, flipped
				sc, buf, _ := getScratch[F]([]int{gq.plane()}, nil)
				defer attnPool.Put(sc)
				for co := c * og; co < (c+1)*og; co++ {
					gyp := paddedPlane(buf[0], gy[(n*g.cout+co)*L:][:L], gq)
					tapRows(dst, g.w, gyp, gq.wp(), g.h, g.w, back, w[co*kk:][:kk])
				}
				return nil
			}
			for co := c * og; co < (c+1)*og; co++ {
				src := gy[(n*g.cout+co)*L:][:L]
				wk := w[co*kk:][:kk]
				g.dwTaps(func(r, oy, iy, x0, lo, hi int) {
					wv := wk[r]
					drow, srow := dst[iy*g.w:(iy+1)*g.w], src[oy*g.wo:(oy+1)*g.wo]
					if g.sw == 1 {
						axpyRow(wv, srow[lo:hi], drow[lo+x0:hi+x0])
						return
					}
					for ox := lo; ox < hi; ox++ {
						drow[ox*g.sw+x0] += wv * srow[ox]
					}
				})
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	if gw == nil {
		return nil
	}
	offs := g.tapOffs()
	return forEachThread(g.cout, func(co int) error {
		if err := cancel.Err(); err != nil {
			return err
		}
		acc := make([]float64, kk)
		var gwide, xbuf []F
		if g.wide() {
			sc, buf, _ := getScratch[F]([]int{g.plane(), g.lw()}, nil)
			defer attnPool.Put(sc)
			xbuf, gwide = buf[0], buf[1]
		}
		for n := range g.n {
			src := x[(n*g.c+co/og)*hw:][:hw]
			gp := gy[(n*g.cout+co)*L:][:L]
			if gwide != nil { // Σ_p gy(wide)[p]·xp[p + shift of tap r]
				xp := paddedPlane(xbuf, src, g)
				if gf, ok := any(gp).([]float32); ok { // each output row against its taps' runs
					vec.TapDots(acc, gf, g.wo, any(xp).([]float32), g.wp(), g.ho, g.wo, offs)
					continue
				}
				widen(gwide, gp, g)
				for r := range acc {
					acc[r] += dotRow(gwide, xp[g.tapOff(r):][:len(gwide)])
				}
				continue
			}
			g.dwTaps(func(r, oy, iy, x0, lo, hi int) {
				grow, srow := gp[oy*g.wo:(oy+1)*g.wo], src[iy*g.w:(iy+1)*g.w]
				if g.sw == 1 {
					acc[r] += dotRow(grow[lo:hi], srow[lo+x0:hi+x0])
					return
				}
				s := 0.0
				for ox := lo; ox < hi; ox++ {
					s += float64(grow[ox]) * float64(srow[ox*g.sw+x0])
				}
				acc[r] += s
			})
		}
		for r, v := range acc {
			gw[co*kk+r] = F(v)
		}
		return nil
	})
}

// dwBackwardPadded is dwBackward for a stride-1 float32 g whose padding
// is less than the window (dwBackGeom's gq and back): both gradients in
// one pass over each input channel's planes, sample by sample, from one
// padded plane of the output gradient per filter.  The input gradient is
// TapRows of that plane with the flipped filter (as dwBackward); the
// weight gradient reads the same plane: gw(i, j) = Σ x(iy, ix)·
// gy(iy + pH − i·dH, ix + pW − j·dW), the output gradient padded by gq at
// (iy + (kH−1−i)·dH, ix + (kW−1−j)·dW), which is TapDots of the input
// plane against the padded gradient at the offsets back.  So neither the
// input planes nor the gradient's are padded or read twice (they were,
// once for each gradient: a fifth of a 3×3 layer's backward).  The
// samples are summed in order in float64, as in dwBackward.  gx or gw may
// be nil.
func dwBackwardPadded(gx, gw, gy, x, w []float32, g, gq *convGeom, back []int) error {
	og, kk, hw, L := g.og(), g.kk(), g.hw(), g.l()
	return forEachThread(g.c, func(c int) error {
		sc, buf, _ := getScratch[float32]([]int{gq.plane()}, nil)
		defer attnPool.Put(sc)
		var acc []float64
		if gw != nil {
			acc = make([]float64, og*kk)
		}
		for n := range g.n {
			if err := cancel.Err(); err != nil {
				return err
			}
			xp := x[(n*g.c+c)*hw:][:hw]
			var dst []float32
			if gx != nil {
				dst = gx[(n*g.c+c)*hw:][:hw]
				clear(dst)
			}
			for k := range og {
				co := c*og + k
				gyp := paddedPlane(buf[0], gy[(n*g.cout+co)*L:][:L], gq)
				if dst != nil {
					vec.TapRows(dst, g.w, gyp, gq.wp(), g.h, g.w, back, w[co*kk:][:kk])
				}
				if acc != nil {
					vec.TapDots(acc[k*kk:][:kk], xp, g.w, gyp, gq.wp(), g.h, g.w, back)
				}
			}
		}
		for i, v := range acc {
			gw[c*og*kk+i] = float32(v)
		}
		return nil
	})
}

// paddedPlane returns src, a plane [H, W], padded as g says into buf
// (g.plane() elements), or src itself without padding.  The direct
// kernels take buf from the scratch pool of fused_attention_scratch.go:
// allocating it per plane cost a fifth of a depthwise convolution in the
// allocator and the garbage collector.
func paddedPlane[F float](buf, src []F, g *convGeom) []F {
	if !g.padded() {
		return src
	}
	padPlane(buf, src, g)
	return buf
}

// tapRows is vec.TapRows (float32) or vec.TapRows64 (float64).
func tapRows[F float](y []F, ldy int, x []F, ldx, rows, cols int, offs []int, w []F) {
	if yf, ok := any(y).([]float32); ok {
		vec.TapRows(yf, ldy, any(x).([]float32), ldx, rows, cols, offs, any(w).([]float32))
		return
	}
	vec.TapRows64(any(y).([]float64), ldy, any(x).([]float64), ldx, rows, cols, offs, any(w).([]float64))
}

// axpyRow sets y[i] += alpha·x[i] (the SIMD loop of dl/internal/kernels/vec
// for float32).
func axpyRow[F float](alpha F, x, y []F) {
	if xf, ok := any(x).([]float32); ok {
		vec.Axpy(float32(alpha), xf, any(y).([]float32))
		return
	}
	y = y[:len(x)]
	for i, v := range x {
		y[i] += alpha * v
	}
}

// dotRow returns Σ a[i]·b[i] in float64.
func dotRow[F float](a, b []F) float64 {
	if af, ok := any(a).([]float32); ok {
		return vec.Dot64(af, any(b).([]float32))
	}
	b = b[:len(a)]
	s := 0.0
	for i, v := range a {
		s += float64(v) * float64(b[i])
	}
	return s
}
