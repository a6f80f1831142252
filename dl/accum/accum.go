package accum

import (
	"fmt"

	"github.com/dlbd/dlbd/dl"
)

// Weighting says how the losses of a step's micro-batches are combined.
type Weighting int

const (
	// TokenMean weights micro-batch i by nᵢ/Σn (its share of the step's
	// tokens), so the accumulated gradient is the gradient of the mean over
	// all tokens of the step: exactly one large batch.  The default.
	TokenMean Weighting = iota
	// MicroBatchMean weights every micro-batch by 1/k, the course's
	// `loss = loss / accumulation_steps`.  It is the mean of the
	// micro-batch means, which equals TokenMean only when every
	// micro-batch has the same number of tokens.
	MicroBatchMean
)

// String returns "token-mean" or "micro-batch-mean".
func (w Weighting) String() string {
	switch w {
	case TokenMean:
		return "token-mean"
	case MicroBatchMean:
		return "micro-batch-mean"
	}
	return fmt.Sprintf("Weighting(%d)", int(w))
}

// Weights returns the factor for each micro-batch's mean loss, given the
// number of tokens (loss terms) of each: nᵢ/Σn for TokenMean, 1/k for
// MicroBatchMean.  It panics if tokens is empty, a count is negative or
// all are zero.
func Weights(tokens []int, w Weighting) []float64 {
	total := 0
	for i, n := range tokens {
		if n < 0 {
			panic(&dl.ValueError{Op: "accum.Weights", Reason: fmt.Sprintf("micro-batch %d has %d tokens", i, n), Fix: "pass token counts >= 0"})
		}
		total += n
	}
	if total == 0 {
		panic(&dl.ValueError{Op: "accum.Weights", Reason: fmt.Sprintf("%v: no tokens to average over", tokens), Fix: "pass at least one micro-batch with tokens"})
	}
	ws := make([]float64, len(tokens))
	for i, n := range tokens {
		switch w {
		case TokenMean:
			ws[i] = float64(n) / float64(total)
		case MicroBatchMean:
			ws[i] = 1 / float64(len(tokens))
		default:
			panic(&dl.ValueError{Op: "accum.Weights", Reason: fmt.Sprintf("unknown weighting %v", w), Fix: "use accum.TokenMean or accum.MicroBatchMean"})
		}
	}
	return ws
}

// Backward accumulates the gradients of one optimizer step over
// len(tokens) micro-batches: for each i it calls loss(i), which must
// return the mean loss over micro-batch i's tokens[i] tokens, and runs
// Backward on loss(i)·wᵢ (Weights), so only one micro-batch's
// activations exist at a time while the parameters' Grad sums up.  It
// returns Σ wᵢ·loss(i), the step's loss under that weighting.  A
// micro-batch with no tokens is skipped (its mean loss would be NaN).
// Call the optimizer's Step and ZeroGrad after it, as in the course's
// loop.
//
// Course: "Prácticas de eficiencia computacional" (gradient accumulation).
func Backward(tokens []int, w Weighting, loss func(i int) *dl.Tensor) float64 {
	ws := Weights(tokens, w)
	total := 0.0
	for i, wi := range ws {
		if tokens[i] == 0 {
			continue
		}
		l := loss(i)
		total += wi * l.Item()
		scaled := l.MulScalar(wi)
		scaled.Backward()
		scaled.Release()
		l.Release()
	}
	return total
}

// Tokens returns the number of targets that count in a loss: those not
// equal to ignoreIndex (CrossEntropy's default is -100, the padding of
// language-model batches).
func Tokens(targets *dl.Tensor, ignoreIndex int) int {
	n := 0
	for _, v := range targets.Float64s() {
		if v != float64(ignoreIndex) {
			n++
		}
	}
	return n
}
