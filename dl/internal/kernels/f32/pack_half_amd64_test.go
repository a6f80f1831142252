//go:build !dlbd_noasm

package f32

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/dlbd/dlbd/dl/internal/kernels/gemm"
)

// TestPackHalfAVX512 checks the decoding assembly packers against the
// reference gemm.PackA/PackB on half operands and on their decoded float32
// copies, bit for bit: blocks with partial micro-panels, depths that are
// not multiples of 16, unaligned offsets, padded leading dimensions, both
// transposes, NaN in the destination beforehand (the zero padding must be
// written) and NaN guards after it (nothing may be written past it).
func TestPackHalfAVX512(t *testing.T) {
	if !haveHalfPack {
		t.Skip("no AVX-512 BW")
	}
	r := rand.New(rand.NewPCG(31, 32))
	const guard = 16
	nan := float32(math.NaN())
	for it := 0; it < 800; it++ {
		h := []Half{Float16, BFloat16}[it%2]
		tr := it%4 >= 2
		mc, nc := 1+r.IntN(3*14), 1+r.IntN(3*32)
		kc := []int{1, 7, 15, 16, 17, 33, 64, 71, 256}[r.IntN(9)]
		off := r.IntN(5)
		size := off + max(mc, nc, kc) + r.IntN(3)
		ld := size + r.IntN(3)
		bits, dec := halfData(r, h, size*ld, true)
		hp := &gemm.Args[float32]{TransA: tr, TransB: tr, LDA: ld, LDB: ld, Half: h, AH: bits, BH: bits}
		fp := &gemm.Args[float32]{TransA: tr, TransB: tr, LDA: ld, LDB: ld, A: dec, B: dec}
		name := fmt.Sprintf("%v trans=%v mc=%d nc=%d kc=%d off=%d ld=%d", h, tr, mc, nc, kc, off, ld)
		for _, c := range []struct {
			what      string
			n         int
			fast, ref func(d []float32, p *gemm.Args[float32])
		}{
			{"PackA", ceilDiv(mc, 14) * 14 * kc,
				func(d []float32, p *gemm.Args[float32]) { packA512(d, p, off, off, mc, kc, 14) },
				func(d []float32, p *gemm.Args[float32]) { gemm.PackA(d, p, off, off, mc, kc, 14) }},
			{"PackB", ceilDiv(nc, 32) * 32 * kc,
				func(d []float32, p *gemm.Args[float32]) { packB512(d, p, off, off, kc, nc, 32) },
				func(d []float32, p *gemm.Args[float32]) { gemm.PackB(d, p, off, off, kc, nc, 32) }},
		} {
			got, ref, want := make([]float32, c.n+guard), make([]float32, c.n+guard), make([]float32, c.n+guard)
			for i := range got {
				got[i], ref[i], want[i] = nan, nan, nan
			}
			c.fast(got[:c.n], hp) // assembly, half
			c.ref(ref[:c.n], hp)  // reference, half
			c.ref(want[:c.n], fp) // reference, decoded float32
			for i := range want {
				if !sameBits(got[i], want[i]) || !sameBits(ref[i], want[i]) {
					what := "element"
					if i >= c.n {
						what = "guard"
					}
					t.Fatalf("%s %s: %s %d = %v (asm), %v (reference); want %v", c.what, name, what, i, got[i], ref[i], want[i])
				}
			}
		}
	}
}
