package data

import (
	"slices"
	"testing"
)

// TestExplicitZeroConfig: Std, Box and Gain take an explicit 0 (nil is
// the default), which a float64 field whose 0 meant the default could not
// say.
func TestExplicitZeroConfig(t *testing.T) {
	x, _ := blobs(BlobsConfig{Classes: 2, PerClass: 3, Std: new(0.0), Seed: 1})
	if !slices.Equal(x[0:2], x[2:4]) || !slices.Equal(x[2:4], x[4:6]) {
		t.Errorf("blobs with Std 0: class 0 points %v; want all on the centre", x[:6])
	}
	x, _ = blobs(BlobsConfig{Classes: 2, PerClass: 1, Box: new(0.0), Std: new(0.0)})
	if !slices.Equal(x, []float32{0, 0, 0, 0}) {
		t.Errorf("blobs with Box 0 and Std 0 = %v; want every point at the origin", x)
	}
	if d, _ := blobs(BlobsConfig{Seed: 1}); slices.Equal(d[0:2], d[2:4]) {
		t.Error("blobs with the default Std put two points on one spot")
	}
	flat := NewTeacher(TeacherConfig{Gain: new(0.0), Seed: 2})
	a, b := flat.Eval([]float64{1, 2, 3, 4}), flat.Eval([]float64{-4, 0, 9, 1})
	if !slices.Equal(a, b) {
		t.Errorf("a teacher with Gain 0 gave %v and %v; want the same output for every input (biases only)", a, b)
	}
}
