package gemmtest

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/dlbd/dlbd/dl/internal/kernels/gemm"
	"github.com/dlbd/dlbd/dl/internal/kernels/half"
)

// guard16 is a 16-bit value no product here gives, written where CH
// must not be written (the padding of its rows).
const guard16 = 0xdead

// Epilogue checks Args.Bias and Args.CH on run (one kernel, e.g. through
// Kernels.Run): for products one block deep and several blocks deep,
// narrow ones, few rows, every transpose, alpha 1, 0.5 and 0, K = 0,
// float32 and 16-bit operands, the result equals, bit for bit, the plain
// product that run computes with Beta = 0, plus the bias, rounded to
// CH's format; C is not needed with CH, and CH's row padding is not
// written.
func Epilogue(t *testing.T, name string, run func(p *gemm.Args[float32])) {
	r := rand.New(rand.NewPCG(21, 22))
	shapes := [][3]int{{37, 45, 29}, {64, 70, 300}, {100, 1, 33}, {29, 16, 1100}, {3, 100, 20}, {5, 5, 0}, {0, 5, 5}}
	for _, s := range shapes {
		for _, h := range []gemm.Half{gemm.NoHalf, gemm.BFloat16, gemm.Float16} {
			for _, tr := range [][2]bool{{false, true}, {true, false}, {false, false}} {
				for _, alpha := range []float32{1, 0.5, 0} {
					for _, out := range []struct{ bias, ch bool }{{true, false}, {false, true}, {true, true}} {
						if out.ch && h == gemm.NoHalf {
							continue
						}
						label := fmt.Sprintf("%s m=%d n=%d k=%d %v tA=%v tB=%v alpha=%v bias=%v ch=%v",
							name, s[0], s[1], s[2], h, tr[0], tr[1], alpha, out.bias, out.ch)
						epilogueCase(t, label, run, r, s, h, tr, alpha, out.bias, out.ch)
					}
				}
			}
		}
	}
}

func epilogueCase(t *testing.T, label string, run func(p *gemm.Args[float32]), r *rand.Rand, s [3]int, h gemm.Half, tr [2]bool, alpha float32, bias, ch bool) {
	t.Helper()
	m, n := s[0], s[1]
	p0 := Rand[float32](r, m, n, s[2], tr[0], tr[1], alpha, 0)
	if h != gemm.NoHalf {
		p0.Half, p0.AH, p0.BH = h, encode(h, p0.A), encode(h, p0.B)
		p0.A, p0.B = nil, nil
	}
	plain := *p0
	plain.C = append([]float32(nil), p0.C...)
	run(&plain)

	p := *p0
	if bias {
		p.Bias = make([]float32, n)
		for j := range p.Bias {
			p.Bias[j] = float32(r.NormFloat64())
		}
	}
	if ch {
		p.C = nil
		p.CH = make([]uint16, max(m*p.LDC, 1))
		for i := range p.CH {
			p.CH[i] = guard16
		}
	} else {
		p.C = append([]float32(nil), p0.C...)
	}
	run(&p)
	for i := range m {
		for j := range p.LDC {
			at := i*p.LDC + j
			if j >= n {
				if ch && p.CH[at] != guard16 {
					t.Fatalf("%s: CH[%d][%d] (row padding) written: %#04x", label, i, j, p.CH[at])
				}
				continue
			}
			want := plain.C[at]
			if bias {
				want += p.Bias[j]
			}
			if ch {
				if w := encode(h, []float32{want})[0]; p.CH[at] != w {
					t.Fatalf("%s: CH[%d][%d] = %#04x; want %#04x (%v rounded)", label, i, j, p.CH[at], w, want)
				}
				continue
			}
			if math.Float32bits(p.C[at]) != math.Float32bits(want) {
				t.Fatalf("%s: C[%d][%d] = %v; want %v", label, i, j, p.C[at], want)
			}
		}
	}
}

// encode returns xs rounded to format h.
func encode(h gemm.Half, xs []float32) []uint16 {
	out := make([]uint16, len(xs))
	if h == gemm.Float16 {
		half.EncodeFloat16(out, xs)
	} else {
		half.EncodeBFloat16(out, xs)
	}
	return out
}
