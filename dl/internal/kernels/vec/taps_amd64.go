//go:build !dlbd_noasm

package vec

// tapRowsAVX512 is TapRows's loop (taps_amd64.s): rows, cols, taps > 0,
// the slices checked.
//
//go:noescape
func tapRowsAVX512(y *float32, ldy int, x *float32, ldx, rows, cols int, offs *int, w *float32, taps int)

// tapRowsAVX2 is the same loop for AVX2 CPUs (taps_amd64.s).
//
//go:noescape
func tapRowsAVX2(y *float32, ldy int, x *float32, ldx, rows, cols int, offs *int, w *float32, taps int)

func tapRowsVec(y []float32, ldy int, x []float32, ldx, rows, cols int, offs []int, w []float32) bool {
	switch {
	case haveAVX512:
		tapRowsAVX512(&y[0], ldy, &x[0], ldx, rows, cols, &offs[0], &w[0], len(w))
	case haveAVX2:
		tapRowsAVX2(&y[0], ldy, &x[0], ldx, rows, cols, &offs[0], &w[0], len(w))
	default:
		return false
	}
	return true
}

// tapDotsAVX512 is TapDots's loop (taps_amd64.s): rows, cols, taps > 0,
// the slices checked.
//
//go:noescape
func tapDotsAVX512(acc *float64, grad *float32, ldg int, x *float32, ldx, rows, cols int, offs *int, taps int)

// tapDotsAVX2 is the same loop for AVX2 CPUs (taps_amd64.s).
//
//go:noescape
func tapDotsAVX2(acc *float64, grad *float32, ldg int, x *float32, ldx, rows, cols int, offs *int, taps int)

func tapDotsVec(acc []float64, g []float32, ldg int, x []float32, ldx, rows, cols int, offs []int) bool {
	switch {
	case haveAVX512:
		tapDotsAVX512(&acc[0], &g[0], ldg, &x[0], ldx, rows, cols, &offs[0], len(offs))
	case haveAVX2:
		tapDotsAVX2(&acc[0], &g[0], ldg, &x[0], ldx, rows, cols, &offs[0], len(offs))
	default:
		return false
	}
	return true
}
