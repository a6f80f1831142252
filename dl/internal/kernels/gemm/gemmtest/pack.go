package gemmtest

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/dlbd/dlbd/dl/internal/kernels/gemm"
)

// PackFuncs are a micro-kernel's fast packing routines under test.
type PackFuncs[T gemm.Float] struct {
	MR, NR int
	PackA  func(dst []T, p *gemm.Args[T], ic, pc, mc, kc, mr int)
	PackB  func(dst []T, p *gemm.Args[T], pc, jc, kc, nc, nr int)
}

const guard = 16 // NaN elements after each packed block that must survive

// PackSuite checks fast packing against gemm.PackA/PackB bit for bit on
// blocks with partial micro-panels, depths that are not multiples of the
// vector width, offsets into the matrix (unaligned addresses), padded
// leading dimensions and both transposes, with NaN guards after the
// destination (a write past the block fails the test) and NaN in the
// destination beforehand (the zero padding must be written).
func PackSuite[T gemm.Float](t *testing.T, f PackFuncs[T]) {
	r := rand.New(rand.NewPCG(11, 12))
	nan := T(math.NaN())
	for it := 0; it < 600; it++ {
		tr := it%2 == 1
		// Every partial-panel size: mc and nc anywhere up to 3 panels.
		mc := 1 + r.IntN(3*f.MR)
		nc := 1 + r.IntN(3*f.NR)
		kc := []int{0, 1, 7, 8, 9, 15, 16, 17, 33, 64, 71}[r.IntN(11)]
		if kc == 0 {
			continue
		}
		// One square matrix, stored with a padded leading dimension, holds
		// the block at an offset whatever the transposes: as A and as B.
		off := r.IntN(5)
		size := off + max(mc, nc, kc) + r.IntN(3)
		ld := size + r.IntN(3)
		data := make([]T, size*ld)
		for i := range data {
			data[i] = T(r.NormFloat64())
		}
		p := &gemm.Args[T]{TransA: tr, TransB: tr, A: data, LDA: ld, B: data, LDB: ld}
		name := fmt.Sprintf("trans=%v mc=%d nc=%d kc=%d off=%d ld=%d", tr, mc, nc, kc, off, ld)
		ic, pc := off, off
		checkPack(t, "PackA "+name, ceilDiv(mc, f.MR)*f.MR*kc, nan,
			func(d []T) { f.PackA(d, p, ic, pc, mc, kc, f.MR) },
			func(d []T) { gemm.PackA(d, p, ic, pc, mc, kc, f.MR) })
		checkPack(t, "PackB "+name, ceilDiv(nc, f.NR)*f.NR*kc, nan,
			func(d []T) { f.PackB(d, p, pc, ic, kc, nc, f.NR) },
			func(d []T) { gemm.PackB(d, p, pc, ic, kc, nc, f.NR) })
	}
}

func checkPack[T gemm.Float](t *testing.T, name string, n int, nan T, fast, ref func([]T)) {
	t.Helper()
	got, want := make([]T, n+guard), make([]T, n+guard)
	for i := range got {
		got[i], want[i] = nan, nan
	}
	fast(got[:n])
	ref(want[:n])
	bad := 0
	for i := range got {
		g, w := got[i], want[i]
		if g != w && !(g != g && w != w) {
			if bad++; bad <= 3 {
				what := "element"
				if i >= n {
					what = "guard"
				}
				t.Errorf("%s: %s %d = %v; want %v", name, what, i, g, w)
			}
		}
	}
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }
