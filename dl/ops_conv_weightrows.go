package dl

import "github.com/dlbd/dlbd/dl/internal/kernels/f32"

// The float32 weight gradient of the fused path (ops_conv_fused.go)
// computed as its transpose, dWᵀ = col·gTᵀ, by f32.RowsGemmNT: the rows
// of col are read where they lie, and only gT (Cout rows) is transposed
// into packed panels.  As gT·colᵀ through Gemm, the columns (C·kH·kW
// rows, 9x more than gT's for a 3×3 layer with as many channels in as
// out) had to be transposed into panels on every segment, half the
// product's time; with stride 1 they also had to be built.  Now:
//
//   - stride 1 with kernel rows that group in threes (3×3; 1×1 on a
//     multiple of 3 channels): A's rows
//     are the shifted runs of each sample's padded planes (planeRows), a
//     product per sample, and the columns are not built;
//   - otherwise (stride 2, 5×5...): the columns are built as before and
//     their rows, mL apart, are A's.
//
// Each segment's partial is [C·kH·kW, Cout]; addPartialsT adds them in
// segment order and transposes the sum into dW.  On one thread the
// products of a small ResNet's layers ran at 175-200 GFLOP/s against
// 48-154 through Gemm (AVX-512); on an AVX2 CPU (Zen 3) the 6x16 tile
// took the ResNet 3×3 64→64 layer at 14×14 (batch 32) from about 51 to
// 72 GFLOP/s in its weight gradient, the columns no longer built nor
// transposed.

// convWeightRows selects this product (tests turn it off to compare).
var convWeightRows = true

// weightRows is the weight-gradient product of a backward pass.
type weightRows struct {
	planes    *f32.RowsGemmNT // A's rows in a sample's padded planes, or nil
	full, rem *f32.RowsGemmNT // A's rows in the columns of a full segment and of the last, shorter one
}

// newWeightRows returns the product for segments of per samples, or nil
// when this machine has no kernel for it.
func newWeightRows(g *convGeom, per int) *weightRows {
	ck := g.ck()
	if g.wide() && ck%3 == 0 { // (a last group of one or two rows would read past the planes)
		if p := f32.NewRowsGemmNT(ck, g.cout, g.planeRows(g.wp(), g.plane())); p != nil {
			return &weightRows{planes: p}
		}
	}
	colRows := func(m int) *f32.RowsGemmNT {
		rows := make([]int, ck)
		for i := range rows {
			rows[i] = i * m * g.fusedCols()
		}
		return f32.NewRowsGemmNT(ck, g.cout, rows)
	}
	w := &weightRows{full: colRows(per)}
	if w.full == nil {
		return nil
	}
	if r := g.n % per; r != 0 { // the last segment is shorter
		if w.rem = colRows(r); w.rem == nil {
			return nil
		}
	}
	return w
}

// addPartialsT adds the sum of the segments' partial gradients part
// ([segments][ck, cout]) into gw [cout, ck]: the sums run in segment
// order, in place in segment 0's rows, then are transposed.
func addPartialsT(gw, part []float32, segments, cout, ck int) error {
	n := cout * ck
	const rows = 16
	return forEachThread(ceilDiv(ck, rows), func(b int) error {
		q0, q1 := b*rows, min(ck, (b+1)*rows)
		sum := part[q0*cout : q1*cout]
		for s := 1; s < segments; s++ {
			axpyRow(1, part[s*n+q0*cout:][:len(sum)], sum)
		}
		for q := q0; q < q1; q++ {
			for o, v := range sum[(q-q0)*cout:][:cout] {
				gw[o*ck+q] += v
			}
		}
		return nil
	})
}
