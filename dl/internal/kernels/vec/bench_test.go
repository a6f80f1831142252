package vec

import (
	"fmt"
	"testing"
)

// BenchmarkVec times each loop, generic and dispatched (AVX-512 where the
// CPU has it), on the MLP step's sizes: a 256x1024 activation and the
// 1.86M parameters of the 784-1024-1024-10 MLP.
func BenchmarkVec(b *testing.B) {
	impls := []struct {
		name          string
		axpy          func(float32, []float32, []float32)
		relu          func([]float32, []float32)
		add, reluGrad func([]float32, []float32, []float32)
	}{
		{"generic", axpyGeneric, reluGeneric, addGeneric, reluGradGeneric},
		{"auto", Axpy, ReLU, Add, ReLUGrad},
	}
	for _, n := range []int{256 * 1024, 1863690} {
		x, y, z := make([]float32, n), make([]float32, n), make([]float32, n)
		for i := range x {
			x[i], y[i] = float32(i%7)-3, float32(i%5)-2
		}
		for _, im := range impls {
			run := func(op string, bytes int, fn func()) {
				b.Run(fmt.Sprintf("op=%s/impl=%s/n=%d", op, im.name, n), func(b *testing.B) {
					b.SetBytes(int64(bytes * n))
					for b.Loop() {
						fn()
					}
				})
			}
			run("axpy", 12, func() { im.axpy(1e-9, x, y) })
			run("relu", 8, func() { im.relu(z, x) })
			run("relugrad", 12, func() { im.reluGrad(z, x, y) })
			run("add", 12, func() { im.add(z, x, y) })
		}
	}
}

// BenchmarkAdam times one AdamW step of the 3.3M parameters of dl/nn's
// d=256 Transformer benchmark, the Go loop against the dispatched one.
func BenchmarkAdam(b *testing.B) {
	const n = 3300000
	p, g, m, v := make([]float32, n), make([]float32, n), make([]float32, n), make([]float32, n)
	for i := range p {
		p[i], g[i] = float32(i%7)-3, float32(i%5)-2
	}
	c := adamStep(adamModes[0].c, 10)
	for _, im := range []struct {
		name string
		fn   func()
	}{
		{"generic", func() { adamGeneric(p, g, m, v, &c) }},
		{"auto", func() { Adam(p, g, m, v, c) }},
	} {
		b.Run("impl="+im.name, func(b *testing.B) {
			b.SetBytes(28 * n) // p, m, v read and written, g read
			for b.Loop() {
				im.fn()
			}
		})
	}
}

// BenchmarkTaps times TapRows and TapDots on one plane of the depthwise
// convolution of BenchmarkConv2d (28x28 outputs, a 3x3 filter, the input
// padded to 30x30), generic and dispatched, the plane in cache: the
// kernels' own speed, without the memory traffic of a whole layer.
func BenchmarkTaps(b *testing.B) {
	const h, w, wp = 28, 28, 30
	x, y, g := make([]float32, wp*wp), make([]float32, h*w), make([]float32, h*w)
	for i := range x {
		x[i] = float32(i%7) - 3
	}
	for i := range g {
		g[i] = float32(i%5) - 2
	}
	wk := []float32{1, -2, 3, -4, 5, -6, 7, -8, 9}
	var offs []int
	for i := range 3 {
		for j := range 3 {
			offs = append(offs, i*wp+j)
		}
	}
	acc := make([]float64, len(offs))
	flops := int64(2 * h * w * len(offs))
	for _, im := range []struct {
		name       string
		rows, dots func()
	}{
		{"generic", func() { tapRowsGo(y, w, x, wp, h, w, offs, wk) }, func() { tapDotsGo(acc, g, w, x, wp, h, w, offs) }},
		{"auto", func() { TapRows(y, w, x, wp, h, w, offs, wk) }, func() { TapDots(acc, g, w, x, wp, h, w, offs) }},
	} {
		for _, op := range []struct {
			name string
			fn   func()
		}{{"rows", im.rows}, {"dots", im.dots}} {
			b.Run("op="+op.name+"/impl="+im.name, func(b *testing.B) {
				for b.Loop() {
					op.fn()
				}
				b.ReportMetric(float64(flops*int64(b.N))/b.Elapsed().Seconds()/1e9, "GFLOP/s")
			})
		}
	}
}
