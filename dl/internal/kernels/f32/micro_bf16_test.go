package f32

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/dlbd/dlbd/dl/internal/kernels/gemm"
	"github.com/dlbd/dlbd/dl/internal/kernels/gemm/gemmtest"
)

// bf16Problem returns a random product with bfloat16 operands (normal
// values, padded leading dimensions) and the float32 decoded copies.
func bf16Problem(r *rand.Rand, m, n, k int, tA, tB bool, alpha, beta float32, specials bool) (hp, fp gemm.Args[float32]) {
	lda, ldb, ldc := k+r.IntN(3), n+r.IntN(3), n+r.IntN(3)
	if tA {
		lda = m + r.IntN(3)
	}
	if tB {
		ldb = k + r.IntN(3)
	}
	ah, af := halfData(r, BFloat16, max(m, k)*lda, specials)
	bh, bf := halfData(r, BFloat16, max(k, n)*ldb, specials)
	c := make([]float32, m*ldc)
	for i := range c {
		c[i] = float32(r.NormFloat64())
	}
	hp = gemm.Args[float32]{Op: "test", TransA: tA, TransB: tB, M: m, N: n, K: k, Alpha: alpha, Beta: beta,
		LDA: lda, LDB: ldb, LDC: ldc, C: c, Half: BFloat16, AH: ah, BH: bh}
	fp = hp
	fp.Half, fp.AH, fp.BH, fp.A, fp.B, fp.C = gemm.NoHalf, nil, nil, af, bf, append([]float32(nil), c...)
	return hp, fp
}

// TestBF16GoKernelWithinRounding checks the reference bfloat16 kernel
// (pairs of steps, the instruction's order) through the driver against the
// float64 product of the decoded operands: within the rounding bound
// 2(k+2)·eps·Σ|terms| of any float32 summation order.
func TestBF16GoKernelWithinRounding(t *testing.T) {
	r := rand.New(rand.NewPCG(41, 42))
	mk := bf16GoKernel()
	for _, s := range [][3]int{{1, 1, 1}, {14, 32, 2}, {15, 33, 3}, {37, 45, 29}, {30, 70, 513}, {256, 10, 70}} {
		for _, tr := range [][2]bool{{false, false}, {false, true}, {true, false}, {true, true}} {
			hp, fp := bf16Problem(r, s[0], s[1], s[2], tr[0], tr[1], 1.5, 0.5, false)
			c0 := append([]float32(nil), hp.C...)
			hp.Check()
			gemm.Blocked(mk, 2, &hp)
			gemmtest.CheckResult(t, fmt.Sprintf("m=%d n=%d k=%d trans=%v", s[0], s[1], s[2], tr), &fp, c0, hp.C)
		}
	}
}

// TestDPBF16 checks one lane of the reference against values worked by
// hand: 1 + 2·3 + 4·5 (bfloat16 bits of 2 = 0x4000, 3 = 0x4040, 4 = 0x4080,
// 5 = 0x40a0), and a subnormal input treated as zero.
func TestDPBF16(t *testing.T) {
	x := uint32(0x4000) | uint32(0x4080)<<16 // steps (2, 4)
	y := uint32(0x4040) | uint32(0x40a0)<<16 // steps (3, 5)
	if got := dpbf16(1, x, y); got != 27 {
		t.Errorf("dpbf16(1, (2,4), (3,5)) = %v; want 27", got)
	}
	sub := uint32(0x0001) | uint32(0x3f80)<<16 // (subnormal, 1)
	if got := dpbf16(0, sub, uint32(0x7f00)|uint32(0x3f80)<<16); got != 1 {
		t.Errorf("dpbf16 with a subnormal input = %v; want 1 (the subnormal product flushed)", got)
	}
}
