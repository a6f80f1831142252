//go:build !amd64 || dlbd_noasm

package vec

// Without assembly the vector loops do nothing and the generic loops do
// all the work (they return the number of elements they handled: 0).

func axpyVec(alpha float32, x, y []float32) int                      { return 0 }
func gather2RowsVec(dst, src []float32, rows, cols, ld int) bool     { return false }
func scatterAdd2RowsVec(dst, src []float32, rows, cols, ld int) bool { return false }
func copyRowsVec(dst []float32, ldd int, src []float32, lds, rows, cols, fill int) bool {
	return false
}
func maxPool2RowVec(dst []float32, arg []int64, top, bottom []float32, base, w int) bool {
	return false
}
func reluVec(dst, src []float32) int                      { return 0 }
func reluGradVec(dst, g, y []float32) int                 { return 0 }
func addVec(dst, a, b []float32) int                      { return 0 }
func adamVec(p, g, m, v []float32, c *AdamCoeffs) int     { return 0 }
func affineVec(dst, x []float32, a, b float32) int        { return 0 }
func affine2Vec(dst, x, y []float32, a, b, c float32) int { return 0 }

func expSumVec(x []float32, shift float64) float64 { return expSumGeneric(x, shift) }

func expScaleVec(dst, x []float32, shift, scale float64) int { return 0 }

func maxVec(x []float32) (m float32, nan bool, n int) {
	m, nan = maxGeneric(x)
	return m, nan, len(x)
}

// GELU has a loop of its own here, the float64 formula (see gelu.go).

func geluAssembly() bool { return false }

func geluVec(dst, src []float32) int {
	geluFloat64(dst, src)
	return len(dst)
}

func geluGradVec(dst, g, x []float32) int {
	geluGradFloat64(dst, g, x)
	return len(dst)
}

// The LayerNorm rows: the lane loops of the reference, the element loops
// left to the generic code.

func sumVec[F Float](x []F) (float64, int)              { return sumGeneric(x) }
func sqDevVec[F Float](x []F, c float64) (float64, int) { return sqDevGeneric(x, c) }
func lnRowVec[F Float](out, xhat, x []F, w, b []float64, mean, rs float64) int {
	return 0
}
func lnGradSumsVec[F Float](g, xhat []F, w, bw, bb []float64) (m1, m2 float64, n int) {
	return lnGradSumsLanes(g, xhat, w, bw, bb)
}
func lnGradRowVec[F Float](gx, g, xhat []F, w []float64, rs, m1, m2 float64) int { return 0 }

func dotVec(a, b []float32) (float64, int)                  { return dotGeneric(a, b) }
func softmaxGradVec(dst, p []float32, d, scale float64) int { return 0 }

func sumRowsVec(x []float32, n, rows, stride int) (float64, bool) { return 0, false }
func sqDevRowsVec(x []float32, n, rows, stride int, c float64) (float64, bool) {
	return 0, false
}
func sumDotRowsVec(g, x []float32, n, rows, stride int) (s, sx float64, ok bool) {
	return 0, 0, false
}
func affineRowsVec(dst, x []float32, n, rows, stride int, a, b float32) bool { return false }
func affine2RowsVec(dst, x, y []float32, n, rows, stride int, a, b, c float32) bool {
	return false
}

func tapRowsVec(y []float32, ldy int, x []float32, ldx, rows, cols int, offs []int, w []float32) bool {
	return false
}

func tapDotsVec(acc []float64, g []float32, ldg int, x []float32, ldx, rows, cols int, offs []int) bool {
	return false
}
