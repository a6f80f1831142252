package dl

import (
	"math"

	"github.com/dlbd/dlbd/dl/internal/kernels/vec"
)

// The fused softmax-cross-entropy kernel.  The unfused path (ops_loss.go)
// materialises the [N, C] log-softmax in five passes (max, subtract, exp,
// sum, subtract the log) and keeps it for backward, which builds another
// [N, C] softmax from it.  The fused kernel reads each row of logits once
// in forward (a running maximum and sum, Milakov and Gimelshein 2018's
// online softmax) and keeps only the N log-sum-exps; backward writes
// softmax − onehot straight into the gradient in one pass per row.
// Per row of C logits the bytes moved fall from about 9C·s (s = dtype
// size) to 3C·s, and the memory kept for backward from C·s to 8 bytes.
//
// Paper: Milakov and Gimelshein 2018, Online normalizer calculation for
// softmax (arXiv:1805.02867).

// fusableCE reports whether CrossEntropy may use the fused kernel: fusion
// on, host memory, float32 or float64 (under autocast the logits were
// already cast to float32).
func fusableCE(logits *Tensor) bool {
	return logits.dev.IsHost() && (logits.dtype == Float32 || logits.dtype == Float64) && FusionEnabled()
}

// fusedCrossEntropy is CrossEntropy's fused kernel; cls holds the target
// class of each row (or ignore).  It agrees with the unfused path to
// rounding: within 1e-6 relative in float32 and 1e-12 in float64 (the
// sums run in another order and in float64).
func fusedCrossEntropy(op string, logits *Tensor, cls []int, ignore int) *Tensor {
	c := logits.shape[len(logits.shape)-1]
	rows := len(cls)
	lse := Options{Device: logits.dev, DType: Float64}.Zeros(rows) // log Σ exp of each row
	var sum float64
	count := 0
	if logits.dtype == Float64 {
		sum, count = ceForward(logits.v(op).f64(), lse.v(op).f64(), cls, c, ignore)
	} else {
		sum, count = ceForward(logits.v(op).f32(), lse.v(op).f64(), cls, c, ignore)
	}
	loss := Options{Device: logits.dev, DType: logits.dtype}.Scalar(sum / float64(count)) // 0 targets: NaN, like PyTorch
	if !needsGrad(logits) {
		lse.Release()
		return loss
	}
	record(op, loss, []*Tensor{logits}, []*Tensor{lse}, func(g *Tensor) []*Tensor {
		gx := logits.like(op+" backward", logits.shape)
		coef := g.Item() / float64(count)
		if logits.dtype == Float64 {
			ceBackward(gx.v(op).f64(), logits.v(op).f64(), lse.v(op).f64(), cls, c, ignore, coef)
		} else {
			ceBackward(gx.v(op).f32(), logits.v(op).f32(), lse.v(op).f64(), cls, c, ignore, coef)
		}
		return []*Tensor{gx}
	})
	return loss
}

// ceForward stores each row's log Σ exp in lse and returns the sum of
// lse − x[target] over the rows not ignored, and their count.  Two passes
// over each row (its maximum, then Σ exp(x − max) in float64): the row
// stays in the cache, so the logits are read from memory once.  Float32
// rows run both passes 16 and 8 lanes at a time (vec.Max, vec.ExpSum:
// exp within 2 float64 ulp of math.Exp); float64 rows use math.Exp.
func ceForward[F float](x []F, lse []float64, cls []int, c, ignore int) (sum float64, count int) {
	x32, fast := any(x).([]float32)
	for i, k := range cls {
		row := x[i*c : (i+1)*c]
		var m, s float64
		if fast {
			row32 := x32[i*c : (i+1)*c]
			m = float64(vec.Max(row32))
			s = vec.ExpSum(row32, m)
		} else {
			m = math.Inf(-1)
			for _, v := range row {
				m = max(m, float64(v))
			}
			for _, v := range row {
				s += math.Exp(float64(v) - m)
			}
		}
		lse[i] = m + math.Log(s)
		if k != ignore {
			sum += lse[i] - float64(row[k])
			count++
		}
	}
	return sum, count
}

// ceBackward writes coef·(softmax − onehot) for each row kept and zeros
// for ignored rows (float32: vec.ExpScale, 8 lanes at a time).
func ceBackward[F float](gx, x []F, lse []float64, cls []int, c, ignore int, coef float64) {
	gx32, fast := any(gx).([]float32)
	var x32 []float32
	if fast {
		x32 = any(x).([]float32)
	}
	for i, k := range cls {
		row, out := x[i*c:(i+1)*c], gx[i*c:(i+1)*c]
		if k == ignore {
			clear(out)
			continue
		}
		if fast {
			vec.ExpScale(gx32[i*c:(i+1)*c], x32[i*c:(i+1)*c], lse[i], coef)
			out[k] = F(coef * (vec.Exp(float64(row[k])-lse[i]) - 1))
			continue
		}
		for j, v := range row {
			out[j] = F(coef * math.Exp(float64(v)-lse[i]))
		}
		out[k] = F(coef * (math.Exp(float64(row[k])-lse[i]) - 1))
	}
}
