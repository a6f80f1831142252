//go:build !dlbd_noasm

package vec

// The loops of planes.go (planes_amd64.s): rows > 0, n > 0.

//go:noescape
func sumRowsAVX512(x *float32, n, rows, stride int) float64

//go:noescape
func sqDevRowsAVX512(x *float32, n, rows, stride int, c float64) float64

//go:noescape
func sumDotRowsAVX512(grad, x *float32, n, rows, stride int) (s, sx float64)

//go:noescape
func affineRowsAVX512(dst, x *float32, n, rows, stride int, a, b float32)

//go:noescape
func affine2RowsAVX512(dst, x, y *float32, n, rows, stride int, a, b, c float32)

func sumRowsVec(x []float32, n, rows, stride int) (float64, bool) {
	if !haveAVX512 {
		return 0, false
	}
	return sumRowsAVX512(&x[0], n, rows, stride), true
}

func sqDevRowsVec(x []float32, n, rows, stride int, c float64) (float64, bool) {
	if !haveAVX512 {
		return 0, false
	}
	return sqDevRowsAVX512(&x[0], n, rows, stride, c), true
}

func sumDotRowsVec(g, x []float32, n, rows, stride int) (s, sx float64, ok bool) {
	if !haveAVX512 {
		return 0, 0, false
	}
	s, sx = sumDotRowsAVX512(&g[0], &x[0], n, rows, stride)
	return s, sx, true
}

func affineRowsVec(dst, x []float32, n, rows, stride int, a, b float32) bool {
	if haveAVX512 {
		affineRowsAVX512(&dst[0], &x[0], n, rows, stride, a, b)
	}
	return haveAVX512
}

func affine2RowsVec(dst, x, y []float32, n, rows, stride int, a, b, c float32) bool {
	if haveAVX512 {
		affine2RowsAVX512(&dst[0], &x[0], &y[0], n, rows, stride, a, b, c)
	}
	return haveAVX512
}
