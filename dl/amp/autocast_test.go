package amp_test

import (
	"errors"
	"testing"

	"github.com/dlbd/dlbd/dl"
	"github.com/dlbd/dlbd/dl/amp"
)

func TestAutocastScope(t *testing.T) {
	amp.Autocast(dl.BFloat16, func() {
		if dt, on := dl.AutocastDType(); !on || dt != dl.BFloat16 {
			t.Errorf("inside Autocast(BFloat16): AutocastDType() = %v, %v; want bfloat16, true", dt, on)
		}
	})
	if _, on := dl.AutocastDType(); on {
		t.Error("after Autocast: autocast still on")
	}
}

func TestAutocastRejectsFullPrecision(t *testing.T) {
	for _, dt := range []dl.DType{dl.Float32, dl.Float64} {
		err := dl.Catch(func() { amp.Autocast(dt, func() { t.Errorf("Autocast(%v) ran fn", dt) }) })
		var de *dl.DTypeError
		if !errors.As(err, &de) || !errors.Is(err, dl.ErrDType) {
			t.Errorf("Autocast(%v) = %v; want a *dl.DTypeError", dt, err)
		}
	}
}
