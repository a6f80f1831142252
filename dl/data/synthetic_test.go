package data

import (
	"math"
	"testing"
)

func TestSpirals(t *testing.T) {
	x, y := spirals(SpiralsConfig{Classes: 3, PerClass: 5})
	if len(x) != 30 || len(y) != 15 {
		t.Fatalf("spirals(3×5) gave %d coordinates and %d labels; want 30 and 15", len(x), len(y))
	}
	// No noise: arm k, point i has r = i/4 and θ = 2πk/3 + 4r.
	for i := range y {
		cls, j := i/5, i%5
		r := float64(j) / 4
		th := 2*math.Pi*float64(cls)/3 + 4*r
		if y[i] != cls || math.Abs(float64(x[2*i])-r*math.Sin(th)) > 1e-6 || math.Abs(float64(x[2*i+1])-r*math.Cos(th)) > 1e-6 {
			t.Errorf("point %d = (%v, %v) class %d; want (%v, %v) class %d", i, x[2*i], x[2*i+1], y[i], r*math.Sin(th), r*math.Cos(th), cls)
		}
	}
	a, _ := spirals(SpiralsConfig{Noise: 0.2, Seed: 1})
	b, _ := spirals(SpiralsConfig{Noise: 0.2, Seed: 1})
	c, _ := spirals(SpiralsConfig{Noise: 0.2, Seed: 2})
	if len(a) != 600 || !equal(a, b) || equal(a, c) {
		t.Errorf("spirals default size %d (want 600); same seed equal: %v; different seed equal: %v", len(a), equal(a, b), equal(a, c))
	}
}

func TestBlobs(t *testing.T) {
	x, y := blobs(BlobsConfig{Classes: 2, PerClass: 4000, Dim: 3, Std: new(0.5), Seed: 3})
	for cls := range 2 {
		var mean, sq [3]float64
		for i := range y {
			if y[i] != cls {
				continue
			}
			for j := range 3 {
				mean[j] += float64(x[3*i+j]) / 4000
			}
		}
		for i := range y {
			if y[i] == cls {
				for j := range 3 {
					d := float64(x[3*i+j]) - mean[j]
					sq[j] += d * d / 4000
				}
			}
		}
		for j := range 3 {
			if math.Abs(mean[j]) > 10 || math.Abs(math.Sqrt(sq[j])-0.5) > 0.03 {
				t.Errorf("blob %d axis %d: centre %v (want within ±10), std %v (want 0.5)", cls, j, mean[j], math.Sqrt(sq[j]))
			}
		}
	}
}

func TestRegression(t *testing.T) {
	x, y, w, b := regression(RegressionConfig{N: 50, Dim: 3, Seed: 4})
	for i := range 50 {
		s := float64(b)
		for j := range 3 {
			s += float64(x[3*i+j]) * float64(w[j])
		}
		if math.Abs(s-float64(y[i])) > 1e-5 {
			t.Fatalf("noiseless y[%d] = %v; want x·w + b = %v", i, y[i], s)
		}
	}
	_, yn, _, _ := regression(RegressionConfig{N: 20000, Dim: 3, Seed: 4, Noise: 0.3})
	_, y2, _, _ := regression(RegressionConfig{N: 20000, Dim: 3, Seed: 4})
	var v float64
	for i := range yn {
		d := float64(yn[i] - y2[i])
		v += d * d / float64(len(yn))
	}
	if math.Abs(math.Sqrt(v)-0.3) > 0.01 {
		t.Errorf("noise std = %v; want 0.3 (and the same x for the same seed)", math.Sqrt(v))
	}
}

func TestTeacher(t *testing.T) {
	tc := NewTeacher(TeacherConfig{Seed: 5})
	if c := tc.Config(); c.InputDim != 4 || c.Outputs != 1 || c.Gain == nil || *c.Gain != 2 || len(c.Hidden) != 2 {
		t.Errorf("defaults = %+v", c)
	}
	if n := tc.NumParams(); n != 4*64+64+64*64+64+64+1 {
		t.Errorf("NumParams = %d; want %d", n, 4*64+64+64*64+64+64+1)
	}
	// A one-layer teacher is a linear map we can check by hand.
	lin := NewTeacher(TeacherConfig{InputDim: 2, Hidden: []int{}, Seed: 6})
	o0, ox, oy := lin.Eval([]float64{0, 0})[0], lin.Eval([]float64{1, 0})[0], lin.Eval([]float64{0, 1})[0]
	if got := lin.Eval([]float64{2, -3})[0]; math.Abs(got-(o0+2*(ox-o0)-3*(oy-o0))) > 1e-12 {
		t.Errorf("linear teacher is not linear: %v", got)
	}
	x, y := tc.sample(3, 11)
	if len(x) != 12 || len(y) != 3 {
		t.Fatalf("sample(3) sizes %d, %d", len(x), len(y))
	}
	want := tc.Eval([]float64{float64(x[4]), float64(x[5]), float64(x[6]), float64(x[7])})[0]
	if math.Abs(float64(y[1])-want) > 1e-5 {
		t.Errorf("target %v; want teacher output %v", y[1], want)
	}
	if other := NewTeacher(TeacherConfig{Seed: 7}); other.Eval([]float64{1, 1, 1, 1})[0] == tc.Eval([]float64{1, 1, 1, 1})[0] {
		t.Error("teachers of different seeds agree")
	}
	// Not trivially flat: outputs vary across inputs.
	_, ys := tc.sample(1000, 12)
	var m, v float64
	for _, t := range ys {
		m += float64(t) / 1000
	}
	for _, t := range ys {
		v += (float64(t) - m) * (float64(t) - m) / 1000
	}
	if v < 0.1 {
		t.Errorf("teacher target variance %v; want a non-trivial function", v)
	}
}

func equal(a, b []float32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
