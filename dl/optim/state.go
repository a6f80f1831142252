package optim

import (
	"fmt"
	"slices"
	"strings"

	"github.com/dlbd/dlbd/dl"
)

// StateDict is an optimizer's state for a checkpoint: named tensors, with
// torch's names ("state.0.momentum_buffer", "state.3.exp_avg",
// "state.3.exp_avg_sq", "state.3.max_exp_avg_sq", "state.3.step") where the
// number is the parameter's position. The tensors are the optimizer's own
// buffers, not copies: save them before the next Step. Hyper-parameters
// (learning rate, betas) are not state; a Scheduler restores the learning
// rate from its step count.
type StateDict map[string]*dl.Tensor

// StateDict returns the momentum buffers.
func (o *SGD) StateDict() StateDict {
	sd := StateDict{}
	for i, b := range o.bufs {
		if b != nil {
			sd[fmt.Sprintf("state.%d.momentum_buffer", i)] = b
		}
	}
	return sd
}

// LoadStateDict restores state saved by StateDict into a new SGD over the
// same parameters; see Adam.LoadStateDict for the checks.
func (o *SGD) LoadStateDict(sd StateDict) error {
	want := map[string]*dl.Tensor{}
	for i, p := range o.params {
		want[fmt.Sprintf("state.%d.momentum_buffer", i)] = p
	}
	if err := checkState("SGD", sd, want); err != nil {
		return err
	}
	for i, p := range o.params {
		if src, ok := sd[fmt.Sprintf("state.%d.momentum_buffer", i)]; ok {
			lazyZeros(&o.bufs[i], p).CopyInPlace(src)
		}
	}
	return nil
}

// StateDict returns the step counts and moment estimates.
func (o *Adam) StateDict() StateDict {
	sd := StateDict{}
	for i, s := range o.state {
		if s.step == 0 {
			continue
		}
		pre := fmt.Sprintf("state.%d.", i)
		sd[pre+"step"] = dl.FromSlice([]float64{float64(s.step)}, 1)
		sd[pre+"exp_avg"], sd[pre+"exp_avg_sq"] = s.expAvg, s.expAvgSq
		if s.maxExpAvgSq != nil {
			sd[pre+"max_exp_avg_sq"] = s.maxExpAvgSq
		}
	}
	return sd
}

// LoadStateDict restores state saved by StateDict into a new optimizer over
// the same parameters. Every entry must name a known buffer of a parameter
// and match its shape and dtype ("step" is a Float64 [1]); otherwise it
// returns an error listing the problems and changes nothing.
func (o *Adam) LoadStateDict(sd StateDict) error {
	want := map[string]*dl.Tensor{}
	for i, p := range o.params {
		pre := fmt.Sprintf("state.%d.", i)
		want[pre+"exp_avg"], want[pre+"exp_avg_sq"], want[pre+"max_exp_avg_sq"] = p, p, p
		want[pre+"step"] = dl.Zeros(1).AsType(dl.Float64)
	}
	if err := checkState("Adam", sd, want); err != nil {
		return err
	}
	for i, p := range o.params {
		pre := fmt.Sprintf("state.%d.", i)
		st, ok := sd[pre+"step"]
		if !ok {
			continue
		}
		s := &o.state[i]
		s.step = int(st.Item())
		lazyZeros(&s.expAvg, p).CopyInPlace(sd[pre+"exp_avg"])
		lazyZeros(&s.expAvgSq, p).CopyInPlace(sd[pre+"exp_avg_sq"])
		if v, ok := sd[pre+"max_exp_avg_sq"]; ok {
			lazyZeros(&s.maxExpAvgSq, p).CopyInPlace(v)
		}
	}
	return nil
}

// checkState compares every entry of sd with the tensor whose shape and
// dtype it must have.
func checkState(op string, sd StateDict, want map[string]*dl.Tensor) error {
	var probs []string
	for name, t := range sd {
		w, ok := want[name]
		switch {
		case !ok:
			probs = append(probs, fmt.Sprintf("unexpected entry %q", name))
		case !slices.Equal(t.Shape(), w.Shape()) || t.DType() != w.DType():
			probs = append(probs, fmt.Sprintf("%q is %v %v; want %v %v", name, t.DType(), t.Shape(), w.DType(), w.Shape()))
		}
	}
	if len(probs) == 0 {
		return nil
	}
	slices.Sort(probs)
	return fmt.Errorf("optim: %s.LoadStateDict: the state does not fit these parameters (nothing was loaded): %s", op, strings.Join(probs, "; "))
}
