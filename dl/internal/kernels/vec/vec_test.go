package vec

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// lengths are the sizes the vector loops must handle: empty, shorter than
// a vector, around one and two vectors, and long with a tail.
var lengths = []int{0, 1, 7, 8, 9, 15, 16, 17, 31, 33, 1023}

const guardLen = 16

// guardBits is a NaN payload no loop produces, written around each output.
const guardBits = 0x7fc0dead

// specials are values every loop must get right, placed at the start of
// each input: signed zeros, infinities, NaNs of both signs, subnormals.
var specials = []uint32{
	0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000,
	0x7f800001, 0x00000001, 0x80000001, 0x007fffff, 0x3f800000, 0xbf800000,
}

// input returns n floats at offset off of a fresh buffer: specials first,
// then random values of both signs over many magnitudes.
func input(r *rand.Rand, n, off int) []float32 {
	s := make([]float32, off+n)[off:]
	for i := range s {
		if i < len(specials) {
			s[i] = math.Float32frombits(specials[i])
			continue
		}
		s[i] = float32(r.NormFloat64() * math.Pow(2, float64(r.IntN(40)-20)))
	}
	return s
}

// output returns n elements at offset off with guard NaNs before and after,
// and a check that the guards survived.
func output(t *testing.T, n, off int) ([]float32, func(name string)) {
	buf := make([]float32, off+n+guardLen)
	for i := range buf {
		buf[i] = math.Float32frombits(guardBits)
	}
	return buf[off : off+n], func(name string) {
		t.Helper()
		for i, v := range buf {
			if (i < off || i >= off+n) && math.Float32bits(v) != guardBits {
				t.Errorf("%s: guard violated at %d (len %d, offset %d): %#08x", name, i-off, n, off, math.Float32bits(v))
			}
		}
	}
}

// same reports whether a and b have equal bits, or are both NaN (the NaN a
// comparison instruction returns need not be the Go loop's).
func same(a, b float32) bool {
	return math.Float32bits(a) == math.Float32bits(b) || (a != a && b != b)
}

func compare(t *testing.T, name string, got, want []float32) {
	t.Helper()
	for i := range want {
		if !same(got[i], want[i]) {
			t.Errorf("%s[%d] = %v (%#08x); want %v (%#08x)", name, i, got[i], math.Float32bits(got[i]), want[i], math.Float32bits(want[i]))
			return
		}
	}
}

// forCases runs fn for every length and offset.
func forCases(t *testing.T, fn func(t *testing.T, r *rand.Rand, n, off int)) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range lengths {
		for _, off := range []int{0, 1, 3} {
			t.Run(fmt.Sprintf("n=%d/off=%d", n, off), func(t *testing.T) { fn(t, r, n, off) })
		}
	}
}

func TestAxpyMatchesGeneric(t *testing.T) {
	forCases(t, func(t *testing.T, r *rand.Rand, n, off int) {
		for _, alpha := range []float32{-0.01, 1, 0, float32(math.Inf(1))} {
			x := input(r, n, off)
			y, guards := output(t, n, (off+1)%4)
			copy(y, input(r, n, 0))
			want := append([]float32(nil), y...)
			axpyGeneric(alpha, x, want)
			Axpy(alpha, x, y)
			compare(t, fmt.Sprintf("Axpy(%v)", alpha), y, want)
			guards("Axpy")
		}
	})
}

func TestAxpyIsSGD(t *testing.T) {
	p, g := []float32{1, 2, 3}, []float32{10, 20, 30}
	Axpy(-0.5, g, p)
	if want := []float32{-4, -8, -12}; fmt.Sprint(p) != fmt.Sprint(want) {
		t.Errorf("Axpy(-0.5, %v, [1 2 3]) = %v; want %v", g, p, want)
	}
}

func TestReLUMatchesGeneric(t *testing.T) {
	forCases(t, func(t *testing.T, r *rand.Rand, n, off int) {
		src := input(r, n, off)
		dst, guards := output(t, n, (off+2)%4)
		want := make([]float32, n)
		reluGeneric(want, src)
		ReLU(dst, src)
		compare(t, "ReLU", dst, want)
		guards("ReLU")
		ReLU(src, src) // in place
		compare(t, "ReLU in place", src, want)
	})
}

func TestReLUValues(t *testing.T) {
	src := []float32{-1, float32(math.Copysign(0, -1)), 2, float32(math.NaN())}
	src = append(src, make([]float32, 16)...) // a vector and a tail
	for _, n := range []int{4, 20} {
		dst := make([]float32, n)
		ReLU(dst, src[:n])
		if math.Float32bits(dst[0]) != 0 || math.Float32bits(dst[1]) != 0 || dst[2] != 2 || dst[3] == dst[3] {
			t.Errorf("ReLU(%v) = %v; want [+0 +0 2 NaN ...]", src[:4], dst[:4])
		}
	}
}

func TestReLUGradMatchesGeneric(t *testing.T) {
	forCases(t, func(t *testing.T, r *rand.Rand, n, off int) {
		g, y := input(r, n, off), input(r, n, (off+1)%4)
		dst, guards := output(t, n, (off+3)%4)
		want := make([]float32, n)
		reluGradGeneric(want, g, y)
		ReLUGrad(dst, g, y)
		for i := range want { // a mask: bits must be equal, NaN payloads too
			if math.Float32bits(dst[i]) != math.Float32bits(want[i]) {
				t.Fatalf("ReLUGrad[%d] = %#08x; want %#08x", i, math.Float32bits(dst[i]), math.Float32bits(want[i]))
			}
		}
		guards("ReLUGrad")
	})
}

func TestAddMatchesGeneric(t *testing.T) {
	forCases(t, func(t *testing.T, r *rand.Rand, n, off int) {
		src := input(r, n, off)
		dst, guards := output(t, n, (off+1)%4)
		copy(dst, input(r, n, 0))
		want := append([]float32(nil), dst...)
		addGeneric(want, want, src)
		other := input(r, n, (off+2)%4)
		want2 := make([]float32, n)
		addGeneric(want2, src, other)
		Add(dst, dst, src) // in place, as for row sums
		compare(t, "Add", dst, want)
		guards("Add")
		out, guards2 := output(t, n, off)
		Add(out, src, other)
		compare(t, "Add(out, a, b)", out, want2)
		guards2("Add")
	})
}

// TestAffineMatchesGeneric checks Affine and Affine2 against their Go
// loops bit for bit (in place too), and a known value.
func TestAffineMatchesGeneric(t *testing.T) {
	forCases(t, func(t *testing.T, r *rand.Rand, n, off int) {
		x, y := input(r, n, off), input(r, n, (off+1)%4)
		want := make([]float32, n)
		affineGeneric(want, x, 1.5, -0.25)
		dst, guards := output(t, n, (off+2)%4)
		Affine(dst, x, 1.5, -0.25)
		compare(t, "Affine", dst, want)
		guards("Affine")
		affine2Generic(want, x, y, 0.75, -2, 0.125)
		dst2, guards2 := output(t, n, off)
		Affine2(dst2, x, y, 0.75, -2, 0.125)
		compare(t, "Affine2", dst2, want)
		guards2("Affine2")
		inPlace := append([]float32(nil), x...)
		Affine2(inPlace, inPlace, y, 0.75, -2, 0.125)
		compare(t, "Affine2 in place", inPlace, want)
	})
	got := make([]float32, 17)
	Affine2(got, make([]float32, 17), make([]float32, 17), 1, 1, 3)
	Affine(got[:16], got[:16], 2, 1)
	if got[0] != 7 || got[16] != 3 {
		t.Fatalf("Affine2 then Affine: %v; want 7 at 0 and 3 at 16", got)
	}
}

func TestLengthMismatchPanics(t *testing.T) {
	for name, fn := range map[string]func(){
		"Axpy":     func() { Axpy(1, make([]float32, 2), make([]float32, 3)) },
		"ReLU":     func() { ReLU(make([]float32, 2), make([]float32, 3)) },
		"ReLUGrad": func() { ReLUGrad(make([]float32, 2), make([]float32, 2), make([]float32, 3)) },
		"Add":      func() { Add(make([]float32, 2), make([]float32, 2), make([]float32, 3)) },
	} {
		func() {
			defer func() {
				want := "vec: " + name + ": slice lengths"
				if msg := fmt.Sprint(recover()); len(msg) < len(want) || msg[:len(want)] != want {
					t.Errorf("%s with unequal lengths panicked with %q; want prefix %q", name, msg, want)
				}
			}()
			fn()
		}()
	}
}

func TestMax(t *testing.T) {
	forCases(t, func(t *testing.T, r *rand.Rand, n, off int) {
		x := make([]float32, off+n)[off:]
		for i := range x {
			x[i] = float32(r.NormFloat64() * 100)
		}
		want := float32(math.Inf(-1))
		for _, v := range x {
			want = max(want, v)
		}
		if got := Max(x); got != want {
			t.Errorf("Max(%d values) = %v; want %v", n, got, want)
		}
		for _, at := range []int{0, n / 2, n - 1} {
			if n == 0 {
				break
			}
			y := append([]float32(nil), x...)
			y[at] = float32(math.NaN())
			if got := Max(y); got == got {
				t.Errorf("Max with NaN at %d of %d = %v; want NaN", at, n, got)
			}
		}
	})
	if got := Max([]float32{float32(math.Inf(-1)), -3}); got != -3 {
		t.Errorf("Max(-Inf, -3) = %v; want -3", got)
	}
}
