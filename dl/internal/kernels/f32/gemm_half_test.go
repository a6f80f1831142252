package f32

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/blas"

	"github.com/dlbd/dlbd/dl/internal/kernels/gemm"
	"github.com/dlbd/dlbd/dl/internal/kernels/half"
)

// halfData returns n random 16-bit floats of format h: encoded normal
// values over a range of magnitudes, with a few subnormals and signed
// zeros (specials), and their decoded float32 values.
func halfData(r *rand.Rand, h Half, n int, specials bool) ([]uint16, []float32) {
	bits := make([]uint16, n)
	for i := range bits {
		f := float32(r.NormFloat64() * math.Pow(2, float64(r.IntN(8)-4)))
		if h == Float16 {
			bits[i] = half.Float32ToFloat16(f)
		} else {
			bits[i] = half.Float32ToBFloat16(f)
		}
		if specials && r.IntN(16) == 0 {
			sub := uint16(0x03ff) // float16 subnormal mantissa bits
			if h == BFloat16 {
				sub = 0x007f
			}
			bits[i] = []uint16{0x0000, 0x8000, uint16(r.IntN(int(sub))) + 1, 0x8000 | (uint16(r.IntN(int(sub))) + 1)}[r.IntN(4)]
		}
	}
	dec := make([]float32, n)
	for i, b := range bits {
		dec[i] = h.Decode(b)
	}
	return bits, dec
}

// halfImpl is a code path run on the same problem twice: with the half
// operands and with their decoded float32 copies.
type halfImpl struct {
	name string
	run  func(p *gemm.Args[float32])
}

func halfImpls() []halfImpl {
	var out []halfImpl
	for _, k := range []Kernel{Auto, Naive, Blocked, Gonum, SIMD} {
		if !k.Available() {
			continue
		}
		out = append(out, halfImpl{k.String(), func(p *gemm.Args[float32]) {
			if p.Half != gemm.NoHalf {
				GemmHalfWith(k, p.Half, transpose(p.TransA), transpose(p.TransB), p.M, p.N, p.K, p.Alpha, p.AH, p.LDA, p.BH, p.LDB, p.Beta, p.C, p.LDC)
				return
			}
			GemmWith(k, transpose(p.TransA), transpose(p.TransB), p.M, p.N, p.K, p.Alpha, p.A, p.LDA, p.B, p.LDB, p.Beta, p.C, p.LDC)
		}})
	}
	for _, mk := range append([]*gemm.MicroKernel[float32]{kernels.Go}, kernels.SIMD...) {
		for _, nt := range []int{1, 2} {
			out = append(out, halfImpl{fmt.Sprintf("%s/threads=%d", mk.Name, nt), func(p *gemm.Args[float32]) {
				p.Check()
				gemm.Blocked(mk, nt, p)
			}})
		}
	}
	return out
}

// sameBits reports whether a and b are equal bit for bit, or both NaN.
func sameBits(a, b float32) bool {
	return math.Float32bits(a) == math.Float32bits(b) || (a != a && b != b)
}

// TestGemmHalfMatchesDecoded checks every kernel and micro-kernel on half
// inputs against the same code path on the decoded float32 inputs: the
// results must be identical bit for bit, since decoding is exact and the
// packed panels are the same.  The shapes cross the micro-tile edges, the
// K blocking (kc = 256, depths not multiples of 16), the narrow path
// (n <= 16 computes Cᵀ) and the N split of few rows.
func TestGemmHalfMatchesDecoded(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	shapes := [][3]int{{1, 1, 1}, {5, 7, 3}, {14, 32, 16}, {15, 33, 17}, {37, 45, 29},
		{256, 10, 70}, {100, 1, 33}, {10, 300, 40}, {64, 64, 64}}
	if !testing.Short() {
		shapes = append(shapes, [3]int{513, 257, 600}, [3]int{29, 900, 300}, [3]int{256, 1024, 784})
	}
	for _, h := range []Half{Float16, BFloat16} {
		for _, s := range shapes {
			for _, tr := range [][2]bool{{false, false}, {false, true}, {true, false}, {true, true}} {
				m, n, k := s[0], s[1], s[2]
				alpha, beta := float32(1), float32(0)
				if (m+n+k)%2 == 1 {
					alpha, beta = -0.5, 0.25
				}
				lda, ldb, ldc := k+r.IntN(3), n+r.IntN(3), n+r.IntN(3)
				if tr[0] {
					lda = m + r.IntN(3)
				}
				if tr[1] {
					ldb = k + r.IntN(3)
				}
				ah, af := halfData(r, h, max(m, k)*lda, true)
				bh, bf := halfData(r, h, max(k, n)*ldb, true)
				c0 := make([]float32, m*ldc)
				for i := range c0 {
					c0[i] = float32(r.NormFloat64())
				}
				for _, im := range halfImpls() {
					if m*n*k > 1<<20 && !strings.Contains(im.name, "avx") && im.name != "simd" {
						continue // the portable kernels are slow on large shapes
					}
					if h == BFloat16 && bf16Kernels != nil && (im.name == "auto" || im.name == "simd") {
						continue // the bfloat16 kernels: TestGemmBF16Dot, TestGemmAMX
					}
					hp := gemm.Args[float32]{TransA: tr[0], TransB: tr[1], M: m, N: n, K: k, Alpha: alpha, Beta: beta,
						LDA: lda, LDB: ldb, LDC: ldc, C: append([]float32(nil), c0...), Half: h, AH: ah, BH: bh}
					fp := hp
					fp.Half, fp.AH, fp.BH, fp.A, fp.B, fp.C = gemm.NoHalf, nil, nil, af, bf, append([]float32(nil), c0...)
					im.run(&hp)
					im.run(&fp)
					for i := range hp.C {
						if !sameBits(hp.C[i], fp.C[i]) {
							t.Fatalf("%s %v m=%d n=%d k=%d trans=%v: C[%d] = %v with half inputs, %v with decoded float32",
								im.name, h, m, n, k, tr, i, hp.C[i], fp.C[i])
						}
					}
				}
			}
		}
	}
}

// TestGemmHalfBatched checks that batch items slice the half operands.
func TestGemmHalfBatched(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	const count, m, n, k = 3, 9, 11, 13
	ah, af := halfData(r, BFloat16, count*m*k, false)
	bh, bf := halfData(r, BFloat16, count*k*n, false)
	p := gemm.Args[float32]{Op: "test", M: m, N: n, K: k, Alpha: 1, LDA: k, LDB: n, LDC: n,
		C: make([]float32, count*m*n), Half: BFloat16, AH: ah, BH: bh}
	kernels.RunBatched(int(Blocked), &p, gemm.Batched{Count: count, StrideA: m * k, StrideB: k * n, StrideC: m * n})
	want := make([]float32, count*m*n)
	GemmBatchedWith(Blocked, blas.NoTrans, blas.NoTrans, m, n, k, 1, af, k, m*k, bf, n, k*n, 0, want, n, m*n, count)
	for i := range want {
		if !sameBits(p.C[i], want[i]) {
			t.Fatalf("batched half C[%d] = %v; want %v (decoded float32)", i, p.C[i], want[i])
		}
	}
}

func TestGemmHalfErrors(t *testing.T) {
	a := make([]uint16, 6)
	c := make([]float32, 6)
	for _, tc := range []struct {
		name string
		call func()
		want string
	}{
		{"format", func() { GemmHalf(gemm.NoHalf, blas.NoTrans, blas.NoTrans, 1, 1, 1, 1, a, 1, a, 1, 0, c, 1) },
			"f32.GemmHalf: format none is not a 16-bit float"},
		{"short A", func() { GemmHalf(BFloat16, blas.NoTrans, blas.NoTrans, 3, 2, 2, 1, a[:5], 2, a, 2, 0, c, 2) },
			"f32.GemmHalf: len(A) = 5, want at least 6 for a 3x2 matrix with lda = 2"},
		{"short B", func() { GemmHalf(Float16, blas.NoTrans, blas.Trans, 2, 3, 2, 1, a, 2, a[:4], 2, 0, c, 3) },
			"f32.GemmHalf: len(B) = 4, want at least 6 for a 3x2 matrix with ldb = 2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				r := recover()
				var ae *gemm.ArgError
				if err, ok := r.(error); !ok || !errors.As(err, &ae) || !strings.Contains(err.Error(), tc.want) {
					t.Errorf("panic = %v; want *gemm.ArgError containing %q", r, tc.want)
				}
			}()
			tc.call()
		})
	}
}

// TestGemmHalfRoundB checks GemmHalfRoundB against GemmHalfWith on B cast
// first, bit for bit, for every kernel (those that round while packing
// and those that get B cast), both formats, every transpose, 1 and 2
// goroutines, the narrow path, K blocks of the 16-bit kernels, float32
// values that round up, ties and NaNs; and its argument errors.
func TestGemmHalfRoundB(t *testing.T) {
	r := rand.New(rand.NewPCG(91, 92))
	shapes := [][3]int{{1, 1, 1}, {5, 7, 3}, {33, 31, 17}, {70, 100, 64}, {256, 10, 70}, {64, 300, 1100}}
	for _, h := range []Half{BFloat16, Float16} {
		for _, s := range shapes {
			for _, tr := range [][2]bool{{false, false}, {false, true}, {true, false}, {true, true}} {
				m, n, k := s[0], s[1], s[2]
				lda, ldb, ldc := k+r.IntN(3), n+r.IntN(3), n
				if tr[0] {
					lda = m + r.IntN(3)
				}
				if tr[1] {
					ldb = k + r.IntN(3)
				}
				ah, _ := halfData(r, h, max(m, k)*lda, false)
				b := make([]float32, max(k, n)*ldb)
				for i := range b {
					b[i] = float32(r.NormFloat64()) // 24 significant bits: most elements round
					if r.IntN(50) == 0 {
						b[i] = math.Float32frombits(math.Float32bits(b[i])&0xffff0000 | 0x8000) // a bfloat16 tie
					}
				}
				b[r.IntN(len(b))] = float32(math.NaN())
				bh := make([]uint16, len(b))
				if h == BFloat16 {
					half.EncodeBFloat16(bh, b)
				} else {
					half.EncodeFloat16(bh, b)
				}
				for _, kern := range []Kernel{Auto, Naive, Blocked, Gonum, SIMD} {
					if !kern.Available() || (m*n*k > 1<<20 && (kern == Naive || kern == Blocked)) {
						continue
					}
					for _, nt := range []int{1, 2} {
						want, got := make([]float32, m*ldc), make([]float32, m*ldc)
						SetThreads(nt)
						GemmHalfWith(kern, h, transpose(tr[0]), transpose(tr[1]), m, n, k, 1, ah, lda, bh, ldb, 0, want, ldc)
						GemmHalfRoundB(kern, h, transpose(tr[0]), transpose(tr[1]), m, n, k, 1, ah, lda, b, ldb, 0, got, ldc)
						SetThreads(0)
						for i := range want {
							if !sameBits(got[i], want[i]) {
								t.Fatalf("%v %v m=%d n=%d k=%d trans=%v threads=%d: C[%d] = %v rounding B while packed, %v on B cast first",
									kern, h, m, n, k, tr, nt, i, got[i], want[i])
							}
						}
					}
				}
			}
		}
	}
	err := func() (err any) {
		defer func() { err = recover() }()
		var p gemm.Args[float32]
		p = gemm.Args[float32]{Op: "test", M: 1, N: 1, K: 1, Alpha: 1, A: []float32{1}, LDA: 1, B: []float32{1}, LDB: 1, C: []float32{0}, LDC: 1, RoundB: true}
		p.Check()
		return nil
	}()
	if e, ok := err.(*gemm.ArgError); !ok || !strings.Contains(e.Msg, "RoundB rounds a float32 B to the 16-bit format of A") {
		t.Errorf("RoundB without a 16-bit A: %v; want an *ArgError naming the fix", err)
	}
}

// TestGemmHalfSerial checks that GemmHalfSerial gives, bit for bit, what
// GemmHalf gives on one thread (the same kernel: AMX or AVX512_BF16 for
// bfloat16 where the CPU has them), over both formats, every transpose and
// depths below and above an AMX tile's 16 pairs, and that a format that is
// not 16-bit is refused by name.
func TestGemmHalfSerial(t *testing.T) {
	defer SetThreads(SetThreads(1))
	r := rand.New(rand.NewPCG(3, 4))
	for _, h := range []Half{Float16, BFloat16} {
		for _, tr := range [][2]bool{{false, false}, {false, true}, {true, false}, {true, true}} {
			for _, k := range []int{8, 64, 130} {
				m, n, ld := 70, 45, 140
				a, _ := halfData(r, h, ld*ld, false)
				b, _ := halfData(r, h, ld*ld, false)
				want := make([]float32, m*ld)
				for i := range want {
					want[i] = float32(r.NormFloat64())
				}
				got := append([]float32(nil), want...)
				GemmHalf(h, transpose(tr[0]), transpose(tr[1]), m, n, k, 0.5, a, ld, b, ld, 2, want, ld)
				if err := GemmHalfSerial(h, tr[0], tr[1], m, n, k, 0.5, a, ld, b, ld, 2, got, ld); err != nil {
					t.Fatalf("GemmHalfSerial: %v", err)
				}
				for i := range got {
					if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
						t.Fatalf("%v tA=%v tB=%v k=%d: c[%d] = %v; GemmHalf on one thread gives %v", h, tr[0], tr[1], k, i, got[i], want[i])
					}
				}
			}
		}
	}
	defer func() {
		e, ok := recover().(*gemm.ArgError)
		if !ok || !strings.Contains(e.Error(), "f32.GemmHalfSerial") || !strings.Contains(e.Error(), "16-bit") {
			t.Fatalf("GemmHalfSerial with format none panicked with %v; want a *gemm.ArgError naming the call and the 16-bit formats", e)
		}
	}()
	GemmHalfSerial(gemm.NoHalf, false, false, 1, 1, 1, 1, []uint16{0}, 1, []uint16{0}, 1, 0, []float32{0}, 1)
}
