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
// multiply-adds on AVX-512, so the last bits may differ from the loop
// without it).  It panics if len(w) != len(offs), an offset is negative,
// a stride is shorter than a row, or a slice is too short; rows or cols
// of 0 is an empty loop.
func TapRows(y []float32, ldy int, x []float32, ldx, rows, cols int, offs []int, w []float32) {
	if !checkTaps("vec.TapRows", len(y), ldy, len(x), ldx, rows, cols, offs, len(w)) {
		return
	}
	if !tapRowsVec(y, ldy, x, ldx, rows, cols, offs, w) {
		tapRowsGo(y, ldy, x, ldx, rows, cols, offs, w)
	}
}

// TapRows64 is TapRows on float64 (with no SIMD loop).
func TapRows64(y []float64, ldy int, x []float64, ldx, rows, cols int, offs []int, w []float64) {
	if checkTaps("vec.TapRows64", len(y), ldy, len(x), ldx, rows, cols, offs, len(w)) {
		tapRowsGo(y, ldy, x, ldx, rows, cols, offs, w)
	}
}

// checkTaps panics if TapRows's arguments are inconsistent (op names the
// function) and reports whether there is work to do.
func checkTaps(op string, ny, ldy, nx, ldx, rows, cols int, offs []int, nw int) bool {
	if len(offs) != nw {
		panic(fmt.Sprintf("%s: %d offsets for %d weights: give one offset per weight", op, len(offs), nw))
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
		panic(fmt.Sprintf("%s: rows of %d floats with strides %d (y) and %d (x): a stride must be at least the row", op, cols, ldy, ldx))
	}
	if need := (rows-1)*ldy + cols; ny < need {
		panic(fmt.Sprintf("%s: y holds %d floats, %d rows of %d with stride %d need %d", op, ny, rows, cols, ldy, need))
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
