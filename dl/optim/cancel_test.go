package optim

import (
	"context"
	"errors"
	"testing"

	"github.com/dlbd/dlbd/dl"
)

// TestStepCancel: with the context of dl.SetCancel done, Step stops
// before the first parameter with a *dl.CanceledError naming it.
func TestStepCancel(t *testing.T) {
	defer dl.SetCancel(nil)
	for _, tc := range []struct {
		op  string
		opt func([]*dl.Tensor) Optimizer
	}{
		{op: "SGD.Step", opt: func(ps []*dl.Tensor) Optimizer { return NewSGD(ps, SGDConfig{LR: 0.1}) }},
		{op: "Adam.Step", opt: func(ps []*dl.Tensor) Optimizer { return NewAdam(ps, AdamConfig{LR: 0.1}) }},
	} {
		p := dl.Ones(3).SetRequiresGrad(true)
		p.SetGrad(dl.Ones(3))
		opt := tc.opt([]*dl.Tensor{p})
		ctx, stop := context.WithCancel(context.Background())
		stop()
		dl.SetCancel(ctx)
		err := dl.Catch(opt.Step)
		var ce *dl.CanceledError
		if !errors.As(err, &ce) || ce.Op != tc.op || !errors.Is(err, context.Canceled) {
			t.Errorf("%s with a cancelled context: err = %v; want a *dl.CanceledError with Op %s", tc.op, err, tc.op)
		}
		if got := p.Float32s()[0]; got != 1 {
			t.Errorf("%s: parameter = %v after the cancelled step; want 1 (untouched)", tc.op, got)
		}
		dl.SetCancel(nil)
		opt.Step()
		if got := p.Float32s()[0]; got == 1 {
			t.Errorf("%s after SetCancel(nil) did not update the parameter", tc.op)
		}
	}
}
