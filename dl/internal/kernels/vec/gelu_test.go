package vec

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// ulps32 returns the distance between a and b in float32 units in the
// last place (through their ordered bit patterns, so across zero too).
func ulps32(a, b float32) float64 {
	key := func(x float32) int64 {
		u := int64(math.Float32bits(x))
		if u&(1<<31) != 0 {
			return -(u &^ (1 << 31))
		}
		return u
	}
	return math.Abs(float64(key(a) - key(b)))
}

// nearSame reports whether a and b are equal (both NaN included) or 1
// ulp apart: the double rounding of fma32 (see gelu.go).
func nearSame(a, b float32) bool { return same(a, b) || ulps32(a, b) <= 1 }

// skipWithoutGELUAssembly skips tests of the assembly against its Go
// reference where GELU runs the float64 loops instead.
func skipWithoutGELUAssembly(t *testing.T) {
	if !geluAssembly() {
		t.Skip("no assembly here: GELU and GELUGrad run geluFloat64 and geluGradFloat64 (TestGELUAccuracy checks them)")
	}
}

func TestGELUMatchesGeneric(t *testing.T) {
	skipWithoutGELUAssembly(t)
	forCases(t, func(t *testing.T, r *rand.Rand, n, off int) {
		src := input(r, n, off)
		dst, guards := output(t, n, (off+1)%4)
		want := make([]float32, n)
		geluGeneric(want, src)
		GELU(dst, src)
		for i := range want {
			if !nearSame(dst[i], want[i]) {
				t.Fatalf("GELU(%v) = %v; the Go loop gives %v", src[i], dst[i], want[i])
			}
		}
		guards("GELU")
		GELU(src, src) // in place
		for i := range want {
			if !nearSame(src[i], want[i]) {
				t.Fatalf("GELU in place [%d] = %v; want %v", i, src[i], want[i])
			}
		}
	})
}

func TestGELUGradMatchesGeneric(t *testing.T) {
	skipWithoutGELUAssembly(t)
	forCases(t, func(t *testing.T, r *rand.Rand, n, off int) {
		g, x := input(r, n, off), input(r, n, (off+2)%4)
		dst, guards := output(t, n, (off+3)%4)
		want := make([]float32, n)
		geluGradGeneric(want, g, x)
		GELUGrad(dst, g, x)
		for i := range want {
			if !nearSame(dst[i], want[i]) {
				t.Fatalf("GELUGrad(%v, %v) = %v; the Go loop gives %v", g[i], x[i], dst[i], want[i])
			}
		}
		guards("GELUGrad")
		GELUGrad(g, g, x) // in place
		for i := range want {
			if !nearSame(g[i], want[i]) {
				t.Fatalf("GELUGrad in place [%d] = %v; want %v", i, g[i], want[i])
			}
		}
	})
}

// TestGELUAccuracy compares the loops with the float64 formulas
// x/2·(1 + erf(x/√2)) and Φ(x) + x·φ(x) (Φ through math.Erfc, so its
// tails are exact) on a dense grid of [−16, 16] and on random points of
// many magnitudes: at most 8 ulp for GELU (6.7 measured, at x = −3.65),
// and for its derivative, whose terms Φ(x) and x·φ(x) cancel near
// x = −0.75, at most 8 ulp of the larger term (6.1 measured); an ulp is at least 2⁻¹⁴⁰ (in the far negative tail the
// results are subnormal, and a few subnormal ulps are the best float32
// intermediates give).
func TestGELUAccuracy(t *testing.T) {
	phi := func(x float64) float64 { return 0.5 * math.Erfc(-x/math.Sqrt2) }
	ref := func(x float64) float64 { return x * phi(x) }
	refGrad := func(x float64) float64 { return phi(x) + x*math.Exp(-x*x/2)/math.Sqrt(2*math.Pi) }
	var xs []float32
	for i := -1600000; i <= 1600000; i++ {
		xs = append(xs, float32(i)/100000)
	}
	r := rand.New(rand.NewPCG(3, 4))
	for range 200000 {
		xs = append(xs, float32(r.NormFloat64()*math.Pow(2, float64(r.IntN(30)-20))))
	}
	ys, gs := make([]float32, len(xs)), make([]float32, len(xs))
	ones := make([]float32, len(xs))
	for i := range ones {
		ones[i] = 1
	}
	GELU(ys, xs)
	GELUGrad(gs, ones, xs)
	scaleGrad := func(x float64) float64 { return math.Max(phi(x), math.Abs(x*math.Exp(-x*x/2)/math.Sqrt(2*math.Pi))) }
	for _, c := range []struct {
		name  string
		got   []float32
		ref   func(float64) float64
		scale func(float64) float64 // the magnitude an ulp is taken of
	}{{"GELU", ys, ref, func(x float64) float64 { return math.Abs(ref(x)) }}, {"GELUGrad", gs, refGrad, scaleGrad}} {
		const limit = 8
		worst, at := 0.0, float32(0)
		for i, x := range xs {
			want, scale := c.ref(float64(x)), c.scale(float64(x))
			_, e := math.Frexp(scale)
			unit := math.Max(math.Ldexp(1, e-24), 0x1p-140) // an ulp, or 2⁻¹⁴⁰ near and in the subnormal range
			if u := math.Abs(float64(c.got[i])-want) / unit; u > worst {
				worst, at = u, x
			}
		}
		t.Logf("%s: max error %v ulp at x = %v", c.name, worst, at)
		if worst > limit {
			t.Errorf("%s is %v ulp from the float64 formula at x = %v; want <= %v", c.name, worst, at, limit)
		}
	}
}

func TestGELUSpecials(t *testing.T) {
	inf, nan := float32(math.Inf(1)), float32(math.NaN())
	for _, n := range []int{5, 21} { // the Go loop, and a vector plus a tail
		x := make([]float32, n)
		copy(x, []float32{0, inf, -inf, nan, float32(math.Copysign(0, -1))})
		y, d := make([]float32, n), make([]float32, n)
		GELU(y, x)
		GELUGrad(d, onesLike(x), x)
		if y[0] != 0 || y[1] != inf || y[2] == y[2] || y[3] == y[3] || math.Float32bits(y[4]) != 0x80000000 {
			t.Errorf("GELU(0, +Inf, -Inf, NaN, -0) = %v; want [0 +Inf NaN NaN -0] (as x/2·(1+erf(x/√2)))", y[:5])
		}
		if d[0] != 0.5 || d[1] == d[1] || d[2] == d[2] || d[3] == d[3] {
			t.Errorf("GELU'(0, +Inf, -Inf, NaN) = %v; want [0.5 NaN NaN NaN] (Inf·0 in Φ(x) + x·φ(x))", d[:4])
		}
	}
}

func onesLike(x []float32) []float32 {
	o := make([]float32, len(x))
	for i := range o {
		o[i] = 1
	}
	return o
}

func BenchmarkGELU(b *testing.B) {
	const n = 8 * 128 * 1024 // [B·T, 4d] of the d=256 Transformer benchmark
	x, g, y := make([]float32, n), make([]float32, n), make([]float32, n)
	r := rand.New(rand.NewPCG(5, 6))
	for i := range x {
		x[i], g[i] = float32(r.NormFloat64()), float32(r.NormFloat64())
	}
	for _, im := range []struct {
		name string
		fwd  func(dst, src []float32)
		grad func(dst, g, x []float32)
	}{{"generic", geluGeneric, geluGradGeneric}, {"auto", GELU, GELUGrad}} {
		b.Run(fmt.Sprintf("op=gelu/impl=%s/n=%d", im.name, n), func(b *testing.B) {
			b.SetBytes(8 * n)
			for b.Loop() {
				im.fwd(y, x)
			}
		})
		b.Run(fmt.Sprintf("op=gelugrad/impl=%s/n=%d", im.name, n), func(b *testing.B) {
			b.SetBytes(12 * n)
			for b.Loop() {
				im.grad(y, g, x)
			}
		})
	}
}
