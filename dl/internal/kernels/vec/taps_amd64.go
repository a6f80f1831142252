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
