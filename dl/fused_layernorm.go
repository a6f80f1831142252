package dl

import (
	"github.com/dlbd/dlbd/dl/internal/cancel"
	"github.com/dlbd/dlbd/dl/internal/kernels/vec"
)

// The fused LayerNorm kernel.  The unfused path (ops_layernorm.go) runs
// about ten elementwise and reduction ops in forward and fifteen in
// backward, each a pass over the [rows, d] activations and most with a
// broadcast; in a Transformer step they took 11% of the time.  The fused
// kernel does one row at a time while it is in the cache: forward reads x
// twice (mean, then variance) and writes x̂ and the output; backward
// reads g and x̂ once for the two row means and once more for dx, and
// accumulates the weight and bias gradients.  Rows are spread over the
// threads in blocks of layerNormRows, whose partial weight and bias
// gradients are added in block order, so the result does not depend on
// the number of threads.  It keeps what the unfused path keeps for
// backward (x̂ and rstd) and agrees with it to rounding: sums and the
// arithmetic of each element run in float64 and round once.

// layerNormRows is the number of rows of one block of work.
const layerNormRows = 64

// fusableLN reports whether LayerNorm may run the fused kernel.
func fusableLN(t *Tensor) bool {
	return t.dev.IsHost() && (t.dtype == Float32 || t.dtype == Float64) && FusionEnabled()
}

// layerNormFused is LayerNorm's fused kernel; weight and bias (either may
// be nil) were checked against t.
func layerNormFused(op string, t, weight, bias *Tensor, eps float64) *Tensor {
	d := t.shape[len(t.shape)-1]
	rows := 0
	if d > 0 {
		rows = t.n / d
	}
	out := t.like(op, t.shape)
	xhat := t.like(op, t.shape)
	rshape := append(append([]int(nil), t.shape[:len(t.shape)-1]...), 1)
	rstd := t.like(op, rshape)
	var err error
	if t.dtype == Float64 {
		err = lnForward(t.v(op).f64(), optF64(op, weight), optF64(op, bias), out.v(op).f64(), xhat.v(op).f64(), rstd.v(op).f64(), rows, d, eps)
	} else {
		err = lnForward(t.v(op).f32(), optF32(op, weight), optF32(op, bias), out.v(op).f32(), xhat.v(op).f32(), rstd.v(op).f32(), rows, d, eps)
	}
	if err != nil {
		out.Release()
		xhat.Release()
		rstd.Release()
		panic(&CanceledError{Op: op, Cause: err})
	}
	if !needsGrad(t, weight, bias) {
		xhat.Release()
		rstd.Release()
		return out
	}
	record(op, out, []*Tensor{t, weight, bias}, []*Tensor{xhat, rstd}, func(g *Tensor) []*Tensor {
		var gx, gw, gb *Tensor
		if t.requiresGrad {
			gx = t.like(op+" backward", t.shape)
		}
		blocks := (rows + layerNormRows - 1) / layerNormRows
		var pw, pb []float64 // per block: partial Σ g·x̂ and Σ g
		if weight != nil && weight.requiresGrad {
			pw = make([]float64, blocks*d)
		}
		if bias != nil && bias.requiresGrad {
			pb = make([]float64, blocks*d)
		}
		var err error
		if t.dtype == Float64 {
			err = lnBackward(g.v(op).f64(), xhat.v(op).f64(), rstd.v(op).f64(), optF64(op, weight), optF64(op, gx), pw, pb, rows, d)
		} else {
			err = lnBackward(g.v(op).f32(), xhat.v(op).f32(), rstd.v(op).f32(), optF32(op, weight), optF32(op, gx), pw, pb, rows, d)
		}
		if err != nil {
			if gx != nil {
				gx.Release()
			}
			panic(&CanceledError{Op: op + " backward", Cause: err})
		}
		if pw != nil {
			gw = weight.like(op+" backward", weight.shape)
			sumBlocks(gw, pw, blocks, d)
		}
		if pb != nil {
			gb = bias.like(op+" backward", bias.shape)
			sumBlocks(gb, pb, blocks, d)
		}
		return []*Tensor{gx, gw, gb}
	})
	return out
}

// optF32 and optF64 return t's elements, or nil for a nil t.
func optF32(op string, t *Tensor) []float32 {
	if t == nil {
		return nil
	}
	return t.v(op).f32()
}

func optF64(op string, t *Tensor) []float64 {
	if t == nil {
		return nil
	}
	return t.v(op).f64()
}

// sumBlocks sets dst[j] = Σ_b part[b·d + j], in block order.
func sumBlocks(dst *Tensor, part []float64, blocks, d int) {
	s := make([]float64, d)
	for b := range blocks {
		for j, v := range part[b*d : (b+1)*d] {
			s[j] += v
		}
	}
	if dst.dtype == Float64 {
		copy(dst.v("LayerNorm backward").f64(), s)
		return
	}
	o := dst.v("LayerNorm backward").f32()
	for j, v := range s {
		o[j] = float32(v)
	}
}

// affine64 returns w and b as float64, ones and zeros where nil.
func affine64[F float](w, b []F, d int) (wf, bf []float64) {
	wf, bf = make([]float64, d), make([]float64, d)
	for j := range wf {
		wf[j] = 1
		if w != nil {
			wf[j] = float64(w[j])
		}
		if b != nil {
			bf[j] = float64(b[j])
		}
	}
	return wf, bf
}

// lnForward normalises each row of x (rows × d): out = x̂·w + b with
// x̂ = (x − mean)·rstd, rstd = 1/√(var + eps); w and b may be nil.
func lnForward[F float](x, w, b, out, xhat, rstd []F, rows, d int, eps float64) error {
	blocks := (rows + layerNormRows - 1) / layerNormRows
	wf, bf := affine64(w, b, d)
	return forEachThread(blocks, func(blk int) error {
		if err := cancel.Err(); err != nil {
			return err
		}
		for r := blk * layerNormRows; r < min(rows, (blk+1)*layerNormRows); r++ {
			row := r * d
			rstd[r] = F(vec.LayerNormRow(out[row:row+d], xhat[row:row+d], x[row:row+d], wf, bf, eps))
		}
		return nil
	})
}

// lnBackward computes, per row, dx = rstd·(dx̂ − mean(dx̂) − x̂·mean(dx̂·x̂))
// with dx̂ = g·w (gx nil: not wanted), and block partial sums of g·x̂
// into pw and of g into pb (nil: not wanted).
func lnBackward[F float](g, xhat, rstd, w, gx []F, pw, pb []float64, rows, d int) error {
	blocks := (rows + layerNormRows - 1) / layerNormRows
	wf, _ := affine64(w, nil, d)
	return forEachThread(blocks, func(blk int) error {
		if err := cancel.Err(); err != nil {
			return err
		}
		bw, bb := make([]float64, d), make([]float64, d) // this block's Σ g·x̂ and Σ g
		for r := blk * layerNormRows; r < min(rows, (blk+1)*layerNormRows); r++ {
			row := r * d
			var gxr []F
			if gx != nil {
				gxr = gx[row : row+d]
			}
			vec.LayerNormGradRow(gxr, g[row:row+d], xhat[row:row+d], wf, bw, bb, float64(rstd[r]))
		}
		if pw != nil {
			copy(pw[blk*d:(blk+1)*d], bw)
		}
		if pb != nil {
			copy(pb[blk*d:(blk+1)*d], bb)
		}
		return nil
	})
}
