package dl

import "fmt"

// Two-dimensional convolution, like torch.nn.functional.conv2d.
//
// The course's reference is the direct convolution, seven nested loops
// (Conv2dNaive).  Conv2d computes the same sums as matrix products
// instead (im2col, Chellapilla et al. 2006): the receptive field of every
// output position is copied into a column of a matrix, and the
// convolution becomes weight·columns, one GEMM that runs on the same
// kernels as MatMul (ops_conv_kernel.go).  Backward is two more GEMMs,
// dW = g·columnsᵀ and dcolumns = Wᵀ·g, and col2im, which adds every entry
// of dcolumns back into the input position it was copied from.
//
// Course: "Redes convolucionales" and "De bucles for a operaciones
// vectorizadas" (im2col turns the convolution into a GEMM).
// Paper: Chellapilla, Puri and Simard 2006, High Performance
// Convolutional Neural Networks for Document Processing (im2col).

// Conv2dOptions configures Conv2d, like the keyword arguments of
// torch.nn.functional.conv2d; the zero value is PyTorch's defaults
// (stride 1, no padding, no dilation, one group).  Pairs are (height,
// width).
type Conv2dOptions struct {
	Stride   [2]int // step between windows; {0, 0} means {1, 1}
	Padding  [2]int // zeros added on both sides of each spatial axis
	Dilation [2]int // spacing between kernel taps; {0, 0} means {1, 1}
	Groups   int    // channel groups (0 means 1); Groups = C is a depthwise convolution
}

// convGeom is the geometry of a 2-D convolution or pooling: input
// [n, c, h, w], cout output channels, a kh×kw kernel with stride, padding
// and dilation, groups, and the output size ho×wo.
type convGeom struct {
	n, c, h, w             int
	cout, kh, kw           int
	sh, sw, ph, pw, dh, dw int
	groups                 int
	ho, wo                 int
}

func (g *convGeom) kk() int { return g.kh * g.kw }       // taps of one channel's window
func (g *convGeom) cg() int { return g.c / g.groups }    // input channels of a group
func (g *convGeom) og() int { return g.cout / g.groups } // output channels of a group
func (g *convGeom) kg() int { return g.cg() * g.kk() }   // rows of a group's column matrix
func (g *convGeom) l() int  { return g.ho * g.wo }       // output positions of a channel
func (g *convGeom) ck() int { return g.c * g.kh * g.kw } // rows of the whole column matrix
func (g *convGeom) hw() int { return g.h * g.w }         // input positions of a channel

// pairOr returns p, or def when p is {0, 0} (an unset option).
func pairOr(p [2]int, def int) [2]int {
	if p == [2]int{} {
		return [2]int{def, def}
	}
	return p
}

// checkWindow panics with a *ValueError unless stride and dilation are
// positive and padding is not negative, and with a *ShapeError if the
// (dilated) window does not fit the padded input; it sets g's output size.
func (g *convGeom) checkWindow(op string, shapes [][]int) {
	if g.kh <= 0 || g.kw <= 0 {
		panic(&ValueError{Op: op, Reason: fmt.Sprintf("kernel size %dx%d for input of shape %v", g.kh, g.kw, shapes[0]),
			Fix: "use a kernel of at least 1x1"})
	}
	for _, v := range []struct {
		name string
		p    [2]int
		min  int
	}{{"stride", [2]int{g.sh, g.sw}, 1}, {"dilation", [2]int{g.dh, g.dw}, 1}, {"padding", [2]int{g.ph, g.pw}, 0}} {
		if v.p[0] < v.min || v.p[1] < v.min {
			what := "positive"
			if v.min == 0 {
				what = "non-negative"
			}
			panic(&ValueError{Op: op, Reason: fmt.Sprintf("%s %v for input of shape %v: each must be %s", v.name, v.p, shapes[0], what),
				Fix: fmt.Sprintf("pass a %s %s ({0, 0} for the default)", what, v.name)})
		}
	}
	eh, ew := g.dh*(g.kh-1)+1, g.dw*(g.kw-1)+1 // the dilated window
	if ph, pw := g.h+2*g.ph, g.w+2*g.pw; eh > ph || ew > pw {
		panic(shapeErr(op, shapes, "use a smaller kernel or dilation, more padding, or a larger input",
			"the %dx%d window (kernel %dx%d, dilation %dx%d) is larger than the padded input %dx%d (input %dx%d, padding %dx%d)",
			eh, ew, g.kh, g.kw, g.dh, g.dw, ph, pw, g.h, g.w, g.ph, g.pw))
	}
	g.ho = (g.h+2*g.ph-eh)/g.sh + 1
	g.wo = (g.w+2*g.pw-ew)/g.sw + 1
}

// conv2dGeom checks Conv2d's arguments and returns its geometry.
func conv2dGeom(op string, x, w, b *Tensor, o Conv2dOptions) convGeom {
	shapes := [][]int{x.shape, w.shape}
	if b != nil {
		shapes = append(shapes, b.shape)
	}
	if len(x.shape) != 4 {
		panic(shapeErr(op, shapes, "pass a batch [N, C, H, W] (x.Unsqueeze(0) for a single image)",
			"input of shape %v has %d dimensions; Conv2d needs 4 ([N, C, H, W])", x.shape, len(x.shape)))
	}
	if len(w.shape) != 4 {
		panic(shapeErr(op, shapes, "pass a weight [Cout, Cin/groups, kH, kW]",
			"weight of shape %v has %d dimensions; Conv2d needs 4 ([Cout, Cin/groups, kH, kW])", w.shape, len(w.shape)))
	}
	groups := o.Groups
	if groups == 0 {
		groups = 1
	}
	if groups < 0 {
		panic(&ValueError{Op: op, Reason: fmt.Sprintf("groups = %d", groups), Fix: "use groups >= 1 (0 means 1)"})
	}
	c, cout := x.shape[1], w.shape[0]
	if c%groups != 0 || cout%groups != 0 {
		panic(shapeErr(op, shapes, fmt.Sprintf("use a number of groups that divides both %d and %d", c, cout),
			"%d input channels (input %v) and %d output channels (weight %v) must both be divisible by groups = %d",
			c, x.shape, cout, w.shape, groups))
	}
	if w.shape[1] != c/groups {
		panic(shapeErr(op, shapes, fmt.Sprintf("give the weight shape [%d, %d, kH, kW] (Cin/groups = %d/%d input channels per filter)", cout, c/groups, c, groups),
			"weight of shape %v expects %d input channels per group, but the input %v has %d channels in %d group(s) (%d per group)",
			w.shape, w.shape[1], x.shape, c, groups, c/groups))
	}
	if b != nil && (len(b.shape) != 1 || b.shape[0] != cout) {
		panic(shapeErr(op, shapes, fmt.Sprintf("the bias must be [%d] (one per output channel)", cout),
			"bias of shape %v for weight of shape %v", b.shape, w.shape))
	}
	s, p, d := pairOr(o.Stride, 1), o.Padding, pairOr(o.Dilation, 1)
	g := convGeom{n: x.shape[0], c: c, h: x.shape[2], w: x.shape[3], cout: cout, kh: w.shape[2], kw: w.shape[3],
		sh: s[0], sw: s[1], ph: p[0], pw: p[1], dh: d[0], dw: d[1], groups: groups}
	g.checkWindow(op, shapes)
	return g
}

// Conv2d returns the 2-D convolution (a cross-correlation, as in every
// deep-learning library) of x [N, C, H, W] with weight w
// [Cout, C/groups, kH, kW] plus bias b [Cout] (or nil), like
// torch.nn.functional.conv2d: output [N, Cout, Ho, Wo] with
// Ho = ⌊(H + 2·padding − dilation·(kH − 1) − 1)/stride⌋ + 1 (Wo alike).
// With groups g the channels split into g groups convolved separately
// (groups = C, each filter seeing one channel, is a depthwise
// convolution).
//
// On host devices (CPU, Sim) it is im2col and GEMM (ops_conv_kernel.go):
// the columns of a chunk of samples (at most convColumnBudget elements,
// at least one sample) are built and multiplied by the weight with the
// batched GEMM kernels of MatMul, straight into the output; backward
// builds them again (they are not kept between forward and backward) and
// computes dW and dx with two GEMMs per chunk and col2im.  Depthwise
// convolutions (groups = C > 1) run a direct kernel instead
// (ops_conv_depthwise.go: their GEMMs would be one-row products).  On other
// devices it is composed of differentiable ops the backend has (an
// index-based im2col, MatMul and Add).  Float16 and BFloat16 inputs
// multiply with float32 accumulation; under amp.Autocast Conv2d runs in
// the autocast dtype, like torch's conv2d (it is on AutocastOps'
// LowPrecision list).  Conv2dNaive is the seven-loop reference.
//
// It panics with a *ShapeError for shapes that do not fit (rank, channels
// not divisible by groups, a window larger than the padded input) and a
// *ValueError for a stride or dilation below 1, negative padding or
// negative groups.
func Conv2d(x, w, b *Tensor, o Conv2dOptions) *Tensor {
	const op = "Conv2d"
	x.live(op)
	w.live(op)
	if b != nil {
		b.live(op)
	}
	requireFloat(op, x, w, b)
	if autocastMode.Active() {
		if xwb := autocast(x, w, b); xwb[0] != x || xwb[1] != w || xwb[2] != b {
			return autocastRelease(Conv2d(xwb[0], xwb[1], xwb[2], o), []*Tensor{x, w, b}, xwb)
		}
	}
	sameDevice(op, x, w)
	sameDType(op, x, w)
	if b != nil {
		sameDevice(op, x, b)
		sameDType(op, x, b)
	}
	g := conv2dGeom(op, x, w, b, o)
	if !hostPath(x) {
		return conv2dGeneric(op, x, w, b, &g)
	}
	if g.useDepthwise() {
		y := conv2dDepthwise(op, x, w, b, &g)
		if needsGrad(x, w, b) {
			record(op, y, []*Tensor{x, w, b}, nil, func(gy *Tensor) []*Tensor { return conv2dDepthwiseBackward(op, x, w, b, gy, &g) })
		}
		return y
	}
	y := conv2dForward(op, x, w, b, &g)
	if needsGrad(x, w, b) {
		record(op, y, []*Tensor{x, w, b}, nil, func(gy *Tensor) []*Tensor { return conv2dBackward(op, x, w, b, gy, &g) })
	}
	return y
}

// forceGeneric makes the convolution and pooling ops take the path of
// non-host devices on host devices too (tests compare the two paths).
var forceGeneric bool

// hostPath reports whether the convolution and pooling ops run their host
// kernels on t's device.
func hostPath(t *Tensor) bool { return t.dev.IsHost() && !forceGeneric }

// Conv2dNaive is the reference 2-D convolution: the seven nested loops of
// the definition (sample, output channel, output row, output column,
// input channel of the group, kernel row, kernel column), summing in
// float64, with the same arguments and result as Conv2d.  It is for
// teaching and for testing Conv2d: it is slow (no blocking, no
// vectorisation, one goroutine), runs through host copies of its inputs,
// and is not differentiable (its result does not require grad).
func Conv2dNaive(x, w, b *Tensor, o Conv2dOptions) *Tensor {
	const op = "Conv2dNaive"
	x.live(op)
	w.live(op)
	requireFloat(op, x, w, b)
	sameDevice(op, x, w)
	sameDType(op, x, w)
	if b != nil {
		b.live(op)
		sameDevice(op, x, b)
		sameDType(op, x, b)
	}
	g := conv2dGeom(op, x, w, b, o)
	xs, ws := x.Float64s(), w.Float64s()
	var bs []float64
	if b != nil {
		bs = b.Float64s()
	}
	y := make([]float64, g.n*g.cout*g.ho*g.wo)
	cg, og := g.cg(), g.og()
	for n := range g.n { // 1: every sample
		for co := range g.cout { // 2: every output channel (filter)
			grp := co / og
			for oy := range g.ho { // 3: every output row
				for ox := range g.wo { // 4: every output column
					s := 0.0
					if bs != nil {
						s = bs[co]
					}
					for ci := range cg { // 5: every input channel the filter sees
						c := grp*cg + ci
						for i := range g.kh { // 6: every kernel row
							iy := oy*g.sh - g.ph + i*g.dh
							if iy < 0 || iy >= g.h {
								continue // padding: zeros
							}
							for j := range g.kw { // 7: every kernel column
								ix := ox*g.sw - g.pw + j*g.dw
								if ix < 0 || ix >= g.w {
									continue
								}
								s += xs[((n*g.c+c)*g.h+iy)*g.w+ix] * ws[((co*cg+ci)*g.kh+i)*g.kw+j]
							}
						}
					}
					y[((n*g.cout+co)*g.ho+oy)*g.wo+ox] = s
				}
			}
		}
	}
	return x.opts().FromFloat64s(y, g.n, g.cout, g.ho, g.wo)
}
