package dl

import "slices"

// Linear returns x·wᵀ + b, the affine map of a fully connected layer, like
// torch.nn.functional.linear: x is [..., in], w is [out, in] (PyTorch's
// layout), b is [out] or nil.  The product is one GEMM over all rows of x
// with w transposed by a kernel flag, the bias is written into the output
// first (beta = 1), and backward computes dx = g·w, dw = gᵀ·x and
// db = Σ g with transpose flags too: no transpose is ever materialised.
// It panics with a *ShapeError if the sizes do not fit.
func Linear(x, w, b *Tensor) *Tensor {
	const op = "Linear"
	x.live(op)
	w.live(op)
	requireFloat(op, x, w, b)
	if autocastMode.Active() {
		if y := linearAutocast(op, x, w, b); y != nil {
			return y
		}
		if xwb := autocast(x, w, b); xwb[0] != x || xwb[1] != w || xwb[2] != b {
			return autocastRelease(Linear(xwb[0], xwb[1], xwb[2]), []*Tensor{x, w, b}, xwb)
		}
	}
	linearCheck(op, x, w, b, true)
	rows, in, out, dims := linearDims(x, w)
	y := linearForward(op, x, w, b, rows, in, out, dims)
	if needsGrad(x, w, b) {
		record(op, y, []*Tensor{x, w, b}, nil, linearBackward(op, x, w, b, w, b, rows, in, out))
	}
	return y
}

// linearCheck panics unless x, w and b (or nil) fit: devices, shapes and,
// with dtypes set, equal dtypes.
func linearCheck(op string, x, w, b *Tensor, dtypes bool) {
	sameDevice(op, x, w)
	if dtypes {
		sameDType(op, x, w)
	}
	if len(w.shape) != 2 || len(x.shape) == 0 || x.shape[len(x.shape)-1] != w.shape[1] {
		panic(shapeErr(op, [][]int{x.shape, w.shape}, "x must be [..., in] and w [out, in]",
			"input of shape %v does not fit weight of shape %v", x.shape, w.shape))
	}
	if b != nil {
		b.live(op)
		sameDevice(op, x, b)
		if dtypes {
			sameDType(op, x, b)
		}
		if len(b.shape) != 1 || b.shape[0] != w.shape[0] {
			panic(shapeErr(op, [][]int{w.shape, b.shape}, "the bias must be [out]",
				"bias of shape %v for weight of shape %v", b.shape, w.shape))
		}
	}
}

// linearDims returns the rows of x, in, out and the output shape.
func linearDims(x, w *Tensor) (rows, in, out int, dims []int) {
	out, in = w.shape[0], w.shape[1]
	rows = numel(x.shape[:len(x.shape)-1])
	return rows, in, out, append(slices.Clone(x.shape[:len(x.shape)-1]), out)
}

// linearBackward returns Linear's backward for the product x·wᵀ + b:
// dx = g·w ([rows, out]·[out, in]), dw = gᵀ·x ([out, rows]·[rows, in]) and
// db = Σ g over the rows, each computed if its input requires grad.  The
// gradients of the weight and the bias go to wt and bt, which are w and b
// themselves, or under autocast the float32 weight (w itself: the product
// g·w rounds it to x's dtype as it reads it) and the float32 bias that b
// is a cast of (see linearAutocast); dw is rounded to x's dtype, as the
// gradient of a cast weight is.
func linearBackward(op string, x, w, b, wt, bt *Tensor, rows, in, out int) func(g *Tensor) []*Tensor {
	return func(g *Tensor) []*Tensor {
		var gx, gw, gb *Tensor
		if x.requiresGrad {
			gx = bmm(op, MatMulAuto, false, false, g, w, rows, in, out, 1, 0, 0, x.shape)
		}
		// db before dw: a half g is summed through a float32 copy, which
		// then does not coexist with dw's float32 product.
		if bt != nil && bt.requiresGrad {
			g2 := g.Reshape(rows, out)
			gb = reduceRaw(op, opSum, g2, []int{0}, false)
			g2.Release()
			if gb.dtype != bt.dtype {
				gb32 := castRaw(op, gb, bt.dtype)
				gb.Release()
				gb = gb32
			}
		}
		if wt.requiresGrad {
			gw = gradAs(bmmAcc(op, MatMulAuto, true, false, g, x, out, in, rows, 1, 0, 0, w.shape), x.dtype, wt.dtype)
		}
		return []*Tensor{gx, gw, gb}
	}
}

// linearForward computes x·wᵀ (+ b) with one GEMM.  Half x and w go to
// the kernel as they are (decoded while packed).  On host devices, for
// float32 and half x, the kernel adds the bias to each tile of the
// product and rounds a half result as it stores the tile
// (gemm.Args.Bias, CH): the output is written once.  Elsewhere (other
// devices, float64) the product accumulates onto a copy of the bias in
// every row, in float32 for half operands, rounded once by finish.
func linearForward(op string, x, w, b *Tensor, rows, in, out int, dims []int) *Tensor {
	epilogue := x.dev.IsHost() && x.dtype != Float64
	dt := accDType(x.dtype)
	if epilogue {
		dt = x.dtype
	}
	y := newTensor(op, x.dev, dt, dims)
	if y.n == 0 {
		return finish(y, x.dtype, nil)
	}
	k := x.k(op)
	g := &gemmArgs{op: op, transB: true, m: rows, n: out, k: in, alpha: 1, c: y.v(op), lda: in, ldb: in, ldc: out, batch: 1}
	if b != nil {
		b32 := compute32(b)
		if b32 != b {
			defer b32.Release()
		}
		if epilogue {
			g.bias = b32.v(op)
		} else { // broadcast the bias into every row, then accumulate onto it
			x.ik(op).indexSelect(y.v(op), b32.v(op), make([]int, rows), out)
			g.beta = 1
		}
	}
	if in == 0 && g.bias.st == nil {
		if b == nil {
			k.fill(y.v(op), 0)
		}
		return finish(y, x.dtype, nil)
	}
	xg, wg, release := gemmOperands(x, w)
	defer release()
	done := false
	defer releaseOnPanic(y, &done)
	g.a, g.b = xg.v(op), wg.v(op)
	k.gemm(MatMulAuto, g)
	done = true
	return finish(y, x.dtype, nil)
}
