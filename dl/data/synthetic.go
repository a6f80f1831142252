package data

import "math"

// SpiralsConfig configures Spirals; the zero value is 3 arms of 100 points
// without noise.
type SpiralsConfig struct {
	Classes  int     // number of arms (classes); default 3
	PerClass int     // points per arm; default 100
	Noise    float64 // standard deviation of the angle noise, in radians; default 0 (CS231n uses 0.2)
	Seed     uint64  // seed of the noise; default 0
}

// spirals returns the points (row-major, n×2) and labels of the spiral
// classification task of Stanford's CS231n notes: arm k has radius
// r = i/(PerClass−1) and angle 2πk/Classes + 4r (+ noise), for i in
// 0..PerClass−1; the point is (r·sin θ, r·cos θ). Points are grouped by
// class; a shuffling DataLoader mixes them.
func spirals(c SpiralsConfig) (x []float32, y []int) {
	k, per := or(c.Classes, 3), or(c.PerClass, 100)
	r := newRNG(c.Seed, streamData)
	for cls := range k {
		for i := range per {
			rad := 0.0
			if per > 1 {
				rad = float64(i) / float64(per-1)
			}
			theta := 2*math.Pi*float64(cls)/float64(k) + 4*rad + c.Noise*r.normal()
			x = append(x, float32(rad*math.Sin(theta)), float32(rad*math.Cos(theta)))
			y = append(y, cls)
		}
	}
	return x, y
}

// BlobsConfig configures Blobs; the zero value is sklearn's make_blobs
// defaults for 3 centres: 2-D, unit standard deviation, centres drawn
// uniformly in [−10, 10]ᵈ.  Std and Box are pointers because 0 is a
// meaningful value there (points on their centres, centres at the origin):
// nil means the default, new(0.0) zero.
type BlobsConfig struct {
	Classes  int      // number of blobs (classes); default 3
	PerClass int      // points per blob; default 100
	Dim      int      // dimension; default 2
	Std      *float64 // standard deviation of each blob (sklearn cluster_std); nil: 1
	Box      *float64 // centres lie in [−Box, Box]ᵈ (sklearn center_box); nil: 10
	Seed     uint64   // seed; default 0
}

// blobs returns Gaussian blobs (row-major, n×Dim) and their labels.
func blobs(c BlobsConfig) (x []float32, y []int) {
	k, per, d := or(c.Classes, 3), or(c.PerClass, 100), or(c.Dim, 2)
	std, box := valueOr(c.Std, 1), valueOr(c.Box, 10)
	r := newRNG(c.Seed, streamData)
	centers := make([]float64, k*d)
	for i := range centers {
		centers[i] = box * (2*r.uniform() - 1)
	}
	for cls := range k {
		for range per {
			for j := range d {
				x = append(x, float32(centers[cls*d+j]+std*r.normal()))
			}
			y = append(y, cls)
		}
	}
	return x, y
}

// RegressionConfig configures Regression; the zero value is 100 points of a
// 1-D noiseless linear function.
type RegressionConfig struct {
	N     int     // number of points; default 100
	Dim   int     // input dimension; default 1
	Noise float64 // standard deviation of the Gaussian noise added to y; default 0
	Seed  uint64  // seed; default 0
}

// regression returns x ~ N(0, I) (n×Dim), y = x·w + b + Noise·ε, and the
// true w (w_j, b ~ N(0, 1)), so a student can compare the fit with the truth.
func regression(c RegressionConfig) (x, y, w []float32, b float32) {
	n, d := or(c.N, 100), or(c.Dim, 1)
	r := newRNG(c.Seed, streamData)
	noise := newRNG(c.Seed, streamNoise)
	wf := make([]float64, d)
	for j := range wf {
		wf[j] = r.normal()
		w = append(w, float32(wf[j]))
	}
	bf := r.normal()
	for range n {
		s := bf
		for j := range d {
			v := r.normal()
			x = append(x, float32(v))
			s += v * wf[j]
		}
		y = append(y, float32(s+c.Noise*noise.normal()))
	}
	return x, y, w, float32(bf)
}

func or(v, def int) int {
	if v == 0 {
		return def
	}
	return v
}

// valueOr returns *p, or def if p is nil.
func valueOr(p *float64, def float64) float64 {
	if p == nil {
		return def
	}
	return *p
}
