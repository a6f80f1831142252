package vec

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

func TestDot64AndSoftmaxGradMatchGo(t *testing.T) {
	forCases(t, func(t *testing.T, r *rand.Rand, n, off int) {
		a, b := input(r, n, off), input(r, n, (off+1)%4)
		s, k := dotGeneric(a, b)
		for i, v := range a[k:] {
			s += float64(v) * float64(b[k+i])
		}
		if got := Dot64(a, b); math.Float64bits(got) != math.Float64bits(s) && !(got != got && s != s) {
			t.Fatalf("Dot64 = %v; the Go loop gives %v", got, s)
		}
		p := input(r, n, (off+2)%4)
		dst, guards := output(t, n, (off+3)%4)
		copy(dst, input(r, n, 0))
		want := append([]float32(nil), dst...)
		softmaxGradGeneric(want, p, 0.37, 0.125)
		SoftmaxGrad(dst, p, 0.37, 0.125)
		compare(t, "SoftmaxGrad", dst, want)
		guards("SoftmaxGrad")
	})
}

// TestSoftmaxGradValues: for P = softmax of a row and dP = dY·V with one
// output (D = Σ dY·Y), dS sums to zero: the softmax's Jacobian kills
// constants.
func TestSoftmaxGradValues(t *testing.T) {
	for _, n := range []int{5, 37} {
		p, dp := make([]float32, n), make([]float32, n)
		var z float64
		for i := range p {
			p[i] = float32(math.Exp(float64(i%7) / 3))
			z += float64(p[i])
		}
		var d float64
		for i := range p {
			p[i] = float32(float64(p[i]) / z)
			dp[i] = float32(i%5) - 2
			d += float64(p[i]) * float64(dp[i]) // D = Σ P·dP
		}
		SoftmaxGrad(dp, p, d, 1)
		var s float64
		for _, v := range dp {
			s += float64(v)
		}
		if math.Abs(s) > 1e-6 {
			t.Fatalf("n=%d: Σ dS = %v; want 0", n, s)
		}
		if got := Dot64(p, p[:n]); got <= 0 {
			t.Fatalf("Dot64(p, p) = %v; want > 0", got)
		}
	}
}

func TestDot64AndSoftmaxGradLengths(t *testing.T) {
	for name, call := range map[string]func(){
		"Dot64":       func() { Dot64(make([]float32, 3), make([]float32, 2)) },
		"SoftmaxGrad": func() { SoftmaxGrad(make([]float32, 3), make([]float32, 2), 0, 1) },
	} {
		func() {
			defer func() {
				if msg := fmt.Sprint(recover()); !strings.Contains(msg, name) || !strings.Contains(msg, "3 and 2") {
					t.Errorf("%s with slices of 3 and 2: panic %q; want one naming it and the lengths", name, msg)
				}
			}()
			call()
		}()
	}
}
