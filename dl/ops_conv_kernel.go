package dl

import (
	"gonum.org/v1/gonum/blas"

	"github.com/dlbd/dlbd/dl/internal/cancel"
	"github.com/dlbd/dlbd/dl/internal/kernels/f32"
	"github.com/dlbd/dlbd/dl/internal/kernels/f64"
)

// Conv2d on host devices: im2col, the batched GEMM kernels of MatMul, and
// col2im.
//
// The column matrix of one sample has a row per (input channel, kernel
// row, kernel column), C·kH·kW rows, and a column per output position,
// Ho·Wo columns: entry ((c, i, j), (oy, ox)) is the input at
// (c, oy·sH − pH + i·dH, ox·sW − pW + j·dW), or 0 in the padding.  The
// rows of group grp are a contiguous block, so the output channels of
// that group for the sample are W_grp [Cout/g, C/g·kH·kW] times that
// block, written straight into the output, which is [N, Cout, Ho·Wo].
//
// Stride-1 convolutions use the wide layout of ops_conv_wide.go: the same
// products on columns built with one copy per row.  Convolutions of one
// group in float32 or float64 (stride 1, or 2 in float32) take the
// sample-by-sample path of ops_conv_fused.go instead, with implicit GEMMs
// on large float32 planes; this chunked path serves the others (groups,
// 16-bit inputs, other strides).
//
// Forward builds the columns of a chunk of samples ([m, C·kH·kW, Ho·Wo],
// sample-major) and runs one batched product per group (over the m
// samples, the weight shared) or, when there are more groups than
// samples, one per sample (over the groups): the batched kernels spread
// small items over the goroutines and run large ones on all of them in
// turn.  (Depthwise convolutions, one input channel per group, take the
// direct kernel of ops_conv_depthwise.go instead.)  The bias is written
// into the output first and the products accumulate onto it (beta = 1).
//
// Backward builds the columns again, channel-major this time
// ([C·kH·kW, m·Ho·Wo]), copies the output gradient of the chunk to the
// same layout gT [Cout, m·Ho·Wo], and runs per group
// dW_grp += gT_grp · col_grpᵀ, one product whose inner dimension is
// m·Ho·Wo (the sum over samples and positions inside the GEMM), and
// dcol_grp = W_grpᵀ · gT_grp, then col2im adds dcol into dx, one
// goroutine per (sample, channel) plane, so the result does not depend on
// the number of threads.
//
// Memory: the column buffer of a chunk holds at most convColumnBudget
// elements (16 MiB in float32; at least one sample's C·kH·kW·Ho·Wo), in
// the input's dtype; backward adds gT (the output gradient of a chunk)
// and, for half inputs, a float32 dcol (otherwise dcol reuses the column
// buffer once dW has consumed it).  Nothing is kept between forward and
// backward but the inputs: the columns are rebuilt, one more copy of the
// input against a buffer of kH·kW times its size held through the rest of
// the forward pass.  The buffers are tensors of the device, so
// MemoryStats counts them.

// convColumnBudget is the most elements of a column buffer: the chunk of
// samples is as large as fits (at least one sample).
const convColumnBudget = 1 << 22

// convChunk returns the samples of a chunk.
func convChunk(g *convGeom) int {
	per := g.ck() * g.l()
	if per == 0 {
		return max(g.n, 1)
	}
	return min(max(convColumnBudget/per, 1), max(g.n, 1))
}

// conv2dForward computes Conv2d on a host device.
func conv2dForward(op string, x, w, b *Tensor, g *convGeom) *Tensor {
	y := newTensor(op, x.dev, accDType(x.dtype), []int{g.n, g.cout, g.ho, g.wo})
	done := false
	defer releaseOnPanic(y, &done)
	if y.n > 0 {
		// With a bias (or no input channels) y starts as the bias and the
		// products add onto it; without, they write y (beta = 0) and
		// nothing fills it first.  The fused path adds the bias itself,
		// sample by sample.
		fused := g.kg() > 0 && convFused(g, x.dtype, w.dtype, y.dtype)
		beta := 0.0
		if !fused && (b != nil || g.kg() == 0) {
			fillChannels(op, y, b, g.cout, g.l())
			beta = 1
		}
		if fused {
			conv2dForwardFused(op, x, w, b, y, g)
		} else if g.kg() > 0 && g.wide() {
			conv2dForwardWide(op, x, w, y, g, beta)
		} else if g.kg() > 0 {
			L, ck, og, kg := g.l(), g.ck(), g.og(), g.kg()
			nb := convChunk(g)
			col := newTensor(op, x.dev, x.dtype, []int{nb, ck, L})
			defer col.Release()
			wv, cv, yv := w.v(op), col.v(op), y.v(op)
			for n0 := 0; n0 < g.n; n0 += nb {
				m := min(nb, g.n-n0)
				im2col(op, col, x, g, n0, m, ck*L, L)
				// Item (grp, s): y[n0+s, grp] (+)= W_grp · col[s, grp].
				base := gemmArgs{op: op, m: og, n: L, k: kg, alpha: 1, beta: beta,
					a: wv, b: cv, c: viewFrom(yv, n0*g.cout*L), lda: kg, ldb: L, ldc: L}
				gemmGrid(&base, g.groups, m, [2]int{og * kg, 0}, [2]int{kg * L, ck * L}, [2]int{og * L, g.cout * L})
			}
		}
	}
	done = true
	return finish(y, x.dtype, nil)
}

// conv2dBackward returns Conv2d's gradients on a host device (see the
// comment at the top of the file).
func conv2dBackward(op string, x, w, b, gy *Tensor, g *convGeom) []*Tensor {
	var gx, gw, gb *Tensor
	L := g.l()
	if b != nil && b.requiresGrad {
		g3 := gy.Reshape(g.n, g.cout, L)
		gb = reduceRaw(op, opSum, g3, []int{0, 2}, false)
		g3.Release()
	}
	if !x.requiresGrad && !w.requiresGrad {
		return []*Tensor{nil, nil, gb}
	}
	acc := accDType(x.dtype)
	k := x.k(op)
	// The fused path and the col2im of the wide layout's padded planes
	// (unpadPlane) write every element of gx; the others add into zeros.
	fused := convFused(g, x.dtype, w.dtype, gy.dtype, acc)
	covered := gy.n > 0 && g.kg() > 0 && (fused || (g.padded() && g.wide()))
	if x.requiresGrad {
		gx = newTensor(op, x.dev, acc, x.shape)
		if gx.n > 0 && !covered {
			k.fill(gx.v(op), 0)
		}
	}
	if w.requiresGrad {
		gw = newTensor(op, x.dev, acc, w.shape)
		if gw.n > 0 {
			k.fill(gw.v(op), 0)
		}
	}
	if gy.n > 0 && g.kg() > 0 {
		if fused {
			conv2dBackwardFused(op, x, w, gy, gx, gw, g)
		} else if g.wide() {
			conv2dBackwardWide(op, x, w, gy, gx, gw, g)
		} else {
			conv2dBackwardChunks(op, x, w, gy, gx, gw, g)
		}
	}
	if gx != nil {
		gx = finish(gx, x.dtype, nil)
	}
	if gw != nil {
		gw = finish(gw, w.dtype, nil)
	}
	return []*Tensor{gx, gw, gb}
}

// conv2dBackwardChunks accumulates dx into gx and dW into gw (either may
// be nil), chunk by chunk.
func conv2dBackwardChunks(op string, x, w, gy, gx, gw *Tensor, g *convGeom) {
	L, ck, og, kg := g.l(), g.ck(), g.og(), g.kg()
	nb := convChunk(g)
	gT := newTensor(op, x.dev, gy.dtype, []int{g.cout, nb * L})
	defer gT.Release()
	var col, dcol *Tensor
	if gw != nil {
		col = newTensor(op, x.dev, x.dtype, []int{ck, nb * L})
		defer col.Release()
	}
	if gx != nil {
		if col != nil && col.dtype == gx.dtype {
			dcol = col // dW has used the columns when dcol overwrites them
		} else {
			dcol = newTensor(op, x.dev, gx.dtype, []int{ck, nb * L})
			defer dcol.Release()
		}
	}
	for n0 := 0; n0 < g.n; n0 += nb {
		m := min(nb, g.n-n0)
		mL := m * L
		gatherChannels(op, gT, gy, g.cout, L, n0, m)
		if gw != nil { // dW_grp += gT_grp · col_grpᵀ: [og, mL]·[mL, kg]
			im2col(op, col, x, g, n0, m, L, mL)
			weightGrad(op, gT, col, gw, g, m, L)
		}
		if gx != nil { // dcol_grp = W_grpᵀ · gT_grp: [kg, og]·[og, mL]
			base := gemmArgs{op: op, transA: true, m: kg, n: mL, k: og, alpha: 1,
				a: w.v(op), b: gT.v(op), c: dcol.v(op), lda: kg, ldb: mL, ldc: mL}
			gemmGrid(&base, g.groups, 1, [2]int{og * kg, 0}, [2]int{og * mL, 0}, [2]int{kg * mL, 0})
			col2im(op, gx, dcol, g, n0, m, L, mL)
		}
	}
}

// viewFrom returns the elements of v from off on.
func viewFrom(v view, off int) view { return v.sub(off, v.n-off) }

// gemmGrid runs the products of an ni×nj grid of items, item (i, j)
// having its operands at i·s[0] + j·s[1] elements past base's: it loops
// over the shorter axis and hands the longer one to the batched kernel
// (strides along it), so that many small items (the groups of a
// depthwise convolution, the samples of a chunk) go to the goroutines
// together.
func gemmGrid(base *gemmArgs, ni, nj int, sa, sb, sc [2]int) {
	outer, inner := 0, 1 // axes
	if ni > nj {
		outer, inner = 1, 0
	}
	counts := [2]int{ni, nj}
	for o := range counts[outer] {
		g := *base
		g.a, g.b, g.c = viewFrom(base.a, o*sa[outer]), viewFrom(base.b, o*sb[outer]), viewFrom(base.c, o*sc[outer])
		g.batch = counts[inner]
		g.strideA, g.strideB, g.strideC = sa[inner], sb[inner], sc[inner]
		hostGemm(&g)
	}
}

// hostGemm runs batch products on host views: float32 and float64
// operands through the batched kernels (which spread small items over
// the goroutines), half ones through the backend's gemm (which decodes
// them while packing).
func hostGemm(g *gemmArgs) {
	defer rethrowStopped(g.op)
	tr := func(t bool) blas.Transpose {
		if t {
			return blas.Trans
		}
		return blas.NoTrans
	}
	dt := g.c.st.dtype
	if g.a.st.dtype != dt || g.b.st.dtype != dt {
		cpu.gemm(MatMulAuto, g)
		return
	}
	switch dt {
	case Float32:
		f32.GemmBatchedWith(f32.Auto, tr(g.transA), tr(g.transB), g.m, g.n, g.k, float32(g.alpha), g.a.f32(), g.lda, g.strideA,
			g.b.f32(), g.ldb, g.strideB, float32(g.beta), g.c.f32(), g.ldc, g.strideC, g.batch)
	case Float64:
		f64.GemmBatchedWith(f64.Auto, tr(g.transA), tr(g.transB), g.m, g.n, g.k, g.alpha, g.a.f64(), g.lda, g.strideA,
			g.b.f64(), g.ldb, g.strideB, g.beta, g.c.f64(), g.ldc, g.strideC, g.batch)
	default:
		cpu.gemm(MatMulAuto, g)
	}
}

// fillChannels sets every row of t, seen as [rows, c, inner], to the
// value of its channel in b (Float32/Float64 t; b nil: zeros).
func fillChannels(op string, t, b *Tensor, c, inner int) {
	if b == nil {
		t.k(op).fill(t.v(op), 0)
		return
	}
	bv := b.Float64s()
	rows := t.n / max(c*inner, 1)
	var err error
	if t.dtype == Float64 {
		err = fillRows(t.v(op).f64(), bv, rows, c, inner)
	} else {
		err = fillRows(t.v(op).f32(), bv, rows, c, inner)
	}
	if err != nil {
		panic(&CanceledError{Op: op, Cause: err})
	}
}

func fillRows[F float](dst []F, bv []float64, rows, c, inner int) error {
	return forEachThread(rows, func(r int) error {
		for ch := range c {
			fillSlice(dst[(r*c+ch)*inner:(r*c+ch+1)*inner], F(bv[ch]))
		}
		return nil
	})
}

// im2col writes the columns of samples [n0, n0+m) of x into col: entry
// ((c, i, j), (oy, ox)) of sample s at s·sStride + ((c·kH + i)·kW + j)·rStride
// + oy·Wo + ox.  Any dtype: it copies elements.
func im2col(op string, col, x *Tensor, g *convGeom, n0, m, sStride, rStride int) {
	if x.dtype == Float32 && g.stride2() {
		im2colStride2(op, col, x, g, n0, m, sStride, rStride)
		return
	}
	var err error
	switch x.dtype {
	case Float32:
		err = im2colHost(col.v(op).f32(), x.v(op).f32(), g, n0, m, sStride, rStride)
	case Float64:
		err = im2colHost(col.v(op).f64(), x.v(op).f64(), g, n0, m, sStride, rStride)
	default:
		err = im2colHost(col.v(op).u16(), x.v(op).u16(), g, n0, m, sStride, rStride)
	}
	if err != nil {
		panic(&CanceledError{Op: op, Cause: err})
	}
}

func im2colHost[T any](col, x []T, g *convGeom, n0, m, sStride, rStride int) error {
	kk, hw, L := g.kk(), g.hw(), g.l()
	return forEachThread(m*g.c, func(it int) error { // one (sample, channel) plane
		if err := cancel.Err(); err != nil {
			return err
		}
		s, c := it/g.c, it%g.c
		src := x[((n0+s)*g.c+c)*hw:][:hw]
		for r := range kk {
			i, j := r/g.kw, r%g.kw
			dst := col[s*sStride+(c*kk+r)*rStride:][:L]
			x0 := j*g.dw - g.pw // input column of output column 0
			lo, hi := validRange(x0, g.sw, g.w, g.wo)
			for oy := range g.ho {
				row := dst[oy*g.wo : (oy+1)*g.wo]
				iy := oy*g.sh - g.ph + i*g.dh
				if iy < 0 || iy >= g.h || lo >= hi {
					clear(row)
					continue
				}
				srow := src[iy*g.w : (iy+1)*g.w]
				clear(row[:lo])
				if g.sw == 1 {
					copy(row[lo:hi], srow[lo+x0:hi+x0])
				} else {
					for ox := lo; ox < hi; ox++ {
						row[ox] = srow[ox*g.sw+x0]
					}
				}
				clear(row[hi:])
			}
		}
		return nil
	})
}

// validRange returns the output columns [lo, hi) whose input column
// ox·stride + x0 lies in [0, w).
func validRange(x0, stride, w, wo int) (lo, hi int) {
	if x0 < 0 {
		lo = (-x0 + stride - 1) / stride
	}
	if w-x0 > 0 {
		hi = min(wo, (w-x0+stride-1)/stride)
	}
	return min(lo, wo), max(hi, 0)
}

// col2im adds the column gradients dcol of samples [n0, n0+m) (laid out
// as im2col writes them) into gx, the input gradient: each entry goes to
// the input position it was copied from (padding entries are dropped).
func col2im(op string, gx, dcol *Tensor, g *convGeom, n0, m, sStride, rStride int) {
	if gx.dtype == Float32 && dcol.dtype == Float32 && g.stride2() {
		col2imStride2(op, gx, dcol, g, n0, m, sStride, rStride)
		return
	}
	var err error
	if gx.dtype == Float64 {
		err = col2imHost(gx.v(op).f64(), dcol.v(op).f64(), g, n0, m, sStride, rStride)
	} else {
		err = col2imHost(gx.v(op).f32(), dcol.v(op).f32(), g, n0, m, sStride, rStride)
	}
	if err != nil {
		panic(&CanceledError{Op: op, Cause: err})
	}
}

func col2imHost[F float](gx, dcol []F, g *convGeom, n0, m, sStride, rStride int) error {
	kk, hw, L := g.kk(), g.hw(), g.l()
	return forEachThread(m*g.c, func(it int) error { // one plane: no two goroutines write the same element
		if err := cancel.Err(); err != nil {
			return err
		}
		s, c := it/g.c, it%g.c
		dst := gx[((n0+s)*g.c+c)*hw:][:hw]
		for r := range kk {
			i, j := r/g.kw, r%g.kw
			src := dcol[s*sStride+(c*kk+r)*rStride:][:L]
			x0 := j*g.dw - g.pw
			lo, hi := validRange(x0, g.sw, g.w, g.wo)
			for oy := range g.ho {
				iy := oy*g.sh - g.ph + i*g.dh
				if iy < 0 || iy >= g.h || lo >= hi {
					continue
				}
				drow := dst[iy*g.w : (iy+1)*g.w]
				srow := src[oy*g.wo : (oy+1)*g.wo]
				if g.sw == 1 {
					axpyRow(1, srow[lo:hi], drow[lo+x0:hi+x0])
				} else {
					for ox := lo; ox < hi; ox++ {
						drow[ox*g.sw+x0] += srow[ox]
					}
				}
			}
		}
		return nil
	})
}

// gatherChannels copies the output gradient of samples [n0, n0+m) of gy
// ([N, cout, L]) into dst as [cout, m·L], channel-major (any dtype).
func gatherChannels(op string, dst, gy *Tensor, cout, L, n0, m int) {
	var err error
	switch gy.dtype {
	case Float32:
		err = gatherHost(dst.v(op).f32(), gy.v(op).f32(), cout, L, n0, m)
	case Float64:
		err = gatherHost(dst.v(op).f64(), gy.v(op).f64(), cout, L, n0, m)
	default:
		err = gatherHost(dst.v(op).u16(), gy.v(op).u16(), cout, L, n0, m)
	}
	if err != nil {
		panic(&CanceledError{Op: op, Cause: err})
	}
}

func gatherHost[T any](dst, src []T, cout, L, n0, m int) error {
	return forEachThread(cout, func(co int) error {
		for s := range m {
			copy(dst[(co*m+s)*L:][:L], src[((n0+s)*cout+co)*L:][:L])
		}
		return nil
	})
}
