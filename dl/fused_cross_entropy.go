package dl

import "math"

// The fused softmax-cross-entropy kernel.  The unfused path (loss.go)
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
// stays in the cache, so the logits are read from memory once.
func ceForward[F float](x []F, lse []float64, cls []int, c, ignore int) (sum float64, count int) {
	fast := isFloat32(x)
	for i, k := range cls {
		row := x[i*c : (i+1)*c]
		m := math.Inf(-1)
		for _, v := range row {
			m = max(m, float64(v))
		}
		s := 0.0
		for _, v := range row {
			s += expNonPositive(float64(v)-m, fast)
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
// for ignored rows.
func ceBackward[F float](gx, x []F, lse []float64, cls []int, c, ignore int, coef float64) {
	fast := isFloat32(x)
	for i, k := range cls {
		row, out := x[i*c:(i+1)*c], gx[i*c:(i+1)*c]
		if k == ignore {
			clear(out)
			continue
		}
		for j, v := range row {
			out[j] = F(coef * expNonPositive(float64(v)-lse[i], fast))
		}
		out[k] = F(coef * (expNonPositive(float64(row[k])-lse[i], fast) - 1))
	}
}

func isFloat32[F float](x []F) bool { _, ok := any(x).([]float32); return ok }

// expNonPositive returns e^x for x ≤ 0 (NaN propagates): math.Exp, or
// with fast set (float32 results) a short polynomial accurate to about
// 10⁻⁸ relative, well below float32's rounding (6·10⁻⁸), at a third of
// math.Exp's cost: e^x = 2^k·e^r with k = round(x/ln 2), |r| ≤ ln2/2, and
// e^r by its Taylor series to r⁷ (truncation error r⁸/8! < 5·10⁻⁹).
// Results below float32's smallest subnormal (x < −104) are 0.
func expNonPositive(x float64, fast bool) float64 {
	if !fast {
		return math.Exp(x)
	}
	if x < -104 {
		return 0
	}
	const ln2Hi, ln2Lo = 6.93147180369123816490e-01, 1.90821492927058770002e-10 // ln 2 = hi + lo, as in math.Exp
	// Round to nearest for x ≤ 0 with a conversion (math.Round is slower).
	k := float64(int64(x*math.Log2E - 0.5))
	r := (x - k*ln2Hi) - k*ln2Lo
	p := 1 + r*(1+r*(1.0/2+r*(1.0/6+r*(1.0/24+r*(1.0/120+r*(1.0/720+r*(1.0/5040)))))))
	return math.Float64frombits(math.Float64bits(p) + uint64(int64(k))<<52) // p·2^k (k ≥ −151: no underflow)
}
