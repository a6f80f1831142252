package dl

// The weight gradient of a convolution, dW += gT · colᵀ over a chunk of
// samples, is a product with few outputs (Cout x C·kH·kW, e.g. 16 x 144)
// and a long inner dimension (the chunk's m·L positions, tens of
// thousands).  Split between goroutines as an ordinary product it leaves
// each of them a few tiles per K block and two waits per block: on two
// threads the backward pass of a ResNet ran only 1.25x faster than on one.
// So the positions are cut into segments of whole samples, fixed by the
// shape alone (about weightGradSegment positions each), each segment's
// product runs on one goroutine into a partial gradient of its own, and
// the partials are added into dW in segment order: every segment is
// independent work, and the sums are the same on any number of threads.

// weightGradSegment is about how many positions (columns of gT) one
// segment's product covers: deep enough to fill several K blocks of the
// GEMM kernels, short enough to give two goroutines several segments of a
// chunk.
const weightGradSegment = 2048

// weightGradSegments returns the samples per segment and the segments of
// a chunk of m samples of L positions each (1 segment: the plain product
// is as good), keeping the partial gradients (segments x outputs elements)
// within a quarter of the column budget.
func weightGradSegments(m, L, outputs int) (per, segments int) {
	per = fitPartials(max(1, weightGradSegment/max(L, 1)), m, outputs)
	return per, ceilDiv(m, per)
}

// fitPartials doubles per, the samples of a segment, until the partial
// gradients of m samples' segments (outputs elements each) fit a quarter
// of the column budget, or one segment holds them all.
func fitPartials(per, m, outputs int) int {
	for ceilDiv(m, per)*outputs > convColumnBudget/4 && per < m {
		per *= 2
	}
	return per
}

// weightGrad adds the weight gradient of a chunk of m samples into gw:
// dW_grp += gT_grp · col_grpᵀ, gT [Cout, m·L] and col [C·kH·kW, m·L]
// channel-major.  Float32 and Float64 products of one group are cut into
// segments (see above); others (16-bit operands, groups) run as one
// product per group.
func weightGrad(op string, gT, col, gw *Tensor, g *convGeom, m, L int) {
	mL, og, kg := m*L, g.og(), g.kg()
	per, segments := weightGradSegments(m, L, g.cout*g.ck())
	same := gT.dtype == col.dtype && col.dtype == gw.dtype && (gw.dtype == Float32 || gw.dtype == Float64)
	if segments == 1 || g.groups != 1 || !same {
		base := gemmArgs{op: op, transB: true, m: og, n: kg, k: mL, alpha: 1, beta: 1,
			a: gT.v(op), b: col.v(op), c: gw.v(op), lda: mL, ldb: mL, ldc: kg}
		gemmGrid(&base, g.groups, 1, [2]int{og * mL, 0}, [2]int{kg * mL, 0}, [2]int{og * kg, 0})
		return
	}
	part := newTensor(op, gw.dev, gw.dtype, []int{segments, gw.n})
	defer part.Release()
	var err error
	if gw.dtype == Float64 {
		err = weightGradHost(gT.v(op).f64(), col.v(op).f64(), part.v(op).f64(), gw.v(op).f64(), g.cout, g.ck(), mL, per*L)
	} else {
		err = weightGradHost(gT.v(op).f32(), col.v(op).f32(), part.v(op).f32(), gw.v(op).f32(), g.cout, g.ck(), mL, per*L)
	}
	if err != nil {
		panic(&CanceledError{Op: op, Cause: err})
	}
}

// weightGradHost computes the partial gradient of each segment of seg
// positions into part (one goroutine per segment), then adds the partials
// into gw in order (goroutines over rows of gw).
func weightGradHost[F float](gT, col, part, gw []F, cout, ck, mL, seg int) error {
	n := cout * ck
	segments := ceilDiv(mL, seg)
	err := forEachThread(segments, func(s int) error {
		k0 := s * seg
		k := min(seg, mL-k0)
		return gemmSerial(false, true, cout, ck, k, 1, gT[k0:], mL, col[k0:], mL, 0, part[s*n:][:n], ck)
	})
	if err != nil {
		return err
	}
	return addPartials(gw, part, segments, cout, ck)
}

// addPartials adds the segments partial gradients in part (each rows x
// cols, one after another) into gw in segment order (goroutines over the
// rows).
func addPartials[F float](gw, part []F, segments, rows, cols int) error {
	n := rows * cols
	return forEachThread(rows, func(r int) error {
		row := gw[r*cols:][:cols]
		for s := range segments {
			axpyRow(1, part[s*n+r*cols:][:cols], row)
		}
		return nil
	})
}
