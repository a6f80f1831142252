package dl_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/dlbd/dlbd/dl"
)

// Class targets are Int64, as in PyTorch; comparisons give Bool masks.
func ExampleFromSlice_int64() {
	logits := dl.FromSlice([]float32{2, 1, 0.5, 3, 0, 0}, 3, 2)
	labels := dl.FromSlice([]int64{0, 1, 1})
	pred := logits.ArgMax(1)
	correct := pred.Eq(labels)
	fmt.Println(pred)
	fmt.Println(correct)
	fmt.Println("correct:", correct.Sum().Item(), "loss:", fmt.Sprintf("%.4f", dl.CrossEntropy(logits, labels).Item()))
	// Output:
	// tensor([0, 1, 0], device=cpu, dtype=int64)
	// tensor([ True,  True, False], device=cpu, dtype=bool)
	// correct: 2 loss: 0.3618
}

// A cancelled context (the notebook's interrupt) stops dl at its next
// check with a typed error.
func ExampleSetCancel() {
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // the interrupt; once SetCancel holds ctx, a cancel is seen within microseconds
	dl.SetCancel(ctx)
	defer dl.SetCancel(nil)
	err := dl.Catch(func() { dl.Ones(512, 512).MatMul(dl.Ones(512, 512)) })
	fmt.Println(errors.Is(err, dl.ErrCanceled), errors.Is(err, context.Canceled))
	// Output:
	// true true
}
