package dl

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestConvPoolBatchNormGenericPath runs the composed path that devices
// without host memory take (index-based im2col, MatMul, Max/Sum; BatchNorm
// from elementwise ops) on the CPU and compares it with the host kernels,
// forward and backward, so that the CUDA route is checked without a GPU.
func TestConvPoolBatchNormGenericPath(t *testing.T) {
	type result [][]float64
	ops := []struct {
		name  string
		shape []int // of x
		f     func(x, w, b *Tensor) *Tensor
	}{
		{"Conv2d", []int{2, 4, 7, 6}, func(x, w, b *Tensor) *Tensor {
			return Conv2d(x, w, b, Conv2dOptions{Stride: [2]int{2, 1}, Padding: [2]int{1, 2}, Dilation: [2]int{1, 2}, Groups: 2})
		}},
		{"Conv2d/depthwise", []int{2, 4, 5, 5}, func(x, w, b *Tensor) *Tensor {
			return Conv2d(x, w.Narrow(1, 0, 1), b, Conv2dOptions{Padding: [2]int{1, 1}, Groups: 4})
		}},
		{"MaxPool2d", []int{2, 4, 7, 6}, func(x, _, _ *Tensor) *Tensor {
			return MaxPool2d(x, [2]int{3, 2}, Pool2dOptions{Stride: [2]int{2, 2}, Padding: [2]int{1, 1}})
		}},
		{"AvgPool2d", []int{2, 4, 7, 6}, func(x, _, _ *Tensor) *Tensor {
			return AvgPool2d(x, [2]int{3, 3}, Pool2dOptions{Stride: [2]int{2, 1}, Padding: [2]int{1, 1}})
		}},
		{"AdaptiveAvgPool2d", []int{2, 4, 6, 6}, func(x, _, _ *Tensor) *Tensor { return AdaptiveAvgPool2d(x, [2]int{2, 3}) }},
		{"BatchNorm/train", []int{3, 4, 3, 3}, func(x, _, b *Tensor) *Tensor {
			return BatchNorm(x, nil, nil, b, b.MulScalar(0.5), true, 0.1, 1e-5)
		}},
		{"BatchNorm/eval", []int{3, 4, 3, 3}, func(x, _, b *Tensor) *Tensor {
			rm, rv := Options{DType: Float64}.Arange(0, 4, 1), Options{DType: Float64}.Full(2, 4)
			return BatchNorm(x, rm, rv, b, nil, false, 0.1, 1e-5)
		}},
	}
	for _, o := range ops {
		t.Run(o.name, func(t *testing.T) {
			run := func(generic bool) result {
				forceGeneric = generic
				defer func() { forceGeneric = false }()
				opt := Options{DType: Float64, Generator: NewGenerator(3)}
				x := opt.Randn(o.shape...).SetRequiresGrad(true)
				w := opt.Randn(4, 2, 3, 2).SetRequiresGrad(true)
				b := opt.Randn(4).SetRequiresGrad(true)
				y := o.f(x, w, b)
				out := y.Float64s()
				y.Mul(y).Sum().Backward()
				r := result{out, x.Grad().Float64s()}
				for _, p := range []*Tensor{w, b} {
					if p.Grad() != nil {
						r = append(r, p.Grad().Float64s())
					}
				}
				return r
			}
			host, generic := run(false), run(true)
			if len(host) != len(generic) {
				t.Fatalf("host path gives %d results, generic %d", len(host), len(generic))
			}
			for i := range host {
				for j := range host[i] {
					if d := math.Abs(host[i][j] - generic[i][j]); d > 1e-10*math.Max(1, math.Abs(host[i][j])) {
						t.Fatalf("result %d[%d]: host %v, generic %v", i, j, host[i][j], generic[i][j])
					}
				}
			}
		})
	}
}

// TestConvMemoryReleased checks that the host kernels and the generic
// path leave nothing allocated once the graph is released (column
// buffers, MaxPool2d's indices, the generic path's temporaries), with
// and without grad.
func TestConvMemoryReleased(t *testing.T) {
	for _, generic := range []bool{false, true} {
		forceGeneric = generic
		dev := Sim(6)
		opt := Options{Device: dev, Generator: NewGenerator(1)}
		x, w, b := opt.Randn(2, 3, 8, 8), opt.Randn(4, 3, 3, 3).SetRequiresGrad(true), opt.Randn(4)
		dw, w4 := opt.Randn(4, 1, 3, 3), opt.Randn(5, 4, 3, 3)
		bw, bb := opt.Ones(4).SetRequiresGrad(true), opt.Zeros(4)
		rm, rv := opt.Zeros(4), opt.Ones(4)
		before := MemoryStats(dev).Allocated
		for i, f := range []func(h *Tensor) *Tensor{
			func(h *Tensor) *Tensor {
				return Conv2d(h, w4, nil, Conv2dOptions{Padding: [2]int{1, 1}, Stride: [2]int{2, 1}})
			},
			func(h *Tensor) *Tensor { return MaxPool2d(h, [2]int{2, 2}, Pool2dOptions{}) },
			func(h *Tensor) *Tensor { return AvgPool2d(h, [2]int{2, 2}, Pool2dOptions{Padding: [2]int{1, 1}}) },
			func(h *Tensor) *Tensor { return AdaptiveAvgPool2d(h, [2]int{1, 1}) },
			func(h *Tensor) *Tensor { return Conv2d(h, dw, nil, Conv2dOptions{Groups: 4}) },
			func(h *Tensor) *Tensor { return BatchNorm(h, nil, nil, bw, bb, true, 0.1, 1e-5) },
			func(h *Tensor) *Tensor { return BatchNorm(h, rm, rv, bw, bb, false, 0.1, 1e-5) },
		} {
			h := Conv2d(x, w, b, Conv2dOptions{})
			y := f(h)
			s := y.Sum()
			s.Backward()
			for _, t := range []*Tensor{h, y, s} {
				t.Release()
			}
			w.ZeroGrad()
			bw.ZeroGrad()
			if got := MemoryStats(dev).Allocated; got != before {
				t.Errorf("case %d (generic %v): %v bytes allocated after backward; %v before", i, generic, got, before)
			}
			NoGrad(func() {
				h := Conv2d(x, w, b, Conv2dOptions{})
				y := f(h)
				h.Release()
				y.Release()
			})
			if got := MemoryStats(dev).Allocated; got != before {
				t.Errorf("case %d (generic %v): %v bytes allocated after a no-grad call; %v before", i, generic, got, before)
			}
		}
		forceGeneric = false
	}
}

// TestConv2dDepthwisePaths compares the direct depthwise kernel with
// im2col and GEMM, forward and backward, in float64 and float32, with
// channel multipliers 1 and 2, strides, padding and dilation.
func TestConv2dDepthwisePaths(t *testing.T) {
	for _, dt := range []DType{Float64, Float32, BFloat16} {
		for _, c := range []struct {
			cout int
			o    Conv2dOptions
		}{
			{4, Conv2dOptions{Padding: [2]int{1, 1}, Groups: 4}},
			{8, Conv2dOptions{Stride: [2]int{2, 1}, Padding: [2]int{2, 0}, Dilation: [2]int{1, 2}, Groups: 4}},
			{4, Conv2dOptions{Stride: [2]int{1, 3}, Groups: 4}},
		} {
			run := func(direct bool) [][]float64 {
				depthwiseDirect = direct
				defer func() { depthwiseDirect = true }()
				opt := Options{DType: dt, Generator: NewGenerator(8)}
				x := opt.Randn(3, 4, 9, 8).SetRequiresGrad(true)
				w := opt.Randn(c.cout, 1, 3, 2).SetRequiresGrad(true)
				b := opt.Randn(c.cout).SetRequiresGrad(true)
				y := Conv2d(x, w, b, c.o)
				out := y.Float64s()
				y.BackwardWith(BackwardOptions{Grad: OnesLike(y).MulScalar(0.5)})
				return [][]float64{out, x.Grad().Float64s(), w.Grad().Float64s(), b.Grad().Float64s()}
			}
			compareConvRuns(t, fmt.Sprintf("%v %+v", dt, c), "direct", "im2col", run(true), run(false), dt)
		}
	}
}

// TestConv2dWidePaths compares the wide layout of stride-1 convolutions
// (ops_conv_wide.go) with the row-by-row im2col and the depthwise kernel's
// row loops, forward and backward, in float64, float32 and bfloat16:
// padding on one axis, both or none, dilation, groups, depthwise with a
// channel multiplier, a 1×1 kernel, and columns split into chunks.
func TestConv2dWidePaths(t *testing.T) {
	cases := []struct {
		x    []int // [N, C, H, W]
		cout int
		k    [2]int
		o    Conv2dOptions
	}{
		{[]int{3, 4, 9, 8}, 6, [2]int{3, 3}, Conv2dOptions{Padding: [2]int{1, 1}}},
		{[]int{2, 4, 9, 8}, 4, [2]int{3, 2}, Conv2dOptions{Padding: [2]int{2, 0}, Dilation: [2]int{1, 2}, Groups: 2}},
		{[]int{2, 3, 7, 7}, 5, [2]int{5, 5}, Conv2dOptions{}},
		{[]int{2, 3, 7, 6}, 5, [2]int{1, 1}, Conv2dOptions{}},
		{[]int{2, 3, 7, 6}, 5, [2]int{1, 3}, Conv2dOptions{Padding: [2]int{0, 1}}},
		{[]int{3, 4, 9, 8}, 8, [2]int{3, 3}, Conv2dOptions{Padding: [2]int{1, 2}, Dilation: [2]int{2, 1}, Groups: 4}},
		{[]int{40, 32, 32, 32}, 4, [2]int{3, 3}, Conv2dOptions{Padding: [2]int{1, 1}}},                                // 32·9 rows × 1086 wide columns a sample: 13 a chunk
		{[]int{2, 3, 11, 37}, 3, [2]int{3, 3}, Conv2dOptions{Padding: [2]int{1, 1}, Groups: 3}},                       // depthwise: rows of two segments, 4 + 4 + 3 rows
		{[]int{2, 2, 6, 5}, 4, [2]int{2, 2}, Conv2dOptions{Padding: [2]int{2, 1}, Dilation: [2]int{1, 2}, Groups: 2}}, // depthwise, padding past the window: gx row by row
	}
	for _, dt := range []DType{Float64, Float32, BFloat16} {
		for ci, c := range cases {
			run := func(wide bool) [][]float64 {
				convWide = wide
				defer func() { convWide = true }()
				// Without a bias (odd cases) the products write y (beta = 0).
				return runConv(dt, c.x, c.cout, c.k, c.o, ci%2 == 0, true)
			}
			compareConvRuns(t, fmt.Sprintf("%v x %v k %v %+v", dt, c.x, c.k, c.o), "wide", "row by row", run(true), run(false), dt)
		}
	}
}

// TestConv2dStride2Path compares the stride-2 path (ops_conv_stride2.go)
// with the row-by-row im2col and col2im, forward and backward, bit for
// bit: float32 (both im2col and col2im), bfloat16 (col2im, whose
// gradients are float32): padding or none, rows of more than 16 outputs
// (whole vector blocks), dilation, groups, odd sizes, chunks.
func TestConv2dStride2Path(t *testing.T) {
	cases := []struct {
		x    []int // [N, C, H, W]
		cout int
		k    [2]int
		o    Conv2dOptions
	}{
		{[]int{3, 4, 14, 14}, 6, [2]int{3, 3}, Conv2dOptions{Padding: [2]int{1, 1}}},
		{[]int{2, 3, 15, 13}, 4, [2]int{3, 3}, Conv2dOptions{Padding: [2]int{1, 1}}},
		{[]int{2, 4, 14, 14}, 8, [2]int{1, 1}, Conv2dOptions{}},
		{[]int{2, 3, 9, 70}, 5, [2]int{3, 3}, Conv2dOptions{Padding: [2]int{1, 1}}},
		{[]int{2, 4, 19, 40}, 4, [2]int{5, 3}, Conv2dOptions{Padding: [2]int{2, 0}, Dilation: [2]int{2, 1}, Groups: 2}},
		{[]int{40, 32, 33, 32}, 4, [2]int{3, 3}, Conv2dOptions{Padding: [2]int{1, 1}}}, // chunks
	}
	for _, dt := range []DType{Float32, BFloat16} {
		for ci, c := range cases {
			c.o.Stride = [2]int{2, 2}
			run := func(fast bool) [][]float64 {
				convStride2, convFusedOn = fast, false // the chunked path's kernels
				defer func() { convStride2, convFusedOn = true, true }()
				return runConv(dt, c.x, c.cout, c.k, c.o, ci%2 == 0, true)
			}
			got, want := run(true), run(false)
			for i, name := range []string{"y", "dx", "dW", "db"} {
				for j := range want[i] {
					if got[i][j] != want[i][j] {
						t.Fatalf("%v x %v k %v %+v: %s[%d]: stride-2 path %v, row by row %v", dt, c.x, c.k, c.o, name, j, got[i][j], want[i][j])
					}
				}
			}
		}
	}
}

// TestConv2dFusedPath compares the sample-by-sample path
// (ops_conv_fused.go) with the chunked wide one, forward and backward, in
// float64 and float32: padding on both axes, one or none (wide rows that
// are the output rows), bias or none, an input without gradient, enough
// samples for many backward segments, and stride 2; and checks that its
// results are the same bits on 1 and 2 threads.
func TestConv2dFusedPath(t *testing.T) {
	cases := []struct {
		x    []int // [N, C, H, W]
		cout int
		k    [2]int
		o    Conv2dOptions
		bias bool
		noDx bool
	}{
		{[]int{3, 4, 9, 8}, 6, [2]int{3, 3}, Conv2dOptions{Padding: [2]int{1, 1}}, true, false},
		{[]int{5, 3, 28, 28}, 8, [2]int{3, 3}, Conv2dOptions{Padding: [2]int{1, 1}}, false, false}, // 2 samples a segment
		{[]int{2, 3, 7, 7}, 5, [2]int{5, 5}, Conv2dOptions{}, true, true},
		{[]int{2, 4, 9, 6}, 5, [2]int{3, 1}, Conv2dOptions{Padding: [2]int{1, 0}, Dilation: [2]int{2, 1}}, false, false}, // Wp = Wo
		{[]int{3, 2, 6, 7}, 4, [2]int{1, 3}, Conv2dOptions{Padding: [2]int{0, 1}}, true, false},
		{[]int{70, 16, 7, 7}, 16, [2]int{3, 3}, Conv2dOptions{Padding: [2]int{1, 1}}, false, false}, // segments of 33 samples
		// Planes of 512 positions or more: the implicit GEMMs in float32.
		{[]int{2, 4, 26, 24}, 6, [2]int{3, 3}, Conv2dOptions{Padding: [2]int{1, 1}}, true, false},
		{[]int{2, 3, 16, 40}, 5, [2]int{3, 1}, Conv2dOptions{Padding: [2]int{1, 0}, Dilation: [2]int{2, 1}}, false, false}, // Wp = Wo
		{[]int{3, 3, 50, 9}, 4, [2]int{1, 3}, Conv2dOptions{Padding: [2]int{0, 1}}, true, false},
		{[]int{2, 3, 24, 24}, 9, [2]int{5, 5}, Conv2dOptions{}, false, false},
		{[]int{2, 2, 18, 17}, 3, [2]int{3, 3}, Conv2dOptions{Padding: [2]int{2, 2}, Dilation: [2]int{2, 2}}, true, true},
		// Stride 2 (fused in float32 only): padded, 1×1 unpadded, wide rows.
		{[]int{5, 4, 14, 14}, 8, [2]int{3, 3}, Conv2dOptions{Stride: [2]int{2, 2}, Padding: [2]int{1, 1}}, false, false},
		{[]int{3, 6, 14, 13}, 8, [2]int{1, 1}, Conv2dOptions{Stride: [2]int{2, 2}}, false, false},
		{[]int{2, 3, 9, 70}, 5, [2]int{3, 3}, Conv2dOptions{Stride: [2]int{2, 2}, Padding: [2]int{1, 1}}, true, true},
		// Channels that are not a multiple of 3: the weight gradient's last
		// group of rows is partial (columns), 1×1 with stride 1 and 2.
		{[]int{3, 5, 14, 13}, 8, [2]int{1, 1}, Conv2dOptions{Stride: [2]int{2, 2}}, false, false},
		{[]int{3, 7, 9, 9}, 20, [2]int{1, 1}, Conv2dOptions{}, true, false},
		{[]int{9, 16, 12, 12}, 33, [2]int{3, 3}, Conv2dOptions{Padding: [2]int{1, 1}}, false, false},
		{[]int{9, 3, 24, 24}, 4, [2]int{5, 5}, Conv2dOptions{}, false, false}, // columns, segments of 4, 4 and 1
		// The input gradient's implicit GEMM with rows Wp long (pW > (kW−1)·dW)
		// and more output rows than padded input rows (Ho > pH + H).
		{[]int{2, 8, 10, 10}, 4, [2]int{3, 3}, Conv2dOptions{Padding: [2]int{3, 3}}, true, false},
	}
	for _, dt := range []DType{Float64, Float32} {
		for _, c := range cases {
			run := func(fused bool, threads int) [][]float64 {
				convFusedOn = fused
				defer func() { convFusedOn = true }()
				defer SetNumThreads(SetNumThreads(threads))
				return runConv(dt, c.x, c.cout, c.k, c.o, c.bias, !c.noDx)
			}
			label := fmt.Sprintf("%v x %v k %v %+v bias=%v", dt, c.x, c.k, c.o, c.bias)
			one := run(true, 1)
			compareConvRuns(t, label, "fused", "chunked", one, run(false, 2), dt)
			for i, two := range run(true, 2) {
				for j := range two {
					if two[j] != one[i][j] {
						t.Fatalf("%s: result %d [%d]: %v on 2 threads, %v on 1", label, i, j, two[j], one[i][j])
					}
				}
			}
		}
	}
}

// TestMaxPool2x2 compares the 2×2 stride-2 max pooling loop with the
// general one, values and argmax (through the gradient), in float32 and
// float64, on odd and even sizes with ties, −∞ and NaN.
func TestMaxPool2x2(t *testing.T) {
	vals := []float64{math.Inf(-1), 0, 1, 1, 1, math.NaN(), -2, 3}
	r := rand.New(rand.NewPCG(3, 4))
	for _, dt := range []DType{Float32, Float64} {
		for _, hw := range [][2]int{{4, 4}, {5, 7}, {28, 28}, {3, 2}} {
			data := make([]float64, 2*3*hw[0]*hw[1])
			for i := range data {
				data[i] = vals[r.IntN(len(vals))]
			}
			run := func(fast bool) (y, gx []float64) {
				pool2x2 = fast
				defer func() { pool2x2 = true }()
				x := FromSlice(data, 2, 3, hw[0], hw[1]).AsType(dt).Detach().SetRequiresGrad(true)
				out := MaxPool2d(x, [2]int{2, 2}, Pool2dOptions{})
				out.BackwardWith(BackwardOptions{Grad: Arange(0, float64(out.Numel()), 1).AsType(dt).Reshape(out.Shape()...)})
				return out.Float64s(), x.Grad().Float64s()
			}
			y, gx := run(true)
			wy, wgx := run(false)
			for i := range wy {
				if !(y[i] == wy[i] || (math.IsNaN(y[i]) && math.IsNaN(wy[i]))) {
					t.Fatalf("%v %v: y[%d] = %v, general loop %v", dt, hw, i, y[i], wy[i])
				}
			}
			for i := range wgx {
				if gx[i] != wgx[i] {
					t.Fatalf("%v %v: dx[%d] = %v, general loop %v (another argmax)", dt, hw, i, gx[i], wgx[i])
				}
			}
		}
	}
}

// runConv runs Conv2d on random inputs of shape x in dt (the same for the
// same arguments), cout filters of size k, with a bias or none, and its
// backward with a random output gradient; it returns y and the gradients
// of x (empty unless dx), the weight and the bias (empty without one).
func runConv(dt DType, x []int, cout int, k [2]int, o Conv2dOptions, bias, dx bool) [][]float64 {
	opt := Options{DType: dt, Generator: NewGenerator(9)}
	xt := opt.Randn(x...).SetRequiresGrad(dx)
	w := opt.Randn(cout, x[1]/max(o.Groups, 1), k[0], k[1]).SetRequiresGrad(true)
	var b *Tensor
	if bias {
		b = opt.Randn(cout).SetRequiresGrad(true)
	}
	y := Conv2d(xt, w, b, o)
	out := y.Float64s()
	y.BackwardWith(BackwardOptions{Grad: opt.Randn(y.Shape()...)})
	gx, gb := []float64{}, []float64{}
	if dx {
		gx = xt.Grad().Float64s()
	}
	if b != nil {
		gb = b.Grad().Float64s()
	}
	return [][]float64{out, gx, w.Grad().Float64s(), gb}
}

// compareConvRuns compares two paths' results y, dx, dW, db of one
// convolution (got against want), relative to the largest |want| of each,
// with dtype dt's tolerance.
func compareConvRuns(t *testing.T, label, gotName, wantName string, got, want [][]float64, dt DType) {
	t.Helper()
	tol := map[DType]float64{Float64: 1e-12, Float32: 1e-5, BFloat16: 2e-2}[dt]
	for i, name := range []string{"y", "dx", "dW", "db"} {
		scale := 1.0
		for _, v := range want[i] {
			scale = math.Max(scale, math.Abs(v))
		}
		for j := range want[i] {
			if d := math.Abs(got[i][j] - want[i][j]); d > tol*scale {
				t.Fatalf("%s: %s[%d]: %s %v, %s %v", label, name, j, gotName, got[i][j], wantName, want[i][j])
			}
		}
	}
}

// TestConv2dDepthwiseOneGradient checks that the depthwise backward that
// computes both gradients in one pass (dwBackwardPadded) gives each of
// them bit for bit when only one is wanted: the weight's when x needs no
// gradient (a network's first layer), the input's when the filter is
// frozen.
func TestConv2dDepthwiseOneGradient(t *testing.T) {
	for _, c := range []struct {
		x    []int
		cout int
		o    Conv2dOptions
	}{
		{[]int{2, 3, 9, 20}, 3, Conv2dOptions{Padding: [2]int{1, 1}, Groups: 3}},
		{[]int{3, 2, 7, 17}, 4, Conv2dOptions{Padding: [2]int{1, 2}, Dilation: [2]int{2, 1}, Groups: 2}},
	} {
		run := func(dx, dw bool) (gx, gw []float64) {
			opt := Options{Generator: NewGenerator(4)}
			x := opt.Randn(c.x...).SetRequiresGrad(dx)
			w := opt.Randn(c.cout, 1, 3, 3).SetRequiresGrad(dw)
			y := Conv2d(x, w, nil, c.o)
			y.BackwardWith(BackwardOptions{Grad: opt.Randn(y.Shape()...)})
			if dx {
				gx = x.Grad().Float64s()
			}
			if dw {
				gw = w.Grad().Float64s()
			}
			return gx, gw
		}
		bothX, bothW := run(true, true)
		_, onlyW := run(false, true)
		onlyX, _ := run(true, false)
		if !slices.Equal(bothW, onlyW) {
			t.Errorf("%v %+v: dW without dx differs from dW with it", c.x, c.o)
		}
		if !slices.Equal(bothX, onlyX) {
			t.Errorf("%v %+v: dx without dW differs from dx with it", c.x, c.o)
		}
	}
}
