package gemm_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/dlbd/dlbd/dl/internal/kernels/gemm"
)

func TestHalfString(t *testing.T) {
	for h, want := range map[gemm.Half]string{gemm.NoHalf: "none", gemm.Float16: "float16", gemm.BFloat16: "bfloat16", 7: "Half(7)"} {
		if got := h.String(); got != want {
			t.Errorf("Half(%d).String() = %q; want %q", uint8(h), got, want)
		}
	}
}

// TestHalfNaiveAndFloat64 checks the float64 driver on half operands
// (the reference packing decodes them exactly) against the naive loop:
// 1 = 0x3c00 in float16, 0x3f80 in bfloat16; 2 = 0x4000 in both.
func TestHalfNaiveAndFloat64(t *testing.T) {
	for _, tc := range []struct {
		h    gemm.Half
		a, b []uint16
	}{
		{gemm.Float16, []uint16{0x3c00, 0x4000, 0x4000, 0x3c00}, []uint16{0x3c00, 0x3c00, 0x4000, 0x4000}},
		{gemm.BFloat16, []uint16{0x3f80, 0x4000, 0x4000, 0x3f80}, []uint16{0x3f80, 0x3f80, 0x4000, 0x4000}},
	} {
		want := []float64{5, 5, 4, 4} // [[1 2] [2 1]] · [[1 1] [2 2]]
		for _, run := range []func(p *gemm.Args[float64]){gemm.Naive[float64], func(p *gemm.Args[float64]) { gemm.Blocked(gemm.GoMicroKernel[float64](), 2, p) }} {
			p := gemm.Args[float64]{Op: "test", M: 2, N: 2, K: 2, Alpha: 1, LDA: 2, LDB: 2, LDC: 2,
				C: make([]float64, 4), Half: tc.h, AH: tc.a, BH: tc.b}
			p.Check()
			run(&p)
			for i := range want {
				if p.C[i] != want[i] {
					t.Errorf("%v: C = %v; want %v", tc.h, p.C, want)
					break
				}
			}
		}
	}
}

func TestHalfCheckUnknownFormat(t *testing.T) {
	defer func() {
		var ae *gemm.ArgError
		if err, ok := recover().(error); !ok || !errors.As(err, &ae) || !strings.Contains(err.Error(), "unknown operand format Half(9)") {
			t.Errorf("Check with Half(9) panicked with %v; want an *ArgError naming the format", err)
		}
	}()
	p := gemm.Args[float32]{Op: "test", M: 1, N: 1, K: 1, LDA: 1, LDB: 1, LDC: 1, C: make([]float32, 1), Half: 9}
	p.Check()
}

// TestEpilogueArgErrors: a bias or a 16-bit output with inconsistent
// arguments panics with an *ArgError that says what to change.
func TestEpilogueArgErrors(t *testing.T) {
	base := func() gemm.Args[float32] {
		return gemm.Args[float32]{Op: "test", M: 2, N: 3, K: 1, Alpha: 1, A: make([]float32, 2), LDA: 1,
			B: make([]float32, 3), LDB: 3, C: make([]float32, 6), LDC: 3}
	}
	for _, tc := range []struct {
		name, want string
		edit       func(p *gemm.Args[float32])
	}{
		{"bias with beta 1", "beta = 1 with a bias", func(p *gemm.Args[float32]) { p.Bias, p.Beta = make([]float32, 3), 1 }},
		{"short bias", "len(bias) = 2, want n = 3", func(p *gemm.Args[float32]) { p.Bias = make([]float32, 2) }},
		{"16-bit output of float32 operands", "set Half to Float16 or BFloat16", func(p *gemm.Args[float32]) { p.CH = make([]uint16, 6) }},
		{"short 16-bit output", "len(CH) = 5", func(p *gemm.Args[float32]) {
			p.Half, p.AH, p.BH, p.A, p.B, p.C, p.CH = gemm.BFloat16, make([]uint16, 2), make([]uint16, 3), nil, nil, nil, make([]uint16, 5)
		}},
	} {
		func() {
			defer func() {
				var ae *gemm.ArgError
				if err, ok := recover().(error); !ok || !errors.As(err, &ae) || !strings.Contains(err.Error(), tc.want) {
					t.Errorf("%s: Check panicked with %v; want an *ArgError containing %q", tc.name, err, tc.want)
				}
			}()
			p := base()
			tc.edit(&p)
			p.Check()
		}()
	}
}
