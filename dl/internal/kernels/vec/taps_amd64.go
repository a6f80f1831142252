//go:build !dlbd_noasm

package vec

// tapRowsAVX512 is TapRows's loop (taps_amd64.s): rows, cols, taps > 0,
// the slices checked.
//
//go:noescape
func tapRowsAVX512(y *float32, ldy int, x *float32, ldx, rows, cols int, offs *int, w *float32, taps int)

func tapRowsVec(y []float32, ldy int, x []float32, ldx, rows, cols int, offs []int, w []float32) bool {
	if haveAVX512 {
		tapRowsAVX512(&y[0], ldy, &x[0], ldx, rows, cols, &offs[0], &w[0], len(w))
	}
	return haveAVX512
}

// tapDotsAVX512 is TapDots's loop (taps_amd64.s): rows, cols, taps > 0,
// the slices checked.
//
//go:noescape
func tapDotsAVX512(acc *float64, grad *float32, ldg int, x *float32, ldx, rows, cols int, offs *int, taps int)

func tapDotsVec(acc []float64, g []float32, ldg int, x []float32, ldx, rows, cols int, offs []int) bool {
	if haveAVX512 {
		tapDotsAVX512(&acc[0], &g[0], ldg, &x[0], ldx, rows, cols, &offs[0], len(offs))
	}
	return haveAVX512
}
