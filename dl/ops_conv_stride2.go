package dl

import (
	"github.com/dlbd/dlbd/dl/internal/cancel"
	"github.com/dlbd/dlbd/dl/internal/kernels/vec"
)

// Stride-2 convolutions (the downsampling layers of a ResNet) in float32
// on host devices.  Row by row, im2col copied every other element of an
// input row with a scalar loop, and with rows of 7 or 14 outputs the
// bookkeeping of each row (its valid range, the padding to clear) cost
// more than the copy: 12% of a small ResNet's training step.  Here the
// input planes are padded first (padSamples), so every tap (i, j) reads
// the same grid of the padded plane shifted by i·dH·Wp + j·dW: one
// vec.Gather2Rows call per tap copies its Ho rows of Wo outputs, every
// other element of rows 2·Wp apart, with no bounds to work out.  col2im
// adds each tap's gradient into a padded plane the same way
// (vec.ScatterAdd2Rows) and copies its interior into the input gradient.
// The columns are those of the row-by-row im2col; the sums of col2im are
// made in the same order (tap by tap), so the results are bit for bit the
// same.

// convStride2 selects the stride-2 path (tests turn it off to compare
// with the row-by-row im2col).
var convStride2 = true

// stride2 reports whether g takes the stride-2 path.
func (g *convGeom) stride2() bool { return convStride2 && g.sh == 2 && g.sw == 2 }

// im2colStride2 is im2col for a float32 x and g.stride2().
func im2colStride2(op string, col, x *Tensor, g *convGeom, n0, m, sStride, rStride int) {
	var xp *Tensor
	if g.padded() {
		xp = newTensor(op, x.dev, x.dtype, []int{m * g.c, g.plane()})
		defer xp.Release()
	}
	src, dst := padSamples(op, xp, x, g, n0, m).f32(), col.v(op).f32()
	ps := g.plane()
	err := forEachThread(m*g.c, func(it int) error {
		if err := cancel.Err(); err != nil {
			return err
		}
		s, c := it/g.c, it%g.c
		stride2Columns(dst[s*sStride:], src[it*ps:][:ps], g, c, rStride)
		return nil
	})
	if err != nil {
		panic(&CanceledError{Op: op, Cause: err})
	}
}

// col2imStride2 is col2im for float32 gx and dcol and g.stride2().
func col2imStride2(op string, gx, dcol *Tensor, g *convGeom, n0, m, sStride, rStride int) {
	var dxp *Tensor
	var padded []float32
	if g.padded() {
		dxp = newTensor(op, gx.dev, gx.dtype, []int{m * g.c, g.plane()})
		defer dxp.Release()
		padded = dxp.v(op).f32()
	}
	dst, src := gx.v(op).f32(), dcol.v(op).f32()
	hw, ps := g.hw(), g.plane()
	err := forEachThread(m*g.c, func(it int) error { // one plane: no two goroutines write the same element
		if err := cancel.Err(); err != nil {
			return err
		}
		s, c := it/g.c, it%g.c
		plane := dst[((n0+s)*g.c+c)*hw:][:hw] // zeros: gx was cleared
		acc := plane
		if padded != nil {
			acc = padded[it*ps:][:ps]
			clear(acc)
		}
		addStride2Columns(acc, src[s*sStride:], g, c, rStride)
		if padded != nil {
			unpadPlane(plane, acc, g)
		}
		return nil
	})
	if err != nil {
		panic(&CanceledError{Op: op, Cause: err})
	}
}

// stride2Columns writes the kH·kW rows of channel c, whose padded plane is
// plane, into col (row (c, r) at (c·kH·kW + r)·rStride, Ho·Wo elements):
// one vec.Gather2Rows per tap.
func stride2Columns(col, plane []float32, g *convGeom, c, rStride int) {
	kk, L, ld := g.kk(), g.l(), 2*g.wp()
	for r := range kk {
		vec.Gather2Rows(col[(c*kk+r)*rStride:][:L], plane[g.tapOff(r):], g.ho, g.wo, ld)
	}
}

// addStride2Columns adds the kH·kW rows of channel c of dcol (laid out as
// stride2Columns writes them) into acc, the channel's padded plane.
func addStride2Columns(acc, dcol []float32, g *convGeom, c, rStride int) {
	kk, L, ld := g.kk(), g.l(), 2*g.wp()
	for r := range kk {
		vec.ScatterAdd2Rows(acc[g.tapOff(r):], dcol[(c*kk+r)*rStride:][:L], g.ho, g.wo, ld)
	}
}
