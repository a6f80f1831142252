package vec

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// ulps returns the distance between a and b in float64 units in the last
// place (both finite and of the same sign).
func ulps(a, b float64) float64 {
	return math.Abs(float64(int64(math.Float64bits(a)) - int64(math.Float64bits(b))))
}

// TestExp64 compares exp64 with math.Exp on a dense grid of [−707, 709.78]
// and on random points: at most 2 ulp, as exp.go states.  (On amd64
// math.Exp returns +Inf above ~709.43, below the true overflow at 709.78;
// there the reference is exp(d−1)·e, itself within 1.5 ulp.)
func TestExp64(t *testing.T) {
	worst, at := 0.0, 0.0
	try := func(d float64) {
		ref, slack := math.Exp(d), 0.0
		if d > 709 {
			ref, slack = math.Exp(d-1)*math.E, 1.5
		}
		if u := ulps(exp64(d), ref) - slack; u > worst {
			worst, at = u, d
		}
	}
	const n = 2_000_000
	for i := 0; i <= n; i++ {
		try(expUnder + (expOver-expUnder)*float64(i)/n)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 200_000 {
		try(r.Float64()*2 - 1) // where softmax's inputs mostly are
		try(-r.ExpFloat64() * 20)
	}
	t.Logf("max error %v ulp at d = %v", worst, at)
	if worst > 2 {
		t.Errorf("exp64 is %v ulp from math.Exp at d = %v; want <= 2", worst, at)
	}
}

func TestExp64Specials(t *testing.T) {
	for _, c := range []struct{ d, want float64 }{
		{0, 1}, {math.Copysign(0, -1), 1}, {1, math.E}, {-707.5, 0}, {-1000, 0}, {math.Inf(-1), 0},
		{709.79, math.Inf(1)}, {math.Inf(1), math.Inf(1)},
	} {
		if got := exp64(c.d); got != c.want && ulps(got, c.want) > 1 {
			t.Errorf("exp64(%v) = %v; want %v", c.d, got, c.want)
		}
	}
	if got := exp64(math.NaN()); got == got {
		t.Errorf("exp64(NaN) = %v; want NaN", got)
	}
	if got := exp64(-706.9); got == 0 || got > 1e-306 {
		t.Errorf("exp64(-706.9) = %v; want a normal value near 1.1e-307", got)
	}
}

var expLengths = []int{0, 1, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 1023, 8192}

// logits returns n float32 values like a row of logits, with specials
// (−Inf, a NaN) when asked.
func logits(r *rand.Rand, n, off int, specials bool) []float32 {
	x := make([]float32, off+n)[off:]
	for i := range x {
		x[i] = float32(r.NormFloat64() * 3)
	}
	if specials && n > 3 {
		x[n/3] = float32(math.Inf(-1))
		x[n/2] = -1e30
	}
	return x
}

// TestExpSumMatchesGeneric checks the vector sum against expSumGeneric
// bit for bit, and the whole of ExpSum against a float64 sum of math.Exp.
func TestExpSumMatchesGeneric(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, n := range expLengths {
		for _, off := range []int{0, 1, 5} {
			x := logits(r, n, off, true)
			shift := 2.5
			m := n &^ 31
			if got, want := expSumVec(x[:m], shift), expSumGeneric(x[:m], shift); math.Float64bits(got) != math.Float64bits(want) {
				t.Errorf("n=%d off=%d: vector sum %v; generic %v", n, off, got, want)
			}
			var ref float64
			for _, v := range x {
				ref += math.Exp(float64(v) - shift)
			}
			if got := ExpSum(x, shift); math.Abs(got-ref) > 1e-14*ref {
				t.Errorf("ExpSum(n=%d) = %v; want %v (math.Exp)", n, got, ref)
			}
		}
	}
	x := logits(r, 100, 0, false)
	x[70] = float32(math.NaN())
	if got := ExpSum(x, 0); got == got {
		t.Errorf("ExpSum with a NaN = %v; want NaN", got)
	}
	x[70], x[3] = 0, float32(math.NaN()) // in the vector part
	if got := ExpSum(x, 0); got == got {
		t.Errorf("ExpSum with a NaN in the vector part = %v; want NaN", got)
	}
}

// TestExpScaleMatchesGeneric checks ExpScale against expScaleGeneric bit
// for bit (guards around dst) and against float32(scale·math.Exp): at
// most 1 float32 ulp.
func TestExpScaleMatchesGeneric(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, n := range expLengths {
		for _, off := range []int{0, 3} {
			t.Run(fmt.Sprintf("n=%d/off=%d", n, off), func(t *testing.T) {
				x := logits(r, n, off, true)
				dst, guards := output(t, n, (off+1)%4)
				const shift, scale = 7.25, 1.0 / 256
				ExpScale(dst, x, shift, scale)
				want := make([]float32, n)
				expScaleGeneric(want, x, shift, scale)
				compare(t, "ExpScale", dst, want)
				guards("ExpScale")
				for i, v := range x {
					ref := float32(scale * math.Exp(float64(v)-shift))
					if d := math.Abs(float64(int32(math.Float32bits(dst[i])) - int32(math.Float32bits(ref)))); d > 1 {
						t.Fatalf("ExpScale[%d] (x=%v) = %v; want %v (float32 of math.Exp) within 1 ulp", i, v, dst[i], ref)
					}
				}
			})
		}
	}
}
