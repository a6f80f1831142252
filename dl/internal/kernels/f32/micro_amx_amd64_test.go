//go:build !dlbd_noasm

package f32

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/dlbd/dlbd/dl/internal/kernels/gemm"
	"github.com/dlbd/dlbd/dl/internal/kernels/gemm/gemmtest"
)

// TestPackAMXMatchesGo checks the AMX packers against the reference
// layout bit for bit, with NaN in the destination beforehand and NaN
// guards after it (the unused end of each panel is not compared):
// partial panels, odd depths and tails of chunks,
// offsets, padded leading dimensions, both transposes.  B is packBBF16's
// layout with the pairs past kc zeroed to a whole chunk.
func TestPackAMXMatchesGo(t *testing.T) {
	if !haveHalfPack {
		t.Skip("no AVX-512 BW")
	}
	r := rand.New(rand.NewPCG(81, 82))
	for it := 0; it < 600; it++ {
		p, name, mc, nc, kc, off := packCase(r, it%2 == 1, amxMR, amxNR, []int{16, 17, 31, 32, 33, 34, 63, 64, 65, 100, 511, 1024})
		refB := func(d []float32) {
			packBBF16Go(d, p, off, off, kc, nc, amxNR)
			for q := 0; q*amxNR < nc; q++ {
				clear(d[q*amxNR*kc+(kc+1)/2*amxNR : q*amxNR*kc+amxPairs(kc)*amxNR])
			}
		}
		for _, c := range []struct {
			what      string
			n         int
			fast, ref func(d []float32)
		}{
			{"PackA", ceilDiv(mc, amxMR) * amxMR * kc,
				func(d []float32) { packAAMX(d, p, off, off, mc, kc, amxMR) },
				func(d []float32) { packAAMXGo(d, p, off, off, mc, kc, amxMR) }},
			{"PackB", ceilDiv(nc, amxNR) * amxNR * kc,
				func(d []float32) { packBAMX(d, p, off, off, kc, nc, amxNR) }, refB},
		} {
			checkPacker(t, c.what+" "+name, c.n, c.fast, c.ref, func(i int) bool {
				return i%(32*kc) >= amxPairs(kc)*32 // the panel's unused end (packAAMX's scratch)
			})
		}
	}
}

// TestAMXTile checks the tile kernel on packed panels against the
// float64 sum of the decoded words' products (within float32 rounding),
// each beta and alpha case, a padded ldc with NaN guards around the tile
// (nothing outside it written; C not read when beta = 0).
func TestAMXTile(t *testing.T) {
	if !haveAMX {
		t.Skip("no AMX-BF16, or the OS does not grant the tiles")
	}
	r := rand.New(rand.NewPCG(83, 84))
	bf := func(h uint32) float64 { return float64(math.Float32frombits(h << 16)) }
	nan := float32(math.NaN())
	for _, chunks := range []int{1, 2, 5, 32} {
		for _, ab := range [][2]float32{{1, 0}, {1, 1}, {-0.5, 0}, {2, 0.5}} {
			alpha, beta := ab[0], ab[1]
			a, b := make([]uint32, chunks*512), make([]uint32, chunks*512)
			for i := range a {
				a[i] = math.Float32bits(float32(r.NormFloat64()))>>16 | math.Float32bits(float32(r.NormFloat64()))&0xffff0000
				b[i] = math.Float32bits(float32(r.NormFloat64()))>>16 | math.Float32bits(float32(r.NormFloat64()))&0xffff0000
			}
			const ldc = amxNR + 5
			c := make([]float32, (amxMR+2)*ldc)
			c0 := make([]float32, len(c))
			for i := range c {
				c[i] = nan
				if i >= ldc && i < (amxMR+1)*ldc && i%ldc < amxNR && beta != 0 {
					c[i] = float32(r.NormFloat64())
				}
				c0[i] = c[i]
			}
			sbgemmAMX(32*chunks, word32(a), word32(b), &c[ldc], ldc, alpha, beta)
			for i := range c {
				row, col := i/ldc-1, i%ldc
				if row < 0 || row >= amxMR || col >= amxNR {
					if !math.IsNaN(float64(c[i])) {
						t.Fatalf("chunks=%d alpha=%v beta=%v: c[%d] outside the tile was written: %v", chunks, alpha, beta, i, c[i])
					}
					continue
				}
				var sum, abs float64
				for p := range chunks * 16 {
					x := a[(p/16)*512+row*16+p%16]
					y := b[p*32+col]
					for _, pr := range [2]float64{bf(x&0xffff) * bf(y&0xffff), bf(x>>16) * bf(y>>16)} {
						sum += pr
						abs += math.Abs(pr)
					}
				}
				var cb float64 // beta·c, not read when beta = 0 (c holds NaN there)
				if beta != 0 {
					cb = float64(beta) * float64(c0[i])
				}
				want := float64(alpha)*sum + cb
				tol := 2 * float64(32*chunks+2) * 0x1p-24 * (math.Abs(float64(alpha))*abs + math.Abs(cb))
				if d := math.Abs(float64(c[i]) - want); !(d <= tol) {
					t.Fatalf("chunks=%d alpha=%v beta=%v: c[%d,%d] = %v; want %v ± %.3g", chunks, alpha, beta, row, col, c[i], want, tol)
				}
			}
		}
	}
}

// word32 returns the words as the kernel's *float32 panel.
func word32(w []uint32) *float32 { return (*float32)(unsafe.Pointer(&w[0])) }

// TestGemmAMX checks the products SIMD and Auto compute for bfloat16
// operands where the AMX kernel runs: the kernel is chosen, and every
// product (1 and 2 goroutines, every transpose, edge tiles, the narrow
// and N-split paths, odd depths, K blocks crossing KC = 1024, alpha and
// beta cases) is within float32 rounding of the exact product; depths
// whose last block is shallower than MinDepth take the float32 kernel.
func TestGemmAMX(t *testing.T) {
	if !haveAMX {
		t.Skip("no AMX-BF16, or the OS does not grant the tiles")
	}
	if got := kernels.SIMDKernel(gemm.BFloat16, 64); got != amxKernel.Name {
		t.Fatalf("bfloat16 products use %s; want %s", got, amxKernel.Name)
	}
	if got := kernels.SIMDKernel(gemm.BFloat16, 8); got != avx512Kernel.Name {
		t.Fatalf("k=8 bfloat16 products use %s; want %s (the AMX packing needs blocks of >= 16 steps)", got, avx512Kernel.Name)
	}
	r := rand.New(rand.NewPCG(85, 86))
	shapes := [][3]int{{1, 1, 1}, {5, 7, 3}, {32, 32, 32}, {33, 31, 17}, {37, 45, 29}, {256, 10, 70}, {10, 300, 40}, {64, 64, 600}, {100, 130, 1100}, {70, 90, 2100}}
	for _, s := range shapes {
		for _, tr := range [][2]bool{{false, false}, {false, true}, {true, false}, {true, true}} {
			for _, nt := range []int{1, 2} {
				alpha, beta := float32(1), float32(0)
				switch (s[0] + s[1] + nt) % 3 {
				case 1:
					beta = 1
				case 2:
					alpha, beta = 1.5, 0.25
				}
				hp, fp := bf16Problem(r, s[0], s[1], s[2], tr[0], tr[1], alpha, beta, false)
				c0 := append([]float32(nil), hp.C...)
				SetThreads(nt)
				GemmHalfWith(SIMD, BFloat16, transpose(tr[0]), transpose(tr[1]), hp.M, hp.N, hp.K, hp.Alpha, hp.AH, hp.LDA, hp.BH, hp.LDB, hp.Beta, hp.C, hp.LDC)
				SetThreads(0)
				gemmtest.CheckResult(t, fmt.Sprintf("m=%d n=%d k=%d trans=%v threads=%d alpha=%v beta=%v", s[0], s[1], s[2], tr, nt, alpha, beta), &fp, c0, hp.C)
			}
		}
	}
}
