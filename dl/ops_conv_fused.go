package dl

import (
	"github.com/dlbd/dlbd/dl/internal/cancel"
	"github.com/dlbd/dlbd/dl/internal/kernels/f32"
)

// Stride-1 convolutions (and stride-2 ones in float32) of one group in
// float32 or float64 on host devices, sample by sample.
//
// The chunked path (ops_conv_wide.go) builds the columns of a whole chunk
// of samples (up to 16 MiB), then multiplies, then scatters: every pass
// over the columns goes to memory and back.  Here each goroutine takes a
// few samples at a time and runs every step of them in a row on buffers
// of its own, small enough to stay in its core's L2 cache: forward, pad,
// columns, product (y = W·col) for one sample; backward, for a segment of
// samples, the output gradient gT, the columns, the partial weight
// gradient gT·colᵀ, then dcol = Wᵀ·gT into the same buffer and its col2im
// into the input gradient.  Samples are independent work; the partial
// weight gradients of the segments are added in segment order, so the
// results are the same on any number of threads.  On a small ResNet the
// training step took 1.3x less time on one thread than with the chunked
// path.
//
// Stride-1 columns are in the wide layout (ops_conv_wide.go: Lw columns a
// sample, copies of shifted runs of the padded plane); stride-2 ones have
// the Ho·Wo output positions, gathered by vec.Gather2Rows
// (ops_conv_stride2.go).  The forward's implicit GEMM reads planes whose
// rows are shorter, W + pW (fusedLayout).

// convFused reports whether conv2d on host devices takes this path for g
// and these dtypes: one group, operands of one float dtype, and stride 1,
// or stride 2 in float32.
func convFused(g *convGeom, dts ...DType) bool {
	if !convFusedOn || g.groups != 1 || g.kg() == 0 || !(g.wide() || (g.stride2() && dts[0] == Float32)) {
		return false
	}
	for _, dt := range dts {
		if dt != dts[0] || (dt != Float32 && dt != Float64) {
			return false
		}
	}
	return true
}

// fusedCols is the number of columns of a sample on this path: the wide
// positions, or the output positions.
func (g *convGeom) fusedCols() int {
	if g.wide() {
		return g.lw()
	}
	return g.l()
}

// fusedColumns writes the kH·kW rows of channel c, whose padded plane is
// plane, into col (row (c, r) at (c·kH·kW + r)·rStride).
func fusedColumns[F float](col, plane []F, g *convGeom, c, rStride int) {
	if g.wide() {
		wideColumns(col, plane, g, c, rStride)
		return
	}
	stride2Columns(any(col).([]float32), any(plane).([]float32), g, c, rStride)
}

// fusedAddColumns adds the kH·kW rows of channel c of dcol (laid out as
// fusedColumns writes them) into acc, the channel's padded plane.
func fusedAddColumns[F float](acc, dcol []F, g *convGeom, c, rStride int) {
	if g.wide() {
		addWideColumns(acc, dcol, g, c, rStride)
		return
	}
	addStride2Columns(any(acc).([]float32), any(dcol).([]float32), g, c, rStride)
}

// fusedGradRow writes an output gradient plane src [Ho, Wo] into dst in
// the layout of the columns.
func fusedGradRow[F float](dst, src []F, g *convGeom) {
	if g.wide() {
		widen(dst, src, g)
		return
	}
	copy(dst, src)
}

// convFusedOn selects this path (tests turn it off to compare with the
// chunked one).
var convFusedOn = true

// convFusedColumns is about how many elements a goroutine's column buffer
// holds: 1 MiB of float32, half of an L2 cache here.
const convFusedColumns = 1 << 18

// fusedSegment returns the samples of a backward segment: about
// weightGradSegment positions, with columns of at most convFusedColumns
// elements (at least one sample), and few enough segments that their
// partial gradients stay within a quarter of the column budget.
func fusedSegment(g *convGeom) int {
	lw := g.fusedCols()
	return fitPartials(max(1, min(weightGradSegment/lw, convFusedColumns/(g.ck()*lw))), g.n, g.cout*g.ck())
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }

// scratchSlots hands each of at most n concurrent goroutines its own slot
// of a scratch buffer (forEachThread runs at most NumThreads at once).
type scratchSlots chan int

func newScratchSlots(n int) scratchSlots {
	s := make(scratchSlots, n)
	for i := range n {
		s <- i
	}
	return s
}

// conv2dForwardFused writes the convolution of x with w, plus the bias b
// (nil: none), into y, one sample per goroutine at a time.
func conv2dForwardFused(op string, x, w, b, y *Tensor, g *convGeom) {
	nt := min(NumThreads(), g.n)
	var rg *f32.RowsGemm
	l := newFusedLayout(g, false)
	switch {
	case x.dtype != Float32 || !convImplicit:
	case g.wide() && g.lw() >= implicitMinColumns:
		il := newFusedLayout(g, true)
		if rg = f32.NewRowsGemm(g.cout, g.ck(), w.v(op).f32(), g.ck(), g.planeRows(il.ld, il.ps)); rg != nil {
			l = il
		}
	case !g.wide(): // stride 2: W packed once, the gathered columns read in place
		rows := make([]int, g.ck())
		for i := range rows {
			rows[i] = i * g.fusedCols()
		}
		rg = f32.NewRowsGemm(g.cout, g.ck(), w.v(op).f32(), g.ck(), rows)
	}
	defer rg.Release()
	scratch := newTensor(op, x.dev, x.dtype, []int{nt, l.size})
	defer scratch.Release()
	if l.planes > 0 { // the borders of the padded planes and the zeros after them, written once
		for i := range nt {
			x.k(op).fill(scratch.v(op).sub(i*l.size+l.colN, l.planes), 0)
		}
	}
	var bias []float64
	if b != nil {
		bias = b.Float64s()
	}
	var err error
	if x.dtype == Float64 {
		err = forwardFusedHost(x.v(op).f64(), w.v(op).f64(), y.v(op).f64(), scratch.v(op).f64(), bias, g, nt, l, nil)
	} else {
		err = forwardFusedHost(x.v(op).f32(), w.v(op).f32(), y.v(op).f32(), scratch.v(op).f32(), bias, g, nt, l, rg)
	}
	if err != nil {
		panic(&CanceledError{Op: op, Cause: err})
	}
}

// fusedLayout is how a forward goroutine lays out a sample: in its
// scratch (size elements), colN elements of columns, the padded planes
// and zeros after them (planes elements; none without padding), then the
// wide output (cols columns a channel, unless the product writes the
// output rows directly); in the planes, rows ld and planes ps elements
// apart, so lw wide positions a sample ((Ho−1)·ld + Wo).
//
// The columns' layout (newFusedLayout(g, false)) has the planes of the
// wide layout (ops_conv_wide.go: rows of Wp = W + 2·pW).  The implicit
// GEMM's (newFusedLayout(g, true)) reads the planes in place and needs no
// columns; its rows are W + pW long where pW <= (kW−1)·dW, the right
// border of a row being the left border of the next one (zeros both), so
// a 3×3 convolution with padding 1 computes one junk position a row
// instead of two (14×14 planes: 209 wide positions instead of 222); and
// its products compute Lw rounded up to 8 columns (the GEMM's tiles read
// 16 or 8 columns in place), the junk ones reading the zeros after the
// planes, instead of packing the last ones apart.
type fusedLayout struct {
	colN, planes, size int
	ld, ps, lw, cols   int
}

// newFusedLayout returns the columns' layout of g, or the implicit GEMM's.
func newFusedLayout(g *convGeom, implicit bool) fusedLayout {
	l := fusedLayout{ld: g.wp(), ps: g.plane(), lw: g.fusedCols()}
	if !implicit {
		l.colN = g.ck() * l.lw
	} else if ld := g.implicitRow(); ld != l.ld {
		l.ld = ld
		l.ps = g.hp() * l.ld
		l.lw = (g.ho-1)*l.ld + g.wo
	}
	l.cols = l.lw
	if g.padded() {
		if implicit && !l.direct(g) {
			l.cols = ceilDiv(l.lw, 8) * 8
		}
		// The last plane's last row reads a right border past it
		// (Wp − ld), the junk columns cols − lw more.
		l.planes = g.c*l.ps + g.wp() - l.ld + l.cols - l.lw
	}
	l.size = l.colN + l.planes
	if !l.direct(g) {
		l.size += g.cout * l.cols
	}
	return l
}

// implicitRow is the row length of the implicit GEMMs' padded planes:
// W + pW, the right border of a row being the left border of the next
// one, when a window reaches no further than the next row's border
// (0 < pW ≤ (kW−1)·dW), else Wp.  A 3×3 kernel with padding 1 then
// computes one junk position a row instead of two.
func (g *convGeom) implicitRow() int {
	if g.pw > 0 && g.pw <= (g.kw-1)*g.dw {
		return g.w + g.pw
	}
	return g.wp()
}

// direct reports whether a sample's product writes its output rows
// directly: its wide rows are the output rows.
func (l fusedLayout) direct(g *convGeom) bool { return !g.wide() || l.ld == g.wo }

// convImplicit selects the implicit GEMM of stride-1 float32 forward
// passes (tests turn it off to compare with the columns).
var convImplicit = true

// implicitMinColumns is the fewest columns (positions a sample) for which
// the forward's implicit GEMM beats building columns.  Its last columns
// are computed in place 16 at a time (or packed, past 32): on 7×7 planes
// (61 wide positions, 64→64 channels, batch 128, one thread) it took 3.7
// ms against 5.9 with columns.
const implicitMinColumns = 32

// implicitDxPays reports whether the input gradient's implicit GEMM beats
// the column gradient and its col2im for g: on one thread, with C a
// multiple of its 8-row tiles, 7×7 and 14×14 planes of 32 and 64 channels
// took 10% less time (12.6 → 11.2 ms, 11.0 → 9.6 ms); with LeNet's 6
// channels of 14×14 (196 positions) 5% more, so fewer channels need
// planes of 512 positions (28×28: 7% less).
func implicitDxPays(g *convGeom) bool {
	n := g.h * g.wp()
	return n >= 512 || (n >= implicitMinColumns && g.c%8 == 0)
}

// planeRows returns where each row (c, i, j) of a sample's wide column
// matrix starts in its padded planes, whose rows are ld and planes ps
// elements apart: c·ps + i·dH·ld + j·dW.
func (g *convGeom) planeRows(ld, ps int) []int {
	kk := g.kk()
	rows := make([]int, g.ck())
	for c := range g.c {
		for r := range kk {
			rows[c*kk+r] = c*ps + g.tapAt(r, ld)
		}
	}
	return rows
}

// forwardFusedHost runs the forward pass sample by sample: through rg,
// the implicit GEMM on the padded planes, when set (float32), else on
// columns built in the first l.colN elements of the goroutine's scratch.
// The bias (nil: none) is written first into the rows the product adds
// to, in the goroutine's cache, as the output is narrowed from the wide
// rows anyway.
func forwardFusedHost[F float](x, w, y, scratch []F, bias []float64, g *convGeom, nt int, l fusedLayout, rg *f32.RowsGemm) error {
	ck, L := g.ck(), g.l()
	direct := l.direct(g)
	slots := newScratchSlots(nt)
	return forEachThread(g.n, func(s int) error {
		if err := cancel.Err(); err != nil {
			return err
		}
		slot := <-slots
		defer func() { slots <- slot }()
		buf := scratch[slot*l.size:][:l.size]
		col, rest := buf[:l.colN], buf[l.colN:]
		var xp []F
		if l.planes > 0 {
			xp, rest = rest[:l.planes], rest[l.planes:]
		}
		planes := samplePlanes(x, s, xp, g, l.ld, l.ps)
		product := func(out []F, ld int, add bool) error { // out (+)= W · columns
			if rg != nil && l.colN == 0 {
				rg.Run(l.cols, any(planes).([]float32), add, any(out).([]float32), ld)
				return nil
			}
			for c := range g.c {
				fusedColumns(col, planes[c*l.ps:][:l.ps], g, c, l.lw)
			}
			if rg != nil {
				rg.Run(l.lw, any(col).([]float32), add, any(out).([]float32), ld)
				return nil
			}
			return gemmSerial(false, false, g.cout, l.lw, ck, 1, w, ck, col, l.lw, b2f[F](add), out, ld)
		}
		ys := y[s*g.cout*L:][:g.cout*L]
		out, ld := ys, L
		if !direct {
			out, ld = rest[:g.cout*l.cols], l.cols
		}
		if bias != nil {
			for co := range g.cout {
				fillSlice(out[co*ld:][:ld], F(bias[co]))
			}
		}
		if err := product(out, ld, bias != nil); err != nil || direct {
			return err
		}
		for co := range g.cout {
			copyRows(ys[co*L:][:L], g.wo, out[co*ld:][:l.lw], l.ld, g.ho, g.wo, 0)
		}
		return nil
	})
}

// samplePlanes returns the planes of sample s of x as the columns read
// them: x's own without padding, else written into the interiors of xp,
// whose borders hold zeros.
func samplePlanes[F float](x []F, s int, xp []F, g *convGeom, ld, ps int) []F {
	hw := g.hw()
	planes := x[s*g.c*hw:][:g.c*hw]
	if xp == nil {
		return planes
	}
	for c := range g.c {
		padInterior(xp[c*ps:][:ps], planes[c*hw:][:hw], g, ld)
	}
	return xp
}

// conv2dBackwardFused writes the input gradient into gx (every element:
// its planes need no zeros first) and accumulates the weight gradient
// into gw (zeros); either may be nil.
func conv2dBackwardFused(op string, x, w, gy, gx, gw *Tensor, g *convGeom) {
	per := fusedSegment(g)
	segments := ceilDiv(g.n, per)
	nt := min(NumThreads(), segments)
	var dx *implicitDx
	if gx != nil && x.dtype == Float32 && g.wide() && convImplicit && implicitDxPays(g) {
		dx = newImplicitDx(w.v(op).f32(), g)
	}
	if dx != nil {
		defer dx.rg.Release()
	}
	size := fusedBackwardScratch(g, per, dx)
	scratch := newTensor(op, x.dev, x.dtype, []int{nt, size})
	defer scratch.Release()
	for i := range nt {
		if g.padded() { // the borders of the padded planes of x, written once
			x.k(op).fill(scratch.v(op).sub(i*size+(g.ck()+g.cout)*per*g.fusedCols(), per*g.c*g.plane()), 0)
		}
		if dx != nil { // the zeros around the rows of the output gradient
			x.k(op).fill(scratch.v(op).sub(i*size+size-dx.scratch(g), g.cout*dx.r), 0)
		}
	}
	var part *Tensor
	var wr *weightRows
	if gw != nil {
		part = newTensor(op, x.dev, x.dtype, []int{segments, g.cout * g.ck()})
		defer part.Release()
		if x.dtype == Float32 && convWeightRows {
			wr = newWeightRows(g, per)
		}
	}
	var err error
	if x.dtype == Float64 {
		err = backwardFusedHost(x.v(op).f64(), w.v(op).f64(), gy.v(op).f64(), optF64(op, gx), optF64(op, gw), optF64(op, part),
			scratch.v(op).f64(), g, per, nt, size, nil, nil)
	} else {
		err = backwardFusedHost(x.v(op).f32(), w.v(op).f32(), gy.v(op).f32(), optF32(op, gx), optF32(op, gw), optF32(op, part),
			scratch.v(op).f32(), g, per, nt, size, dx, wr)
	}
	if err != nil {
		panic(&CanceledError{Op: op, Cause: err})
	}
}

// fusedBackwardScratch is the scratch of one goroutine of the backward
// pass for segments of per samples: the columns (then their gradient),
// the output gradient, with padding the padded planes of x and one padded
// plane of the input gradient, and last the buffers of dx (when set).
func fusedBackwardScratch(g *convGeom, per int, dx *implicitDx) int {
	size := (g.ck() + g.cout) * per * g.fusedCols()
	if g.padded() {
		size += (per*g.c + 1) * g.plane()
	}
	if dx != nil {
		size += dx.scratch(g)
	}
	return size
}

// implicitDx computes the input gradient of a stride-1 float32
// convolution as an implicit GEMM, without the column gradient and its
// col2im.  In the padded plane (rows ld = implicitRow() apart), position p
// receives from every tap r the output gradient at p − shift(r), so
//
//	dxp[c][p] = Σ_{o,r} W[o][c][r] · g[o][p − shift(r)]
//
// where g is output gradient row o laid out with rows ld apart (zero at
// the ld − Wo junk positions of each row and outside its Ho rows): a
// product of the C x Cout·kH·kW matrix W' (W's axes swapped) and a matrix
// whose row (o, r) is g[o] shifted by −shift(r).  With ld = W + pW a junk
// position of g is both a row's right border and the next row's left one,
// and an interior p only ever meets real taps there (as in the forward).
// The gradient rows are laid out with zeros around them (t before, up to
// r in all), the product covers the H rows of the padded plane that hold
// the input (H·ld positions, rounded up to 8), and their interior columns
// are the input gradient.
type implicitDx struct {
	rg   *f32.RowsGemm
	t, r int // where a gradient row's values start in its padded row, and that row's length
	ld   int // the row length of the padded plane and of the gradient rows
	n    int // positions computed: H·ld rounded up to 8
}

func newImplicitDx(w []float32, g *convGeom) *implicitDx {
	kk, ck := g.kk(), g.ck()
	K := g.cout * kk
	wt := make([]float32, g.c*K) // W'[c][(o, r)] = W[o][c][r]
	for o := range g.cout {
		for c := range g.c {
			for r := range kk {
				wt[c*K+o*kk+r] = w[o*ck+c*kk+r]
			}
		}
	}
	ld := g.implicitRow()
	d := &implicitDx{ld: ld, n: ceilDiv(g.h*ld, 8) * 8}
	d.t = max(0, g.tapAt(kk-1, ld)-g.ph*ld)
	d.r = d.t + max(g.ho*ld, g.ph*ld+d.n)
	rows := make([]int, K)
	for o := range g.cout {
		for r := range kk {
			rows[o*kk+r] = o*d.r + d.t + g.ph*ld - g.tapAt(r, ld)
		}
	}
	d.rg = f32.NewRowsGemm(g.c, K, wt, K, rows)
	if d.rg == nil {
		return nil
	}
	return d
}

// scratch is the elements of a goroutine's buffers: the padded gradient
// rows, then the product.
func (d *implicitDx) scratch(g *convGeom) int { return g.cout*d.r + g.c*d.n }

// run writes the input gradient of a sample, gx ([C, H·W]), from its
// output gradient gy ([Cout, Ho·Wo]), through buf (scratch elements, the
// zeros around the padded rows in place).
func (d *implicitDx) run(gx, gy []float32, buf []float32, g *convGeom) {
	L, hw := g.l(), g.hw()
	rows, out := buf[:g.cout*d.r], buf[g.cout*d.r:][:g.c*d.n]
	for o := range g.cout {
		copyRows(rows[o*d.r+d.t:], d.ld, gy[o*L:][:L], g.wo, g.ho, g.wo, d.ld-g.wo)
	}
	d.rg.Run(d.n, rows, false, out, d.n)
	for c := range g.c {
		copyRows(gx[c*hw:][:hw], g.w, out[c*d.n+g.pw:], d.ld, g.h, g.w, 0)
	}
}

// backwardFusedHost runs the backward pass segment by segment; the weight
// gradient's products go through wr when set (float32: part then holds
// transposed partials), else through Gemm.
func backwardFusedHost[F float](x, w, gy, gx, gw, part, scratch []F, g *convGeom, per, nt, size int, dx *implicitDx, wr *weightRows) error {
	ck, lw, L, hw, ps := g.ck(), g.fusedCols(), g.l(), g.hw(), g.plane()
	slots := newScratchSlots(nt)
	segments := ceilDiv(g.n, per)
	err := forEachThread(segments, func(sg int) error {
		if err := cancel.Err(); err != nil {
			return err
		}
		slot := <-slots
		defer func() { slots <- slot }()
		s0 := sg * per
		m := min(per, g.n-s0)
		mL := m * lw
		buf := scratch[slot*size:][:size]
		col := buf[:ck*mL] // [ck, m·Lw]: row (c, r), then sample, then position
		gT := buf[ck*per*lw:][:g.cout*mL]
		var pad, dxp []F // x's padded planes (zero borders), dx's padded plane
		if g.padded() {
			pad = buf[(ck+g.cout)*per*lw:][:m*g.c*ps]
			dxp = buf[(ck+g.cout)*per*lw+per*g.c*ps:][:ps]
		}
		if gw != nil || dx == nil { // the wide output gradient (dx reads gy itself)
			for co := range g.cout {
				for s := range m {
					fusedGradRow(gT[(co*m+s)*lw:][:lw], gy[((s0+s)*g.cout+co)*L:][:L], g)
				}
			}
		}
		if gw != nil {
			n := g.cout * ck
			pt := part[sg*n:][:n]
			for s := range m {
				var xp []F
				if pad != nil {
					xp = pad[s*g.c*ps:][:g.c*ps]
				}
				planes := samplePlanes(x, s0+s, xp, g, g.wp(), ps)
				if wr != nil && wr.planes != nil { // dWᵀ += this sample's planes' runs · its gTᵀ
					wr.planes.Run(lw, any(planes).([]float32), any(gT[s*lw:]).([]float32), mL, s > 0, any(pt).([]float32), g.cout)
					continue
				}
				for c := range g.c {
					fusedColumns(col[s*lw:], planes[c*ps:][:ps], g, c, mL)
				}
			}
			switch {
			case wr == nil:
				if err := gemmSerial(false, true, g.cout, ck, mL, 1, gT, mL, col, mL, 0, pt, ck); err != nil {
					return err
				}
			case wr.planes == nil: // dWᵀ = col·gTᵀ; the rows past col's (a last group's) lie in buf
				p := wr.full
				if m < per {
					p = wr.rem
				}
				p.Run(mL, any(buf).([]float32), any(gT).([]float32), mL, false, any(pt).([]float32), g.cout)
			}
		}
		if gx == nil {
			return nil
		}
		if dx != nil {
			gx32, gy32, buf32 := any(gx).([]float32), any(gy).([]float32), any(buf).([]float32)
			for s := range m {
				dx.run(gx32[(s0+s)*g.c*hw:][:g.c*hw], gy32[(s0+s)*g.cout*L:][:g.cout*L], buf32[size-dx.scratch(g):], g)
			}
			return nil
		}
		// dcol = Wᵀ·gT overwrites the columns.
		if err := gemmSerial(true, false, ck, mL, g.cout, 1, w, ck, gT, mL, 0, col, mL); err != nil {
			return err
		}
		for s := range m {
			for c := range g.c {
				dst := gx[((s0+s)*g.c+c)*hw:][:hw]
				acc := dst // without padding, the plane itself (in cache from here on)
				if dxp != nil {
					acc = dxp
				}
				clear(acc)
				fusedAddColumns(acc, col[s*lw:], g, c, mL)
				if dxp != nil {
					unpadPlane(dst, acc, g)
				}
			}
		}
		return nil
	})
	if err != nil || gw == nil {
		return err
	}
	if wr != nil {
		return addPartialsT(any(gw).([]float32), any(part).([]float32), segments, g.cout, ck)
	}
	return addPartials(gw, part, segments, g.cout, ck)
}
