package accum_test

import (
	"errors"
	"math"
	"testing"

	"github.com/dlbd/dlbd/dl"
	"github.com/dlbd/dlbd/dl/accum"
	"github.com/dlbd/dlbd/dl/dltest"
	"github.com/dlbd/dlbd/dl/nn"
	"github.com/dlbd/dlbd/dl/optim"
)

// lm is a tiny float64 "language model" head: features → vocabulary
// logits, with cross-entropy over the tokens that are not padding (-100).
type lm struct {
	model  *nn.MLP
	params []*dl.Tensor
}

func newLM() lm {
	m := nn.NewMLP([]int{6, 16, 11}, nn.MLPConfig{InitConfig: nn.InitConfig{DType: dl.Float64, Generator: dl.NewGenerator(1)}})
	return lm{m, nn.Parameters(m)}
}

func (l lm) loss(x, y *dl.Tensor) *dl.Tensor { return dl.CrossEntropy(l.model.Forward(x), y) }

// grads returns a copy of every parameter gradient, concatenated.
func (l lm) grads() []float64 {
	var g []float64
	for _, p := range l.params {
		g = append(g, p.Grad().Float64s()...)
	}
	return g
}

// batch returns rows of features and targets, with padding (-100) after
// the first valid[i] targets of each micro-batch of size rows/len(valid).
func batch(rows int, valid []int) (*dl.Tensor, *dl.Tensor) {
	g := dl.NewGenerator(2)
	x := dl.Options{DType: dl.Float64, Generator: g}.Randn(rows, 6)
	y := make([]float64, rows)
	per := rows / len(valid)
	for i := range y {
		if i%per < valid[i/per] {
			y[i] = float64(g.Uint64() % 11)
		} else {
			y[i] = -100
		}
	}
	return x, dl.FromSlice(y)
}

// TestAccumulationEqualsLargeBatch checks that k = 4 micro-batches of 8
// give the same gradient and the same SGD update as one batch of 32
// (float64, within 1e-9).
func TestAccumulationEqualsLargeBatch(t *testing.T) {
	const k, micro = 4, 8
	x, y := batch(k*micro, []int{micro, micro, micro, micro})
	big, acc := newLM(), newLM()
	bigLoss := big.loss(x, y)
	want := bigLoss.Item()
	bigLoss.Backward()
	for _, w := range []accum.Weighting{accum.MicroBatchMean, accum.TokenMean} {
		nn.ZeroGrad(acc.model)
		got := accum.Backward([]int{micro, micro, micro, micro}, w, func(i int) *dl.Tensor {
			return acc.loss(x.Narrow(0, i*micro, micro), y.Narrow(0, i*micro, micro))
		})
		if d := dltest.MaxAbsDiff(acc.grads(), big.grads()); d > 1e-9 || math.Abs(got-want) > 1e-9 {
			t.Errorf("%v: accumulated gradient differs by %g, loss %v vs %v; want within 1e-9", w, d, got, want)
		}
	}
	optim.NewSGD(big.params, optim.SGDConfig{LR: 0.1}).Step()
	optim.NewSGD(acc.params, optim.SGDConfig{LR: 0.1}).Step()
	for i := range big.params {
		if d := dltest.MaxAbsDiff(acc.params[i].Float64s(), big.params[i].Float64s()); d > 1e-9 {
			t.Errorf("parameter %d after the step differs by %g", i, d)
		}
	}
}

// TestUnequalMicroBatches shows the 2024 gradient-accumulation bug: with
// padding, micro-batches hold different numbers of tokens, and the mean
// of their means (the course's loss / accumulation_steps) is not the mean
// over the step's tokens; weighting each by its token share is.
func TestUnequalMicroBatches(t *testing.T) {
	const micro = 8
	valid := []int{8, 2, 5, 1} // tokens per micro-batch after padding
	x, y := batch(4*micro, valid)
	big := newLM()
	bigLoss := big.loss(x, y) // CrossEntropy: mean over the 16 non-padding tokens
	want := bigLoss.Item()
	bigLoss.Backward()
	tokens := make([]int, len(valid))
	for i := range tokens {
		tokens[i] = accum.Tokens(y.Narrow(0, i*micro, micro), -100)
	}
	if tokens[1] != 2 || tokens[3] != 1 {
		t.Fatalf("Tokens = %v; want %v", tokens, valid)
	}
	run := func(w accum.Weighting) ([]float64, float64) {
		acc := newLM()
		l := accum.Backward(tokens, w, func(i int) *dl.Tensor {
			return acc.loss(x.Narrow(0, i*micro, micro), y.Narrow(0, i*micro, micro))
		})
		return acc.grads(), l
	}
	good, goodLoss := run(accum.TokenMean)
	if d := dltest.MaxAbsDiff(good, big.grads()); d > 1e-9 || math.Abs(goodLoss-want) > 1e-9 {
		t.Errorf("token-weighted accumulation differs from the large batch by %g (loss %v vs %v)", d, goodLoss, want)
	}
	naive, naiveLoss := run(accum.MicroBatchMean)
	scale := dltest.MaxAbsDiff(big.grads(), make([]float64, len(good)))
	if d := dltest.MaxAbsDiff(naive, big.grads()); d < 0.05*scale {
		t.Errorf("the mean of micro-batch means differs from the token mean by only %g (gradients ~%g); the test lost its point", d, scale)
	}
	t.Logf("loss: token mean %.6f, token-weighted accumulation %.6f, mean of micro-batch means %.6f", want, goodLoss, naiveLoss)
}

func TestWeights(t *testing.T) {
	ws := accum.Weights([]int{3, 1, 0}, accum.TokenMean)
	if ws[0] != 0.75 || ws[1] != 0.25 || ws[2] != 0 {
		t.Errorf("Weights(3, 1, 0; token-mean) = %v", ws)
	}
	defer func() {
		err, _ := recover().(error)
		if want := "dl: accum.Weights: invalid value: [0 0]: no tokens to average over; pass at least one micro-batch with tokens"; !errors.Is(err, dl.ErrValue) || err.Error() != want {
			t.Errorf("panic %v; want a *dl.ValueError %q", err, want)
		}
	}()
	accum.Weights([]int{0, 0}, accum.MicroBatchMean)
}
