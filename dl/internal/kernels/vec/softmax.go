package vec

// Dot64 returns Σ float64(a[i])·float64(b[i]): the products exact, the
// sums in float64 over 16 lanes as LayerNormRow's (element i into lane
// i mod 16, sumLanes, then the tail in order), so the AVX-512 loop and
// the Go loop give the same bits.  It panics unless the lengths are
// equal.
func Dot64(a, b []float32) float64 {
	check("Dot64", len(a), len(b))
	s, n := dotVec(a, b)
	for i, v := range a[n:] {
		s += float64(v) * float64(b[n+i])
	}
	return s
}

// SoftmaxGrad sets dst[i] = float32(float64(p[i])·(float64(dst[i]) − d)·scale):
// a row of the gradient of the scores of a softmax, dS = P·(dP − D)·scale,
// from the probabilities P, dP in dst and D = Σ dY·Y of the row.  Each
// operation is rounded as written (no fused multiply-add), so the AVX-512
// loop gives the Go loop's bits.  It panics unless the lengths are equal.
func SoftmaxGrad(dst, p []float32, d, scale float64) {
	check("SoftmaxGrad", len(dst), len(p))
	n := softmaxGradVec(dst, p, d, scale)
	softmaxGradGeneric(dst[n:], p[n:], d, scale)
}

// dotGeneric is Dot64's lane loop on the first len(a) &^ 15 elements; it
// returns the sum and that count.
func dotGeneric(a, b []float32) (float64, int) {
	var acc [rowLanes]float64
	n := len(a) &^ (rowLanes - 1)
	for i := 0; i < n; i += rowLanes {
		for l, v := range a[i : i+rowLanes] {
			acc[l] += float64(v) * float64(b[i+l])
		}
	}
	return sumLanes(&acc), n
}

// softmaxGradGeneric is SoftmaxGrad's loop.
func softmaxGradGeneric(dst, p []float32, d, scale float64) {
	p = p[:len(dst)]
	for i, v := range p {
		dst[i] = float32(float64(v) * (float64(dst[i]) - d) * scale)
	}
}
