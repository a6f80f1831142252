package vec

import "fmt"

// TapRows adds to rows rows of cols floats of y (row r at y[r·ldy:]) a
// weighted sum of shifted runs of x:
//
//	y[r·ldy + c] += Σ_t w[t]·x[r·ldx + c + offs[t]]
//
// the direct loop of a stride-1 convolution of one plane (a depthwise
// filter's taps): with x a padded plane [Hp, Wp], ldx = Wp and offs[t] =
// i·dH·Wp + j·dW for tap (i, j), y's rows are the output rows.  Each
// element's sum starts from y and adds the taps in order (fused
// multiply-adds on AVX-512 and AVX2, so the last bits may differ from
// the loop without them).  It panics if len(w) != len(offs), an offset is negative,
// a stride is shorter than a row, or a slice is too short; rows or cols
// of 0 is an empty loop.
func TapRows(y []float32, ldy int, x []float32, ldx, rows, cols int, offs []int, w []float32) {
	if !checkTaps("vec.TapRows", "y", "weights", len(y), ldy, len(x), ldx, rows, cols, offs, len(w)) {
		return
	}
	if !tapRowsVec(y, ldy, x, ldx, rows, cols, offs, w) {
		tapRowsGo(y, ldy, x, ldx, rows, cols, offs, w)
	}
}

// TapRows64 is TapRows on float64 (with no SIMD loop).
func TapRows64(y []float64, ldy int, x []float64, ldx, rows, cols int, offs []int, w []float64) {
	if checkTaps("vec.TapRows64", "y", "weights", len(y), ldy, len(x), ldx, rows, cols, offs, len(w)) {
		tapRowsGo(y, ldy, x, ldx, rows, cols, offs, w)
	}
}

// TapDots adds to acc[t] the sum over rows rows of cols floats of g (row
// r at g[r·ldg:]) times x shifted by offs[t]:
//
//	acc[t] += Σ_r Σ_c g[r·ldg + c]·x[r·ldx + c + offs[t]]
//
// the weight gradient of a stride-1 convolution of one plane (g the
// output gradient, x the padded input plane; TapRows is its forward).
// The products and their sums over up to four rows are float32 (the
// rows of a group in 16 lanes on AVX-512 and AVX2, in order without
// them), the rest float64, so results agree with and without them to
// float32 rounding of a few terms.  It panics as TapRows does (len(acc) for len(w)).
func TapDots(acc []float64, g []float32, ldg int, x []float32, ldx, rows, cols int, offs []int) {
	if !checkTaps("vec.TapDots", "g", "sums", len(g), ldg, len(x), ldx, rows, cols, offs, len(acc)) {
		return
	}
	if !tapDotsVec(acc, g, ldg, x, ldx, rows, cols, offs) {
		tapDotsGo(acc, g, ldg, x, ldx, rows, cols, offs)
	}
}

// tapDotsGo is TapDots's loop without SIMD.
func tapDotsGo(acc []float64, g []float32, ldg int, x []float32, ldx, rows, cols int, offs []int) {
	for t, o := range offs {
		for r0 := 0; r0 < rows; r0 += 4 {
			var s float32
			for r := r0; r < min(r0+4, rows); r++ {
				gr, xr := g[r*ldg:][:cols], x[r*ldx+o:][:cols]
				for c, v := range gr {
					s += v * xr[c]
				}
			}
			acc[t] += float64(s)
		}
	}
}

// checkTaps panics if TapRows's or TapDots's arguments are inconsistent
// (op names the function, yName its row slice, wName the slice of one
// entry per tap) and reports whether there is work to do.
func checkTaps(op, yName, wName string, ny, ldy, nx, ldx, rows, cols int, offs []int, nw int) bool {
	if len(offs) != nw {
		panic(fmt.Sprintf("%s: %d offsets for %d %s: give one offset per entry of %s", op, len(offs), nw, wName, wName))
	}
	if rows <= 0 || cols <= 0 || nw == 0 {
		return false
	}
	top := 0
	for _, o := range offs {
		if o < 0 {
			panic(fmt.Sprintf("%s: offset %d is negative: shift x's start instead", op, o))
		}
		top = max(top, o)
	}
	if ldy < cols || ldx < cols {
		panic(fmt.Sprintf("%s: rows of %d floats with strides %d (%s) and %d (x): a stride must be at least the row", op, cols, ldy, yName, ldx))
	}
	if need := (rows-1)*ldy + cols; ny < need {
		panic(fmt.Sprintf("%s: %s holds %d floats, %d rows of %d with stride %d need %d", op, yName, ny, rows, cols, ldy, need))
	}
	if need := (rows-1)*ldx + cols + top; nx < need {
		panic(fmt.Sprintf("%s: x holds %d floats, %d rows of %d with stride %d and offsets up to %d need %d", op, nx, rows, cols, ldx, top, need))
	}
	return true
}

// tapRowsGo is TapRows's loop without SIMD.
func tapRowsGo[F float32 | float64](y []F, ldy int, x []F, ldx, rows, cols int, offs []int, w []F) {
	for r := range rows {
		yr, xr := y[r*ldy:][:cols], x[r*ldx:]
		for c := range yr {
			s := yr[c]
			for t, o := range offs {
				s += w[t] * xr[c+o]
			}
			yr[c] = s
		}
	}
}
