//go:build !dlbd_noasm

package f32

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/dlbd/dlbd/dl/internal/kernels/gemm"
)

// TestPackHalfAVX2 compares the AVX2 kernel's packing of 16-bit operands
// (packA6, packB16: decoded a few panels at a time, then packed as
// float32) with gemm.PackA and PackB, the element-by-element reference,
// bit for bit: both formats, A and B plain and transposed, blocks wider
// than the decoded pieces (halfRowsA rows, halfColsB columns) with ragged
// last panels, depths below and above the 8-step transposes, offsets
// inside the matrices and leading dimensions wider than the block.
func TestPackHalfAVX2(t *testing.T) {
	if !haveAVX2 {
		t.Skip("no AVX2")
	}
	r := rand.New(rand.NewPCG(41, 42))
	for _, h := range []Half{BFloat16, Float16} {
		for _, trans := range []bool{false, true} {
			for _, sz := range [][2]int{{1, 1}, {6, 8}, {7, 5}, {47, 9}, {48, 16}, {49, 17}, {100, 33}, {130, 260}} {
				n, kc := sz[0], sz[1] // block rows (A) or columns (B), depth
				at, pc := r.IntN(5), r.IntN(4)
				ld := max(at+n, pc+kc) + r.IntN(3)
				bits, _ := halfData(r, h, (max(at+n, pc+kc)+1)*ld, true)
				name := fmt.Sprintf("%v/trans=%v/n=%d/kc=%d", h, trans, n, kc)

				p := gemm.Args[float32]{TransA: trans, Half: h, AH: bits, LDA: ld}
				mc := ceilDiv(n, 6) * 6
				got, want := make([]float32, mc*kc), make([]float32, mc*kc)
				packA6(got, &p, at, pc, n, kc, 6)
				gemm.PackA(want, &p, at, pc, n, kc, 6)
				comparePacked(t, "A/"+name, got, want)

				p = gemm.Args[float32]{TransB: trans, Half: h, BH: bits, LDB: ld}
				nc := ceilDiv(n, 16) * 16
				got, want = make([]float32, nc*kc), make([]float32, nc*kc)
				packB16(got, &p, pc, at, kc, n, 16)
				gemm.PackB(want, &p, pc, at, kc, n, 16)
				comparePacked(t, "B/"+name, got, want)
			}
		}
	}
}

func comparePacked(t *testing.T, name string, got, want []float32) {
	t.Helper()
	for i := range want {
		if !sameBits(got[i], want[i]) {
			t.Fatalf("%s: packed[%d] = %v, reference %v", name, i, got[i], want[i])
		}
	}
}
