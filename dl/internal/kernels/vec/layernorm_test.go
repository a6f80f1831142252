package vec

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// lnGo is LayerNormRow on the Go loops alone (the reference the
// assembly must match).
func lnGo(out, xhat, x []float32, w, b []float64, eps float64) float64 {
	d := float64(len(x))
	s, n := sumGeneric(x)
	for _, v := range x[n:] {
		s += float64(v)
	}
	mean := s / d
	q, n := sqDevGeneric(x, mean)
	for _, v := range x[n:] {
		a := float64(v) - mean
		q += a * a
	}
	rs := 1 / math.Sqrt(q/d+eps)
	lnRowGeneric(out, xhat, x, w, b, mean, rs)
	return rs
}

// lnGradGo is LayerNormGradRow on the Go loops alone.
func lnGradGo(gx, g, xhat []float32, w, bw, bb []float64, rs float64) {
	m1, m2, n := lnGradSumsLanes(g, xhat, w, bw, bb)
	m1, m2 = lnGradSumsGeneric(g[n:], xhat[n:], w[n:], bw[n:], bb[n:], m1, m2)
	d := float64(len(g))
	lnGradRowGeneric(gx, g, xhat, w, rs, m1/d, m2/d)
}

// rowInput returns n values around an offset mean (a LayerNorm input of
// a residual stream) at offset off of a fresh buffer.
func rowInput(r *rand.Rand, n, off int, mean float64) []float32 {
	s := make([]float32, off+n)[off:]
	for i := range s {
		s[i] = float32(mean + r.NormFloat64()*math.Pow(2, float64(r.IntN(6)-3)))
	}
	return s
}

func affine(r *rand.Rand, n int) (w, b []float64) {
	w, b = make([]float64, n), make([]float64, n)
	for i := range w {
		w[i], b[i] = float64(float32(1+0.1*r.NormFloat64())), float64(float32(0.1*r.NormFloat64()))
	}
	return w, b
}

func TestLayerNormRowMatchesGo(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{1, 7, 16, 17, 33, 256, 1000} {
		for _, off := range []int{0, 1, 3} {
			t.Run(fmt.Sprintf("n=%d/off=%d", n, off), func(t *testing.T) {
				x := rowInput(r, n, off, 3)
				w, b := affine(r, n)
				out, guards := output(t, n, (off+1)%4)
				xhat, guards2 := output(t, n, (off+2)%4)
				wout, wxhat := make([]float32, n), make([]float32, n)
				rs := LayerNormRow(out, xhat, x, w, b, 1e-5)
				wrs := lnGo(wout, wxhat, x, w, b, 1e-5)
				if rs != wrs {
					t.Fatalf("rstd = %v; the Go loops give %v", rs, wrs)
				}
				compare(t, "out", out, wout)
				compare(t, "xhat", xhat, wxhat)
				guards("out")
				guards2("xhat")

				g := rowInput(r, n, (off+3)%4, 0)
				bw, bb := make([]float64, n), make([]float64, n)
				for i := range bw {
					bw[i], bb[i] = float64(i), -float64(i) // sums from earlier rows
				}
				wbw, wbb := append([]float64(nil), bw...), append([]float64(nil), bb...)
				gx, guards3 := output(t, n, off)
				wgx := make([]float32, n)
				LayerNormGradRow(gx, g, xhat, w, bw, bb, rs)
				lnGradGo(wgx, g, xhat, w, wbw, wbb, rs)
				compare(t, "gx", gx, wgx)
				guards3("gx")
				for i := range bw {
					if bw[i] != wbw[i] || bb[i] != wbb[i] {
						t.Fatalf("column sums [%d] = %v, %v; the Go loops give %v, %v", i, bw[i], bb[i], wbw[i], wbb[i])
					}
				}
				bw2, bb2 := make([]float64, n), make([]float64, n)
				wbw2, wbb2 := make([]float64, n), make([]float64, n)
				LayerNormGradRow[float32](nil, g, xhat, w, bw2, bb2, rs) // the column sums only
				lnGradSumsGeneric(g, xhat, w, wbw2, wbb2, 0, 0)
				for i := range bw2 {
					if bw2[i] != wbw2[i] || bb2[i] != wbb2[i] {
						t.Fatalf("sums only: [%d] = %v, %v; want %v, %v", i, bw2[i], bb2[i], wbw2[i], wbb2[i])
					}
				}
			})
		}
	}
}

// TestLayerNormRowValues checks a row against the textbook two-pass
// formula in float64 (a float64 row runs the Go loops).
func TestLayerNormRowValues(t *testing.T) {
	for _, d := range []int{4, 40} {
		x := make([]float64, d)
		for i := range x {
			x[i] = float64(i%4) + 100 // mean 101.5, variance 1.25
		}
		w, b := make([]float64, d), make([]float64, d)
		for i := range w {
			w[i], b[i] = 2, 1
		}
		out, xhat := make([]float64, d), make([]float64, d)
		rs := LayerNormRow(out, xhat, x, w, b, 0)
		if want := 1 / math.Sqrt(1.25); math.Abs(rs-want) > 1e-14 {
			t.Fatalf("d=%d: rstd = %v; want 1/√1.25 = %v", d, rs, want)
		}
		for i, v := range xhat {
			want := (x[i] - 101.5) / math.Sqrt(1.25)
			if math.Abs(v-want) > 1e-14 || math.Abs(out[i]-(2*want+1)) > 1e-14 {
				t.Fatalf("d=%d: xhat[%d], out[%d] = %v, %v; want %v, %v", d, i, i, v, out[i], want, 2*want+1)
			}
		}
		// The gradient of Σ out with w = 2 is zero: Σ over a row of x̂ and
		// of 1 cancel in LayerNorm's backward.
		g, gx, bw, bb := make([]float64, d), make([]float64, d), make([]float64, d), make([]float64, d)
		for i := range g {
			g[i] = 1
		}
		LayerNormGradRow(gx, g, xhat, w, bw, bb, rs)
		for i, v := range gx {
			if math.Abs(v) > 1e-13 || bb[i] != 1 || bw[i] != xhat[i] {
				t.Fatalf("d=%d: gx[%d] = %v, bw = %v, bb = %v; want 0, x̂ = %v, 1", d, i, v, bw[i], bb[i], xhat[i])
			}
		}
	}
}

func TestLayerNormRowLengths(t *testing.T) {
	defer func() {
		msg := fmt.Sprint(recover())
		if !strings.Contains(msg, "LayerNormRow") || !strings.Contains(msg, "4 and 3") {
			t.Errorf("LayerNormRow with a short weight: panic %q; want one naming LayerNormRow and the lengths 4 and 3", msg)
		}
	}()
	LayerNormRow(make([]float32, 4), make([]float32, 4), make([]float32, 4), make([]float64, 3), make([]float64, 4), 1e-5)
}

// TestLayerNormGradSumsLanes checks the vector loops' m1 and m2 bit for
// bit against the Go lanes (the order of the sums, which the gradient
// itself may round away), and their column sums.
func TestLayerNormGradSumsLanes(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{16, 48, 256, 1024} {
		g, xhat := rowInput(r, n, 0, 0), rowInput(r, n, 1, 0)
		w, _ := affine(r, n)
		bw, bb := make([]float64, n), make([]float64, n)
		wbw, wbb := make([]float64, n), make([]float64, n)
		m1, m2, k := lnGradSumsVec(g, xhat, w, bw, bb)
		w1, w2, wk := lnGradSumsLanes(g, xhat, w, wbw, wbb)
		if k != wk || m1 != w1 || m2 != w2 {
			t.Errorf("n=%d: sums of %d elements %v, %v; the Go lanes give %d: %v, %v", n, k, m1, m2, wk, w1, w2)
		}
		for i := range k {
			if bw[i] != wbw[i] || bb[i] != wbb[i] {
				t.Fatalf("n=%d: column sums [%d] = %v, %v; the Go lanes give %v, %v", n, i, bw[i], bb[i], wbw[i], wbb[i])
			}
		}
	}
}
