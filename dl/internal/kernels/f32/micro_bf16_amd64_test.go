//go:build !dlbd_noasm

package f32

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/dlbd/dlbd/dl/internal/kernels/gemm"
	"github.com/dlbd/dlbd/dl/internal/kernels/gemm/gemmtest"
)

// TestSbgemmMatchesGo checks the VDPBF16PS micro-kernel against its Go
// reference on random panels, bit for bit: odd and even depths, every
// beta case, subnormal words (DAZ, FTZ), a padded ldc with NaN guards
// around the tile (nothing outside it may be written).
func TestSbgemmMatchesGo(t *testing.T) {
	if !haveBF16Dot {
		t.Skip("no AVX512_BF16")
	}
	r := rand.New(rand.NewPCG(51, 52))
	word := func() float32 {
		h := func() uint32 {
			if r.IntN(20) == 0 {
				return uint32(r.IntN(0x80)) | uint32(r.IntN(2))<<15 // subnormal or zero
			}
			return uint32(math.Float32bits(float32(r.NormFloat64())) >> 16)
		}
		return math.Float32frombits(h() | h()<<16)
	}
	nan := float32(math.NaN())
	for _, k := range []int{1, 2, 3, 7, 8, 9, 16, 17, 33, 256, 511} {
		for _, beta := range []float32{0, 1, 0.5} {
			pairs := (k + 1) / 2
			a, b := make([]float32, pairs*sbMR), make([]float32, pairs*sbNR)
			for i := range a {
				a[i] = word()
			}
			for i := range b {
				b[i] = word()
			}
			const ldc = sbNR + 3
			got, want := make([]float32, (sbMR+2)*ldc), make([]float32, (sbMR+2)*ldc)
			for i := range got {
				got[i], want[i] = nan, nan
				if i >= ldc && i < (sbMR+1)*ldc && (i%ldc) < sbNR && beta != 0 {
					got[i] = float32(r.NormFloat64())
					want[i] = got[i]
				}
			}
			sbgemmAVX512BF16(k, &a[0], &b[0], &got[ldc], ldc, -0.5, beta)
			sbgemmGo(k, &a[0], &b[0], &want[ldc], ldc, -0.5, beta)
			for i := range got {
				if !sameBits(got[i], want[i]) {
					t.Fatalf("k=%d beta=%v: c[%d] (row %d, col %d of the padded tile) = %v; want %v", k, beta, i, i/ldc-1, i%ldc, got[i], want[i])
				}
			}
		}
	}
}

// TestPackBF16MatchesGo checks the assembly pair packers against the Go
// reference bit for bit, with NaN in the destination beforehand and NaN
// guards after it: partial panels, odd depths, offsets, padded leading
// dimensions, both transposes.
func TestPackBF16MatchesGo(t *testing.T) {
	if !haveBF16Dot {
		t.Skip("no AVX512_BF16")
	}
	r := rand.New(rand.NewPCG(61, 62))
	for it := 0; it < 600; it++ {
		p, name, mc, nc, kc, off := packCase(r, it%2 == 1, sbMR, sbNR, []int{1, 2, 3, 31, 32, 33, 34, 64, 65, 100, 512})
		for _, c := range []struct {
			what      string
			n         int
			fast, ref func(d []float32)
		}{
			{"PackA", ceilDiv(mc, sbMR) * sbMR * kc,
				func(d []float32) { packABF16(d, p, off, off, mc, kc, sbMR) },
				func(d []float32) { packABF16Go(d, p, off, off, mc, kc, sbMR) }},
			{"PackB", ceilDiv(nc, sbNR) * sbNR * kc,
				func(d []float32) { packBBF16(d, p, off, off, kc, nc, sbNR) },
				func(d []float32) { packBBF16Go(d, p, off, off, kc, nc, sbNR) }},
		} {
			checkPacker(t, c.what+" "+name, c.n, c.fast, c.ref, nil)
		}
	}
}

// packCase returns a random packing problem on one bfloat16 matrix
// (both operands, transposed or not): up to three panels of mr rows and
// nr columns, a depth from kcs, an offset and a padded leading dimension.
func packCase(r *rand.Rand, tr bool, mr, nr int, kcs []int) (p *gemm.Args[float32], name string, mc, nc, kc, off int) {
	mc, nc = 1+r.IntN(3*mr), 1+r.IntN(3*nr)
	kc = kcs[r.IntN(len(kcs))]
	off = r.IntN(5)
	size := off + max(mc, nc, kc) + r.IntN(3)
	ld := size + r.IntN(3)
	bits, _ := halfData(r, BFloat16, size*ld, true)
	p = &gemm.Args[float32]{TransA: tr, TransB: tr, LDA: ld, LDB: ld, Half: BFloat16, AH: bits, BH: bits}
	return p, fmt.Sprintf("trans=%v mc=%d nc=%d kc=%d off=%d ld=%d", tr, mc, nc, kc, off, ld), mc, nc, kc, off
}

// checkPacker runs a fast packer and its reference on n words of NaN
// each, followed by guard NaN words, and fails unless they wrote the
// same bits everywhere (words, not numbers) but where unused(i) says
// the layout leaves word i alone.
func checkPacker(t *testing.T, name string, n int, fast, ref func(d []float32), unused func(i int) bool) {
	t.Helper()
	const guard = 16
	nan := float32(math.NaN())
	got, want := make([]float32, n+guard), make([]float32, n+guard)
	for i := range got {
		got[i], want[i] = nan, nan
	}
	fast(got[:n])
	ref(want[:n])
	for i := range want {
		if i < n && unused != nil && unused(i) {
			continue
		}
		if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
			what := "word"
			if i >= n {
				what = "guard"
			}
			t.Fatalf("%s: %s %d = %#08x; want %#08x", name, what, i, math.Float32bits(got[i]), math.Float32bits(want[i]))
		}
	}
}

// TestGemmBF16Dot checks the products of the VDPBF16PS kernel (SIMD's
// for bfloat16 operands on CPUs without AMX) through the driver: bit for
// bit those of the Go reference kernel through the same driver (1 and 2
// goroutines, every transpose, the narrow and N-split paths, shapes
// crossing KC = 512), and within float32 rounding of the exact product.
func TestGemmBF16Dot(t *testing.T) {
	if !haveBF16Dot {
		t.Skip("no AVX512_BF16")
	}
	r := rand.New(rand.NewPCG(71, 72))
	ref := bf16GoKernel()
	shapes := [][3]int{{1, 1, 1}, {5, 7, 3}, {14, 32, 16}, {15, 33, 17}, {37, 45, 29}, {256, 10, 70}, {10, 300, 40}, {64, 64, 600}}
	if !testing.Short() {
		shapes = append(shapes, [3]int{300, 200, 1100}) // three K blocks; slow in the Go reference
	}
	for _, s := range shapes {
		for _, tr := range [][2]bool{{false, false}, {false, true}, {true, false}, {true, true}} {
			for _, nt := range []int{1, 2} {
				if s[2] > 1000 && (tr[0] == tr[1] || nt == 1) {
					continue
				}
				hp, fp := bf16Problem(r, s[0], s[1], s[2], tr[0], tr[1], 1, 0.25, true)
				c0 := append([]float32(nil), hp.C...)
				want := hp
				want.C = append([]float32(nil), c0...)
				gemm.Blocked(ref, nt, &want)
				gemm.Blocked(bf16Kernel, nt, &hp)
				name := fmt.Sprintf("m=%d n=%d k=%d trans=%v threads=%d", s[0], s[1], s[2], tr, nt)
				for i := range want.C {
					if !sameBits(hp.C[i], want.C[i]) {
						t.Fatalf("%s: C[%d] = %v; want %v (Go reference kernel)", name, i, hp.C[i], want.C[i])
					}
				}
				if s[0]*s[1]*s[2] <= 1<<20 {
					gemmtest.CheckResult(t, name, &fp, c0, hp.C)
				}
			}
		}
	}
}
