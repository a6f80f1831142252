package dl

import (
	"math"
	"testing"
)

// TestElementwiseThreadsAgree: the elementwise ops, casts and scalar ops
// that large tensors split over goroutines give the same bits on 1 and 3
// threads (pieces of f32.ForRange), on a length of over 3 pieces' grains
// that is not a multiple of their alignment.
func TestElementwiseThreadsAgree(t *testing.T) {
	const n = 3*32768 + 1001
	g := NewGenerator(5)
	x := Options{Generator: g}.Randn(n)
	y := Options{Generator: g}.Randn(n)
	rows := x.Narrow(0, 0, 99*1001).Reshape(99, 1001) // over 3 grains, in 3 pieces of columns
	ops := map[string]func() *Tensor{
		"GELU":             func() *Tensor { return x.GELU() },
		"Exp":              func() *Tensor { return x.Exp() },
		"Add":              func() *Tensor { return x.Add(y) },
		"Mul":              func() *Tensor { return x.Mul(y) },
		"MulScalar":        func() *Tensor { return x.MulScalar(0.3) },
		"AsType(BFloat16)": func() *Tensor { return x.AsType(BFloat16).AsType(Float32) },
		"AsType(Float16)":  func() *Tensor { return x.AsType(Float16).AsType(Float32) },
		"AsType(Float64)":  func() *Tensor { return x.AsType(Float64).AsType(Float32) },
		"Float64 Tanh":     func() *Tensor { return x.AsType(Float64).Tanh().AsType(Float32) },
		// sums of rows: the columns split over the threads (columnPieces)
		"Sum(0)":            func() *Tensor { return rows.Sum(0) },
		"Float64 Sum(0)":    func() *Tensor { return rows.AsType(Float64).Sum(0).AsType(Float32) },
		"BFloat16 Sum(0)":   func() *Tensor { return rows.AsType(BFloat16).Sum(0).AsType(Float32) },
		"Sum(1) of [3,·,·]": func() *Tensor { return rows.Reshape(3, 33, 1001).Sum(1) },
	}
	for name, op := range ops {
		prev := SetNumThreads(1)
		one := op().Float32Data()
		SetNumThreads(3)
		three := op().Float32Data()
		SetNumThreads(prev)
		for i := range one {
			if math.Float32bits(one[i]) != math.Float32bits(three[i]) {
				t.Fatalf("%s: element %d is %v on 1 thread, %v on 3", name, i, one[i], three[i])
			}
		}
	}
}
