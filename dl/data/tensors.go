package data

import "github.com/dlbd/dlbd/dl"

// labels returns class indices as an Int64 tensor [n], as PyTorch's
// datasets give them (dl.CrossEntropy takes them).
func labels(y []int) *dl.Tensor {
	f := make([]int64, len(y))
	for i, v := range y {
		f[i] = int64(v)
	}
	return dl.FromSlice(f, len(f))
}

// Spirals returns the spiral classification task (see SpiralsConfig): x is
// Float32 [n, 2] on CPU, y the class indices as Int64 [n].
func Spirals(cfg SpiralsConfig) (x, y *dl.Tensor) {
	xs, ys := spirals(cfg)
	return dl.FromSlice(xs, len(ys), 2), labels(ys)
}

// Blobs returns Gaussian blobs (see BlobsConfig): x is Float32 [n, Dim],
// y the class indices as Int64 [n].
func Blobs(cfg BlobsConfig) (x, y *dl.Tensor) {
	xs, ys := blobs(cfg)
	return dl.FromSlice(xs, len(ys), len(xs)/max(1, len(ys))), labels(ys)
}

// Regression returns noisy linear data (see RegressionConfig): x is Float32
// [N, Dim], y Float32 [N, 1], and the true weights w and bias b.
func Regression(cfg RegressionConfig) (x, y *dl.Tensor, w []float32, b float32) {
	xs, ys, w, b := regression(cfg)
	return dl.FromSlice(xs, len(ys), len(w)), dl.FromSlice(ys, len(ys), 1), w, b
}

// Sample draws n examples: x ~ N(0, I) as Float32 [n, InputDim] and the
// teacher's outputs plus noise as Float32 [n, Outputs]. The inputs depend
// only on seed; use different seeds for the training and test sets.
func (t *Teacher) Sample(n int, seed uint64) (x, y *dl.Tensor) {
	xs, ys := t.sample(n, seed)
	return dl.FromSlice(xs, n, t.dims[0]), dl.FromSlice(ys, n, t.dims[len(t.dims)-1])
}
