package dl

import (
	"github.com/dlbd/dlbd/dl/internal/cancel"
	"github.com/dlbd/dlbd/dl/internal/kernels/vec"
)

// The wide layout of stride-1 convolutions on host devices.
//
// With stride 1, the window of output (oy, ox) at tap (i, j) reads the
// padded input at (oy + i·dH, ox + j·dW).  Numbering the positions of a
// padded plane [Hp, Wp] row-major, p = row·Wp + column, output (oy, ox) is
// given the "wide" index oy·Wp + ox, and then the tap (i, j) of every
// output reads the padded input at p + i·dH·Wp + j·dW: a shift.  So the
// row of the column matrix for (c, i, j) is one contiguous run of the
// padded plane, Lw = (Ho − 1)·Wp + Wo elements from i·dH·Wp + j·dW, copied
// with one copy instead of a short copy per output row, and col2im adds
// one contiguous run back.  The price: the Wp − Wo indexes at the end of
// each wide row but the last are not outputs ("junk"): the GEMM computes
// them too (Wp/Wo more columns; a 3×3 kernel with padding 1 on 14×14
// planes: 16/14) and they are dropped when the wide output is copied into
// the result (narrowAdd); in backward the wide output gradient holds zeros
// there, so they add nothing.  The same shifts give the depthwise kernel
// its taps (vec.TapRows, vec.TapDots).  (Unpadded planes are used in place.)

// convWide selects the wide layout for stride-1 convolutions (tests turn
// it off to compare with the row-by-row im2col).
var convWide = true

// wide reports whether the host kernels use the wide layout for g.
func (g *convGeom) wide() bool { return convWide && g.sh == 1 && g.sw == 1 }

func (g *convGeom) wp() int          { return g.w + 2*g.pw }           // padded width
func (g *convGeom) hp() int          { return g.h + 2*g.ph }           // padded height
func (g *convGeom) plane() int       { return g.hp() * g.wp() }        // elements of a padded plane
func (g *convGeom) lw() int          { return (g.ho-1)*g.wp() + g.wo } // wide output positions
func (g *convGeom) padded() bool     { return g.ph > 0 || g.pw > 0 }   // planes must be padded
func (g *convGeom) tapOff(r int) int { return g.tapAt(r, g.wp()) }     // shift of tap r

// tapAt is the shift of tap r in planes whose rows are ld elements apart.
func (g *convGeom) tapAt(r, ld int) int { return r/g.kw*g.dh*ld + r%g.kw*g.dw }

// padPlane writes src, an unpadded plane [H, W], into dst [Hp, Wp] with
// zeros around it (and clears the rest of dst).  The rows go with vector
// moves, each row's copy clearing its right border and the next row's
// left one.
func padPlane[T any](dst, src []T, g *convGeom) {
	if g.h == 0 || g.w == 0 {
		clear(dst)
		return
	}
	wp, top := g.wp(), g.ph*g.wp()+g.pw
	clear(dst[:top])
	copyRows(dst[top:], wp, src, g.w, g.h-1, g.w, 2*g.pw)
	last := top + (g.h-1)*wp
	copy(dst[last:][:g.w], src[(g.h-1)*g.w:][:g.w])
	clear(dst[last+g.w:])
}

// padInterior writes src, an unpadded plane [H, W], into the interior of
// dst, padded rows ld elements apart, whose borders hold zeros already.
func padInterior[T any](dst, src []T, g *convGeom, ld int) {
	copyRows(dst[g.ph*ld+g.pw:], ld, src, g.w, g.h, g.w, 0)
}

// unpadPlane copies the interior of a padded plane src into dst [H, W].
func unpadPlane[T any](dst, src []T, g *convGeom) {
	copyRows(dst, g.w, src[g.ph*g.wp()+g.pw:], g.wp(), g.h, g.w, 0)
}

// widen writes an output plane src [Ho, Wo] into dst in the wide layout
// (Lw elements) with zeros at the junk indexes.
func widen[T any](dst, src []T, g *convGeom) {
	wp := g.wp()
	copyRows(dst, wp, src, g.wo, g.ho-1, g.wo, wp-g.wo)
	copy(dst[(g.ho-1)*wp:][:g.wo], src[(g.ho-1)*g.wo:][:g.wo])
}

// copyRows copies rows of cols elements from src (row stride lds) into
// dst (row stride ldd), clearing the fill elements after each in dst
// (float32 with vector moves: the rows of small planes are short).
func copyRows[T any](dst []T, ldd int, src []T, lds, rows, cols, fill int) {
	if d, ok := any(dst).([]float32); ok {
		vec.CopyRows(d, ldd, any(src).([]float32), lds, rows, cols, fill)
		return
	}
	for r := range rows {
		d := dst[r*ldd:][:cols+fill]
		copy(d, src[r*lds:][:cols])
		clear(d[cols:])
	}
}

// narrowAdd adds a wide output plane src (Lw elements) into dst [Ho, Wo],
// dropping the junk indexes.
func narrowAdd[F float](dst, src []F, g *convGeom) {
	wp := g.wp()
	for oy := range g.ho {
		axpyRow(1, src[oy*wp:][:g.wo], dst[oy*g.wo:][:g.wo])
	}
}

// padSamples returns the planes of samples [n0, n0+m) of x as they are
// read in the wide layout, [m·C] planes of g.plane() elements: x itself
// (from sample n0) when g has no padding, else xp filled with the padded
// planes.
func padSamples(op string, xp, x *Tensor, g *convGeom, n0, m int) view {
	off := n0 * g.c * g.hw()
	if !g.padded() {
		return viewFrom(x.v(op), off)
	}
	var err error
	switch x.dtype {
	case Float32:
		err = padHost(xp.v(op).f32(), x.v(op).f32()[off:], g, m)
	case Float64:
		err = padHost(xp.v(op).f64(), x.v(op).f64()[off:], g, m)
	default:
		err = padHost(xp.v(op).u16(), x.v(op).u16()[off:], g, m)
	}
	if err != nil {
		panic(&CanceledError{Op: op, Cause: err})
	}
	return xp.v(op)
}

func padHost[T any](dst, src []T, g *convGeom, m int) error {
	ps, hw := g.plane(), g.hw()
	return forEachThread(m*g.c, func(p int) error {
		padPlane(dst[p*ps:][:ps], src[p*hw:][:hw], g)
		return nil
	})
}

// im2colWide writes the wide columns of the m samples whose planes src
// holds (padSamples) into col: row (c, i, j) of sample s, Lw elements, at
// s·sStride + (c·kH·kW + r)·rStride.  Any dtype: it copies elements.
func im2colWide(op string, col *Tensor, src view, g *convGeom, m, sStride, rStride int) {
	var err error
	switch col.dtype {
	case Float32:
		err = im2colWideHost(col.v(op).f32(), src.f32(), g, m, sStride, rStride)
	case Float64:
		err = im2colWideHost(col.v(op).f64(), src.f64(), g, m, sStride, rStride)
	default:
		err = im2colWideHost(col.v(op).u16(), src.u16(), g, m, sStride, rStride)
	}
	if err != nil {
		panic(&CanceledError{Op: op, Cause: err})
	}
}

func im2colWideHost[T any](col, src []T, g *convGeom, m, sStride, rStride int) error {
	ps := g.plane()
	return forEachThread(m*g.c, func(it int) error {
		if err := cancel.Err(); err != nil {
			return err
		}
		s, c := it/g.c, it%g.c
		wideColumns(col[s*sStride:], src[it*ps:][:ps], g, c, rStride)
		return nil
	})
}

// wideColumns writes the kH·kW wide rows of channel c, whose padded plane
// is plane, into col: row (c, r) at (c·kH·kW + r)·rStride.
func wideColumns[T any](col, plane []T, g *convGeom, c, rStride int) {
	kk, lw := g.kk(), g.lw()
	for r := range kk {
		copy(col[(c*kk+r)*rStride:][:lw], plane[g.tapOff(r):][:lw])
	}
}

// addWideColumns adds the kH·kW wide rows of channel c of dcol (laid out
// as wideColumns writes them) into acc, a padded plane (or the plane
// itself without padding).
func addWideColumns[F float](acc, dcol []F, g *convGeom, c, rStride int) {
	kk, lw := g.kk(), g.lw()
	for r := range kk {
		axpyRow(1, dcol[(c*kk+r)*rStride:][:lw], acc[g.tapOff(r):][:lw])
	}
}

// col2imWide adds the wide column gradients dcol of samples [n0, n0+m)
// (laid out as im2colWide writes them) into gx, through dxp, a buffer of
// m·C padded planes, when g has padding.
func col2imWide(op string, gx, dcol, dxp *Tensor, g *convGeom, n0, m, sStride, rStride int) {
	var err error
	if gx.dtype == Float64 {
		err = col2imWideHost(gx.v(op).f64(), dcol.v(op).f64(), optF64(op, dxp), g, n0, m, sStride, rStride)
	} else {
		err = col2imWideHost(gx.v(op).f32(), dcol.v(op).f32(), optF32(op, dxp), g, n0, m, sStride, rStride)
	}
	if err != nil {
		panic(&CanceledError{Op: op, Cause: err})
	}
}

func col2imWideHost[F float](gx, dcol, dxp []F, g *convGeom, n0, m, sStride, rStride int) error {
	hw, ps := g.hw(), g.plane()
	return forEachThread(m*g.c, func(it int) error { // one plane: no two goroutines write the same element
		if err := cancel.Err(); err != nil {
			return err
		}
		s, c := it/g.c, it%g.c
		dst := gx[((n0+s)*g.c+c)*hw:][:hw] // zeros, or the sums so far without padding
		acc := dst
		if dxp != nil {
			acc = dxp[it*ps:][:ps]
			clear(acc)
		}
		addWideColumns(acc, dcol[s*sStride:], g, c, rStride)
		if dxp != nil {
			unpadPlane(dst, acc, g)
		}
		return nil
	})
}

// gatherWide copies the output gradient of samples [n0, n0+m) of gy
// ([N, cout, Ho·Wo]) into dst as [cout, m·Lw], channel-major, in the wide
// layout with zeros at the junk indexes (any dtype).
func gatherWide(op string, dst, gy *Tensor, g *convGeom, n0, m int) {
	var err error
	switch gy.dtype {
	case Float32:
		err = gatherWideHost(dst.v(op).f32(), gy.v(op).f32(), g, n0, m)
	case Float64:
		err = gatherWideHost(dst.v(op).f64(), gy.v(op).f64(), g, n0, m)
	default:
		err = gatherWideHost(dst.v(op).u16(), gy.v(op).u16(), g, n0, m)
	}
	if err != nil {
		panic(&CanceledError{Op: op, Cause: err})
	}
}

func gatherWideHost[T any](dst, src []T, g *convGeom, n0, m int) error {
	L, lw := g.l(), g.lw()
	return forEachThread(g.cout, func(co int) error {
		for s := range m {
			widen(dst[(co*m+s)*lw:][:lw], src[((n0+s)*g.cout+co)*L:][:L], g)
		}
		return nil
	})
}

// convChunkWide is convChunk for the wide layout's columns.
func convChunkWide(g *convGeom) int {
	per := g.ck() * g.lw()
	if per == 0 {
		return max(g.n, 1)
	}
	return min(max(convColumnBudget/per, 1), max(g.n, 1))
}

// conv2dForwardWide writes the convolution of x with w into y (beta 0),
// or adds it (beta 1: y holds the bias), in the wide layout, chunk by
// chunk: the columns of a chunk times each group's weight (gemmGrid), into
// y directly when the wide rows are the output rows (Wp = Wo), else into
// a wide buffer narrowed into y (narrowChunk).
func conv2dForwardWide(op string, x, w, y *Tensor, g *convGeom, beta float64) {
	lw, ck, og, kg, L := g.lw(), g.ck(), g.og(), g.kg(), g.l()
	nb := convChunkWide(g)
	col := newTensor(op, x.dev, x.dtype, []int{nb, ck, lw})
	defer col.Release()
	var xp, yw *Tensor
	if g.padded() {
		xp = newTensor(op, x.dev, x.dtype, []int{nb * g.c, g.plane()})
		defer xp.Release()
	}
	direct := g.wp() == g.wo
	if !direct {
		yw = newTensor(op, x.dev, y.dtype, []int{nb, g.cout, lw})
		defer yw.Release()
	}
	wv, cv, yv := w.v(op), col.v(op), y.v(op)
	for n0 := 0; n0 < g.n; n0 += nb {
		m := min(nb, g.n-n0)
		im2colWide(op, col, padSamples(op, xp, x, g, n0, m), g, m, ck*lw, lw)
		// Item (grp, s): out[s, grp] (+)= W_grp · col[s, grp].
		base := gemmArgs{op: op, m: og, n: lw, k: kg, alpha: 1, beta: beta,
			a: wv, b: cv, c: viewFrom(yv, n0*g.cout*L), lda: kg, ldb: lw, ldc: lw}
		if !direct {
			base.beta, base.c = 0, yw.v(op)
		}
		gemmGrid(&base, g.groups, m, [2]int{og * kg, 0}, [2]int{kg * lw, ck * lw}, [2]int{og * lw, g.cout * lw})
		if !direct {
			narrowChunk(op, y, yw, g, n0, m, beta != 0)
		}
	}
}

// narrowChunk copies (add: adds) the wide outputs yw of samples
// [n0, n0+m) into y.
func narrowChunk(op string, y, yw *Tensor, g *convGeom, n0, m int, add bool) {
	var err error
	if y.dtype == Float64 {
		err = narrowHost(y.v(op).f64(), yw.v(op).f64(), g, n0, m, add)
	} else {
		err = narrowHost(y.v(op).f32(), yw.v(op).f32(), g, n0, m, add)
	}
	if err != nil {
		panic(&CanceledError{Op: op, Cause: err})
	}
}

func narrowHost[F float](y, yw []F, g *convGeom, n0, m int, add bool) error {
	L, lw, wp := g.l(), g.lw(), g.wp()
	y = y[n0*g.cout*L:]
	return forEachThread(m*g.cout, func(p int) error {
		dst, src := y[p*L:][:L], yw[p*lw:][:lw]
		if add {
			narrowAdd(dst, src, g)
			return nil
		}
		for oy := range g.ho {
			copy(dst[oy*g.wo:][:g.wo], src[oy*wp:][:g.wo])
		}
		return nil
	})
}

// conv2dBackwardWide is conv2dBackwardChunks in the wide layout.
func conv2dBackwardWide(op string, x, w, gy, gx, gw *Tensor, g *convGeom) {
	lw, ck, og, kg := g.lw(), g.ck(), g.og(), g.kg()
	nb := convChunkWide(g)
	gT := newTensor(op, x.dev, gy.dtype, []int{g.cout, nb * lw})
	defer gT.Release()
	var col, dcol, xp, dxp *Tensor
	if gw != nil {
		col = newTensor(op, x.dev, x.dtype, []int{ck, nb * lw})
		defer col.Release()
		if g.padded() {
			xp = newTensor(op, x.dev, x.dtype, []int{nb * g.c, g.plane()})
			defer xp.Release()
		}
	}
	if gx != nil {
		if col != nil && col.dtype == gx.dtype {
			dcol = col // dW has used the columns when dcol overwrites them
		} else {
			dcol = newTensor(op, x.dev, gx.dtype, []int{ck, nb * lw})
			defer dcol.Release()
		}
		if g.padded() {
			dxp = newTensor(op, x.dev, gx.dtype, []int{nb * g.c, g.plane()})
			defer dxp.Release()
		}
	}
	for n0 := 0; n0 < g.n; n0 += nb {
		m := min(nb, g.n-n0)
		mL := m * lw
		gatherWide(op, gT, gy, g, n0, m)
		if gw != nil { // dW_grp += gT_grp · col_grpᵀ: [og, mL]·[mL, kg]
			im2colWide(op, col, padSamples(op, xp, x, g, n0, m), g, m, lw, mL)
			weightGrad(op, gT, col, gw, g, m, lw)
		}
		if gx != nil { // dcol_grp = W_grpᵀ · gT_grp: [kg, og]·[og, mL]
			base := gemmArgs{op: op, transA: true, m: kg, n: mL, k: og, alpha: 1,
				a: w.v(op), b: gT.v(op), c: dcol.v(op), lda: kg, ldb: mL, ldc: mL}
			gemmGrid(&base, g.groups, 1, [2]int{og * kg, 0}, [2]int{og * mL, 0}, [2]int{kg * mL, 0})
			col2imWide(op, gx, dcol, dxp, g, n0, m, lw, mL)
		}
	}
}
