package dl

import (
	"fmt"
	"math"

	"github.com/dlbd/dlbd/dl/internal/cancel"
	"github.com/dlbd/dlbd/dl/internal/kernels/vec"
)

// Pooling over the spatial axes of [N, C, H, W] tensors, like
// torch.nn.functional.max_pool2d, avg_pool2d and adaptive_avg_pool2d.  On
// host devices each (sample, channel) plane is one item of work for a
// goroutine, forward and backward; on other devices the windows are
// gathered by an index-based im2col and reduced with Max or Sum
// (ops_conv_generic.go).
//
// Course: "Redes convolucionales" (pooling, global average pooling).

// Pool2dOptions configures MaxPool2d and AvgPool2d; the zero value is
// PyTorch's defaults (stride equal to the kernel, no padding).  Pairs
// are (height, width).
type Pool2dOptions struct {
	Stride  [2]int // step between windows; {0, 0} means the kernel size
	Padding [2]int // added on both sides (−∞ for max, 0 for average); at most half the kernel
}

// poolGeom checks a pooling's arguments and returns its geometry (one
// group per channel).
func poolGeom(op string, x *Tensor, kernel [2]int, o Pool2dOptions) convGeom {
	if len(x.shape) != 4 {
		panic(shapeErr(op, [][]int{x.shape}, "pass a batch [N, C, H, W] (x.Unsqueeze(0) for a single image)",
			"input of shape %v has %d dimensions; %s needs 4 ([N, C, H, W])", x.shape, len(x.shape), op))
	}
	s := o.Stride
	if s == [2]int{} {
		s = kernel
	}
	g := convGeom{n: x.shape[0], c: x.shape[1], h: x.shape[2], w: x.shape[3], cout: x.shape[1], kh: kernel[0], kw: kernel[1],
		sh: s[0], sw: s[1], ph: o.Padding[0], pw: o.Padding[1], dh: 1, dw: 1, groups: max(x.shape[1], 1)}
	if g.kh > 0 && g.kw > 0 && (2*g.ph > g.kh || 2*g.pw > g.kw) {
		panic(&ValueError{Op: op, Reason: fmt.Sprintf("padding %v for kernel %v: padding must be at most half the kernel", o.Padding, kernel),
			Fix: "use less padding (PyTorch refuses it too: a window could then hold padding only)"})
	}
	g.checkWindow(op, [][]int{x.shape})
	return g
}

// MaxPool2d returns the maximum of each kernel[0]×kernel[1] window of x
// [N, C, H, W], like torch.nn.functional.max_pool2d (no dilation, floor
// rounding of the output size): [N, C, Ho, Wo].  Padding counts as −∞.  A
// NaN in a window is its maximum, as in PyTorch.  Backward routes each
// output's gradient to the position of its window's maximum (the first
// one, in row-major order, when several are equal); the indices are kept
// as an Int64 tensor of the output's shape until Backward.  It panics
// with a *ShapeError for an input that is not 4-D or a window larger
// than the padded input, and with a *ValueError for a non-positive
// kernel or stride or a padding above half the kernel.
func MaxPool2d(x *Tensor, kernel [2]int, o Pool2dOptions) *Tensor {
	const op = "MaxPool2d"
	x.live(op)
	requireFloat(op, x)
	g := poolGeom(op, x, kernel, o)
	if !hostPath(x) {
		return pool2dGeneric(op, x, &g, true)
	}
	x32 := compute32(x)
	y := newTensor(op, x.dev, x32.dtype, []int{g.n, g.c, g.ho, g.wo})
	idx := newTensor(op, x.dev, Int64, y.shape)
	var err error
	if x32.dtype == Float64 {
		err = maxPoolHost(y.v(op).f64(), elems[int64](idx.v(op)), x32.v(op).f64(), &g)
	} else {
		err = maxPoolHost(y.v(op).f32(), elems[int64](idx.v(op)), x32.v(op).f32(), &g)
	}
	y = finish(y, x.dtype, []*Tensor{x}, x32)
	if err != nil {
		y.Release()
		idx.Release()
		panic(&CanceledError{Op: op, Cause: err})
	}
	if !needsGrad(x) {
		idx.Release()
		return y
	}
	record(op, y, []*Tensor{x}, []*Tensor{idx}, func(gy *Tensor) []*Tensor {
		return []*Tensor{poolBackward(op, x, gy, func(gx, gv view) error {
			if gx.st.dtype == Float64 {
				return maxPoolGrad(gx.f64(), elems[int64](idx.v(op)), gv.f64(), &g)
			}
			return maxPoolGrad(gx.f32(), elems[int64](idx.v(op)), gv.f32(), &g)
		})}
	})
	return y
}

// poolBackward returns the input gradient of a pooling on a host device:
// zeros in x's compute dtype into which grad adds the output gradient gy
// (decoded to float32 if it is half), rounded to x's dtype.
func poolBackward(op string, x, gy *Tensor, grad func(gx, gy view) error) *Tensor {
	g32 := compute32(gy)
	gx := newTensor(op, x.dev, g32.dtype, x.shape)
	var err error
	if gx.n > 0 {
		x.k(op).fill(gx.v(op), 0)
		if g32.n > 0 {
			err = grad(gx.v(op), g32.v(op))
		}
	}
	gx = finish(gx, x.dtype, []*Tensor{gy}, g32)
	if err != nil {
		gx.Release()
		panic(&CanceledError{Op: op + " backward", Cause: err})
	}
	return gx
}

// forPlanes runs f for every (sample, channel) plane of g on the
// goroutines, checking the context of SetCancel before each.
func forPlanes(g *convGeom, f func(p int)) error {
	return forEachThread(g.n*g.c, func(p int) error {
		if err := cancel.Err(); err != nil {
			return err
		}
		f(p)
		return nil
	})
}

// window returns the input rows [y0, y1) and columns [x0, x1) of output
// (oy, ox)'s window, clipped to the input.
func (g *convGeom) window(oy, ox int) (y0, y1, x0, x1 int) {
	y0, x0 = oy*g.sh-g.ph, ox*g.sw-g.pw
	y1, x1 = min(y0+g.kh, g.h), min(x0+g.kw, g.w)
	return max(y0, 0), y1, max(x0, 0), x1
}

func maxPoolHost[F float](y []F, idx []int64, x []F, g *convGeom) error {
	hw, L := g.hw(), g.l()
	if pool2x2 && g.kh == 2 && g.kw == 2 && g.sh == 2 && g.sw == 2 && g.ph == 0 && g.pw == 0 && g.dh == 1 && g.dw == 1 {
		return forPlanes(g, func(p int) { maxPool2x2(y[p*L:][:L], idx[p*L:][:L], x[p*hw:][:hw], g) })
	}
	return forPlanes(g, func(p int) {
		src, dst, arg := x[p*hw:][:hw], y[p*L:][:L], idx[p*L:][:L]
		for oy := range g.ho {
			for ox := range g.wo {
				y0, y1, x0, x1 := g.window(oy, ox)
				best, at := F(math.Inf(-1)), y0*g.w+x0
				for iy := y0; iy < y1; iy++ {
					for ix := x0; ix < x1; ix++ {
						if v := src[iy*g.w+ix]; v > best || v != v { // NaN is the maximum, as in PyTorch
							best, at = v, iy*g.w+ix
						}
					}
				}
				dst[oy*g.wo+ox], arg[oy*g.wo+ox] = best, int64(at)
			}
		}
	})
}

// pool2x2 selects maxPool2x2 (tests turn it off to compare).
var pool2x2 = true

// maxPool2x2 is maxPoolHost's loop for one plane of 2×2 windows with
// stride 2 and no padding (LeNet's, VGG's pooling): the same scan order
// and comparisons, without working out each window's bounds.
func maxPool2x2[F float](dst []F, arg []int64, src []F, g *convGeom) {
	if d, ok := any(dst).([]float32); ok { // vector compares and blends
		s := any(src).([]float32)
		for oy := range g.ho {
			r0 := 2 * oy * g.w
			vec.MaxPool2Row(d[oy*g.wo:][:g.wo], arg[oy*g.wo:][:g.wo], s[r0:][:g.w], s[r0+g.w:][:g.w], r0, g.w)
		}
		return
	}
	for oy := range g.ho {
		r0 := 2 * oy * g.w
		top, bottom := src[r0:][:2*g.wo], src[r0+g.w:][:2*g.wo]
		d, a := dst[oy*g.wo:][:g.wo], arg[oy*g.wo:][:g.wo]
		for ox := range d {
			i := 2 * ox
			best, at := top[i], r0+i
			if v := top[i+1]; v > best || v != v { // NaN is the maximum, as in PyTorch
				best, at = v, r0+i+1
			}
			if v := bottom[i]; v > best || v != v {
				best, at = v, r0+g.w+i
			}
			if v := bottom[i+1]; v > best || v != v {
				best, at = v, r0+g.w+i+1
			}
			d[ox], a[ox] = best, int64(at)
		}
	}
}

func maxPoolGrad[F float](gx []F, idx []int64, gy []F, g *convGeom) error {
	hw, L := g.hw(), g.l()
	return forPlanes(g, func(p int) {
		dst := gx[p*hw:][:hw]
		for i, a := range idx[p*L:][:L] {
			dst[a] += gy[p*L+i]
		}
	})
}

// AvgPool2d returns the mean of each kernel[0]×kernel[1] window of x
// [N, C, H, W], like torch.nn.functional.avg_pool2d with its defaults
// (count_include_pad=True: padding counts as zeros and every window
// divides by kH·kW; floor rounding of the output size): [N, C, Ho, Wo].
// It is differentiable and panics as MaxPool2d does.
func AvgPool2d(x *Tensor, kernel [2]int, o Pool2dOptions) *Tensor {
	const op = "AvgPool2d"
	x.live(op)
	requireFloat(op, x)
	g := poolGeom(op, x, kernel, o)
	if !hostPath(x) {
		return pool2dGeneric(op, x, &g, false)
	}
	return avgPoolHost(op, x, &g, func(oy, ox int) (y0, y1, x0, x1, count int) {
		y0, y1, x0, x1 = g.window(oy, ox)
		return y0, y1, x0, x1, g.kk()
	})
}

// AdaptiveAvgPool2d returns the averages of x [N, C, H, W] over an
// out[0]×out[1] grid of windows covering the input, like
// torch.nn.functional.adaptive_avg_pool2d: output row i averages input
// rows ⌊i·H/Ho⌋ to ⌈(i+1)·H/Ho⌉ − 1 (columns alike), so windows may
// differ in size and overlap.  out = {1, 1} is global average pooling,
// [N, C, 1, 1].  On devices other than CPU and Sim the output size must
// divide the input size (then it is AvgPool2d with kernel = stride =
// input/output).  It panics with a *ShapeError for an input that is not
// 4-D and a *ValueError for a non-positive output size.
func AdaptiveAvgPool2d(x *Tensor, out [2]int) *Tensor {
	const op = "AdaptiveAvgPool2d"
	x.live(op)
	requireFloat(op, x)
	if len(x.shape) != 4 {
		panic(shapeErr(op, [][]int{x.shape}, "pass a batch [N, C, H, W] (x.Unsqueeze(0) for a single image)",
			"input of shape %v has %d dimensions; %s needs 4 ([N, C, H, W])", x.shape, len(x.shape), op))
	}
	if out[0] <= 0 || out[1] <= 0 {
		panic(&ValueError{Op: op, Reason: fmt.Sprintf("output size %v for input of shape %v", out, x.shape), Fix: "use a positive output size ({1, 1} for global average pooling)"})
	}
	h, w := x.shape[2], x.shape[3]
	if !hostPath(x) {
		if h%out[0] != 0 || w%out[1] != 0 {
			panic(&DeviceError{Op: op, Devices: []Device{x.dev},
				Reason: fmt.Sprintf("on %v the output size %v must divide the input size %dx%d (windows of different sizes need the host kernel)", x.dev, out, h, w),
				Fix:    "move the tensor to the CPU with .To(dl.CPU), or pick an output size that divides the input"})
		}
		k := [2]int{h / out[0], w / out[1]}
		return AvgPool2d(x, k, Pool2dOptions{Stride: k})
	}
	g := convGeom{n: x.shape[0], c: x.shape[1], h: h, w: w, cout: x.shape[1], ho: out[0], wo: out[1], groups: max(x.shape[1], 1)}
	return avgPoolHost(op, x, &g, func(oy, ox int) (y0, y1, x0, x1, count int) {
		y0, y1 = oy*h/out[0], ((oy+1)*h+out[0]-1)/out[0]
		x0, x1 = ox*w/out[1], ((ox+1)*w+out[1]-1)/out[1]
		return y0, y1, x0, x1, (y1 - y0) * (x1 - x0)
	})
}

// avgPoolHost averages the windows win gives (input rows [y0, y1),
// columns [x0, x1), divided by count) on a host device, with its
// backward.
func avgPoolHost(op string, x *Tensor, g *convGeom, win func(oy, ox int) (y0, y1, x0, x1, count int)) *Tensor {
	x32 := compute32(x)
	y := newTensor(op, x.dev, x32.dtype, []int{g.n, g.c, g.ho, g.wo})
	var err error
	if y.n > 0 {
		if x32.dtype == Float64 {
			err = avgPoolFwd(y.v(op).f64(), x32.v(op).f64(), g, win)
		} else {
			err = avgPoolFwd(y.v(op).f32(), x32.v(op).f32(), g, win)
		}
	}
	y = finish(y, x.dtype, []*Tensor{x}, x32)
	if err != nil {
		y.Release()
		panic(&CanceledError{Op: op, Cause: err})
	}
	if needsGrad(x) {
		record(op, y, []*Tensor{x}, nil, func(gy *Tensor) []*Tensor {
			return []*Tensor{poolBackward(op, x, gy, func(gx, gv view) error {
				if gx.st.dtype == Float64 {
					return avgPoolGrad(gx.f64(), gv.f64(), g, win)
				}
				return avgPoolGrad(gx.f32(), gv.f32(), g, win)
			})}
		})
	}
	return y
}

func avgPoolFwd[F float](y, x []F, g *convGeom, win func(oy, ox int) (y0, y1, x0, x1, count int)) error {
	hw, L := g.hw(), g.l()
	return forPlanes(g, func(p int) {
		src, dst := x[p*hw:][:hw], y[p*L:][:L]
		for oy := range g.ho {
			for ox := range g.wo {
				y0, y1, x0, x1, count := win(oy, ox)
				s := 0.0
				for iy := y0; iy < y1; iy++ {
					for _, v := range src[iy*g.w+x0 : iy*g.w+x1] {
						s += float64(v)
					}
				}
				dst[oy*g.wo+ox] = F(s / float64(count))
			}
		}
	})
}

func avgPoolGrad[F float](gx, gy []F, g *convGeom, win func(oy, ox int) (y0, y1, x0, x1, count int)) error {
	hw, L := g.hw(), g.l()
	return forPlanes(g, func(p int) {
		dst, src := gx[p*hw:][:hw], gy[p*L:][:L]
		for oy := range g.ho {
			for ox := range g.wo {
				y0, y1, x0, x1, count := win(oy, ox)
				v := F(float64(src[oy*g.wo+ox]) / float64(count))
				for iy := y0; iy < y1; iy++ {
					row := dst[iy*g.w+x0 : iy*g.w+x1]
					for i := range row {
						row[i] += v
					}
				}
			}
		}
	})
}
