package vec

import "math"

// Float is the element type of the LayerNorm rows: float32 runs the
// AVX-512 or AVX2 loops where the CPU has them, float64 the Go loops.
type Float interface{ ~float32 | ~float64 }

// LayerNormRow normalises one row x of d elements, in float64:
//
//	μ = Σ x / d,  rstd = 1 / √(Σ (x − μ)² / d + eps)
//	xhat[j] = (x[j] − μ)·rstd,  out[j] = xhat[j]·w[j] + b[j]
//
// with xhat and out rounded to F once, from the float64 value, and
// returns rstd.  The sums run over 16 rowLanes (element j into lane j mod
// 16, the rowLanes then added pairwise: see sumLanes) and then the tail of
// d mod 16 elements in order; each product and sum is rounded as written
// (no fused multiply-add), so the AVX-512 and AVX2 loops give the same
// bits as this Go code.  w and b are float64 (ones and zeros for a LayerNorm
// without affine parameters).  It panics unless every slice has length d.
func LayerNormRow[F Float](out, xhat, x []F, w, b []float64, eps float64) float64 {
	d := len(x)
	check("LayerNormRow", d, len(out))
	check("LayerNormRow", d, len(xhat))
	check("LayerNormRow", d, len(w))
	check("LayerNormRow", d, len(b))
	mean := sum64(x) / float64(d)
	rs := 1 / math.Sqrt(sqDev64(x, mean)/float64(d)+eps)
	n := lnRowVec(out, xhat, x, w, b, mean, rs)
	lnRowGeneric(out[n:], xhat[n:], x[n:], w[n:], b[n:], mean, rs)
	return rs
}

// LayerNormGradRow is the backward of LayerNormRow for one row, from the
// gradient g of out and the saved xhat and rstd: with dx̂ = g·w it adds
// g·x̂ to bw and g to bb (the per-column sums of the weight's and bias's
// gradients) and, when gx is not nil, sets
//
//	gx[j] = rstd·(dx̂[j] − m1 − x̂[j]·m2),  m1 = Σ dx̂ / d,  m2 = Σ dx̂·x̂ / d
//
// in float64 (sums over 16 rowLanes as in LayerNormRow), rounded to F once.
// It panics unless every slice but a nil gx has the row's length.
func LayerNormGradRow[F Float](gx, g, xhat []F, w, bw, bb []float64, rstd float64) {
	d := len(g)
	check("LayerNormGradRow", d, len(xhat))
	check("LayerNormGradRow", d, len(w))
	check("LayerNormGradRow", d, len(bw))
	check("LayerNormGradRow", d, len(bb))
	m1, m2, n := lnGradSumsVec(g, xhat, w, bw, bb)
	m1, m2 = lnGradSumsGeneric(g[n:], xhat[n:], w[n:], bw[n:], bb[n:], m1, m2)
	if gx == nil {
		return
	}
	check("LayerNormGradRow", d, len(gx))
	m1 /= float64(d)
	m2 /= float64(d)
	n = lnGradRowVec(gx, g, xhat, w, rstd, m1, m2)
	lnGradRowGeneric(gx[n:], g[n:], xhat[n:], w[n:], rstd, m1, m2)
}

// rowLanes is the number of partial sums of the row loops: two vectors of 8
// float64 rowLanes.
const rowLanes = 16

// sumLanes adds the 16 partial sums as the assembly does: the second
// vector onto the first (lane l + lane l+8), then halves of 4, 2 and 1.
func sumLanes(acc *[rowLanes]float64) float64 {
	for w := rowLanes / 2; w >= 1; w /= 2 {
		for l := range w {
			acc[l] += acc[l+w]
		}
	}
	return acc[0]
}

// sum64 returns Σ x in float64: the first len(x) &^ 15 elements in 16
// rowLanes, then the rest in order.
func sum64[F Float](x []F) float64 {
	s, n := sumVec(x)
	for _, v := range x[n:] {
		s += float64(v)
	}
	return s
}

// sqDev64 returns Σ (x − c)² in float64, summed as sum64.
func sqDev64[F Float](x []F, c float64) float64 {
	s, n := sqDevVec(x, c)
	for _, v := range x[n:] {
		a := float64(v) - c
		s += a * a
	}
	return s
}

// sumGeneric is sum64's lane loop on the first len(x) &^ 15 elements; it
// returns the sum and that count.
func sumGeneric[F Float](x []F) (float64, int) {
	var acc [rowLanes]float64
	n := len(x) &^ (rowLanes - 1)
	for i := 0; i < n; i += rowLanes {
		for l, v := range x[i : i+rowLanes] {
			acc[l] += float64(v)
		}
	}
	return sumLanes(&acc), n
}

// sqDevGeneric is sqDev64's lane loop, as sumGeneric.
func sqDevGeneric[F Float](x []F, c float64) (float64, int) {
	var acc [rowLanes]float64
	n := len(x) &^ (rowLanes - 1)
	for i := 0; i < n; i += rowLanes {
		for l, v := range x[i : i+rowLanes] {
			a := float64(v) - c
			acc[l] += a * a
		}
	}
	return sumLanes(&acc), n
}

// lnRowGeneric is LayerNormRow's element loop.
func lnRowGeneric[F Float](out, xhat, x []F, w, b []float64, mean, rs float64) {
	xhat, w, b = xhat[:len(x)], w[:len(x)], b[:len(x)]
	for j, v := range x[:len(out)] {
		h := (float64(v) - mean) * rs
		xhat[j] = F(h)
		out[j] = F(h*w[j] + b[j])
	}
}

// lnGradSumsGeneric adds g·x̂ to bw and g to bb, and returns m1 + Σ g·w
// and m2 + Σ g·w·x̂ in order (the tail after the lane loop).
func lnGradSumsGeneric[F Float](g, xhat []F, w, bw, bb []float64, m1, m2 float64) (float64, float64) {
	xhat, w, bw, bb = xhat[:len(g)], w[:len(g)], bw[:len(g)], bb[:len(g)]
	for j := range g {
		m1, m2 = lnGradTerm(g[j], xhat[j], w[j], &bw[j], &bb[j], m1, m2)
	}
	return m1, m2
}

// lnGradTerm is one element of LayerNormGradRow's sums: bw += g·x̂,
// bb += g, and m1 + dh, m2 + dh·x̂ returned for dh = g·w.
func lnGradTerm[F Float](gv, hv F, w float64, bw, bb *float64, m1, m2 float64) (float64, float64) {
	gf, h := float64(gv), float64(hv)
	*bw += gf * h
	*bb += gf
	dh := gf * w
	return m1 + dh, m2 + dh*h
}

// lnGradSumsLanes is LayerNormGradRow's lane loop on the first
// len(g) &^ 15 elements: the column sums as lnGradSumsGeneric, m1 and m2
// in 16 lanes; it returns them and that count.
func lnGradSumsLanes[F Float](g, xhat []F, w, bw, bb []float64) (m1, m2 float64, n int) {
	var a1, a2 [rowLanes]float64
	n = len(g) &^ (rowLanes - 1)
	for i := 0; i < n; i += rowLanes {
		for l := range rowLanes {
			j := i + l
			a1[l], a2[l] = lnGradTerm(g[j], xhat[j], w[j], &bw[j], &bb[j], a1[l], a2[l])
		}
	}
	return sumLanes(&a1), sumLanes(&a2), n
}

// lnGradRowGeneric is LayerNormGradRow's element loop.
func lnGradRowGeneric[F Float](gx, g, xhat []F, w []float64, rs, m1, m2 float64) {
	g, xhat, w = g[:len(gx)], xhat[:len(gx)], w[:len(gx)]
	for j, gv := range g {
		gx[j] = F(rs * (float64(gv)*w[j] - m1 - float64(xhat[j])*m2))
	}
}
