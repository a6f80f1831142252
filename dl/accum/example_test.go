package accum_test

import (
	"fmt"

	"github.com/dlbd/dlbd/dl"
	"github.com/dlbd/dlbd/dl/accum"
)

// ExampleBackward accumulates two micro-batches of 3 and 1 tokens: the
// token-weighted loss is the mean over the 4 tokens; the mean of the two
// micro-batch means is not.
func ExampleBackward() {
	w := dl.FromSlice([]float64{0.5}).SetRequiresGrad(true)
	xs := [][]float64{{1, 2, 3}, {4}} // one "token" loss (w·x)² each
	loss := func(i int) *dl.Tensor {
		x := dl.FromSlice(xs[i])
		return x.Mul(w).Pow(2).Mean()
	}
	for _, weighting := range []accum.Weighting{accum.TokenMean, accum.MicroBatchMean} {
		w.ZeroGrad()
		l := accum.Backward([]int{3, 1}, weighting, loss)
		fmt.Printf("%s: loss %.4f, grad %.4f\n", weighting, l, w.Grad().Item())
	}
	// Output:
	// token-mean: loss 1.8750, grad 7.5000
	// micro-batch-mean: loss 2.5833, grad 10.3333
}
