package dl

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/dlbd/dlbd/dl/internal/kernels/half"
)

// TestCUDAGemmMatchesCPU runs batched, transposed products in every
// precision against a float64 product of the same inputs, with fresh
// random data and NaN-poisoned outputs. Bounds, as relative error to
// sum_p |a||b| (what rounding can move): fp32 1e-5; TF32, whose inputs
// keep 10 mantissa bits, 2e-3 (~3e-4 seen typically); bf16 and fp16
// inputs, rounded before the reference is computed, 1e-5 (fp32
// accumulation), and bf16 against the unrounded inputs 1e-2.
func TestCUDAGemmMatchesCPU(t *testing.T) {
	dev := needCUDA(t)
	r := rand.New(rand.NewPCG(rand.Uint64(), 7))
	const batch, m, n, k = 2, 67, 45, 131
	for _, tc := range []struct {
		name      string
		in, out   DType
		tf32      bool
		bound     float64 // against the (rounded) inputs
		origBound float64 // against the float32 inputs before rounding
	}{
		{"fp32", Float32, Float32, false, 1e-5, 1e-5},
		{"tf32", Float32, Float32, true, 2e-3, 2e-3},
		{"bf16-to-fp32", BFloat16, Float32, false, 1e-5, 1e-2},
		{"bf16", BFloat16, BFloat16, false, 1e-2, 1e-2}, // C rounded to bf16 too
		{"fp16-to-fp32", Float16, Float32, false, 1e-5, 3e-3},
		{"fp64", Float64, Float64, false, 1e-12, 1e-12},
	} {
		for _, tr := range [][2]bool{{false, false}, {true, false}, {false, true}, {true, true}} {
			t.Run(fmt.Sprintf("type=%s/trans=%v%v", tc.name, tr[0], tr[1]), func(t *testing.T) {
				a, b := make([]float32, batch*m*k), make([]float32, batch*k*n)
				for i := range a {
					a[i] = 2*r.Float32() - 1
				}
				for i := range b {
					b[i] = 2*r.Float32() - 1
				}
				origA, origB := append([]float32(nil), a...), append([]float32(nil), b...)
				da, db := gemmOperand(t, dev, tc.in, a), gemmOperand(t, dev, tc.in, b) // rounds a, b in place
				dc := poisoned(t, dev, tc.out, batch*m*n)
				theCUDA.cudaGemm(dev, cudaGemmArgs{TransA: tr[0], TransB: tr[1], M: m, N: n, K: k, A: da, B: db, C: dc,
					Batch: batch, StrideA: m * k, StrideB: k * n, StrideC: m * n, TF32: tc.tf32})
				got := fetchAsFloat64(t, dev, dc, batch*m*n)
				for _, ref := range []struct {
					a, b  []float32
					bound float64
					what  string
				}{{a, b, tc.bound, "rounded inputs"}, {origA, origB, tc.origBound, "float32 inputs"}} {
					worst := 0.0
					for bi := 0; bi < batch; bi++ {
						for i := 0; i < m; i++ {
							for j := 0; j < n; j++ {
								var sum, scale float64
								for p := 0; p < k; p++ {
									x, y := ref.a[bi*m*k+i*k+p], ref.b[bi*k*n+p*n+j]
									if tr[0] {
										x = ref.a[bi*m*k+p*m+i]
									}
									if tr[1] {
										y = ref.b[bi*k*n+j*k+p]
									}
									sum += float64(x) * float64(y)
									scale += math.Abs(float64(x) * float64(y))
								}
								e := math.Abs(got[bi*m*n+i*n+j]-sum) / scale
								if !(e <= worst) { // NaN (an unwritten output) sticks
									worst = e
								}
							}
						}
					}
					t.Logf("max relative error %.2e against the %s", worst, ref.what)
					if !(worst < ref.bound) {
						t.Errorf("%s: max relative error %.2e against the %s; bound %.0e", tc.name, worst, ref.what, ref.bound)
					}
				}
			})
		}
	}
}

// gemmOperand rounds x to dt in place and uploads it in that format.
func gemmOperand(t *testing.T, dev Device, dt DType, x []float32) cudaArray {
	t.Helper()
	switch dt {
	case Float64:
		d := make([]float64, len(x))
		for i, v := range x {
			d[i] = float64(v)
		}
		return devArray(t, dev, dt, d)
	case Float16, BFloat16:
		h := make([]uint16, len(x))
		if dt == Float16 {
			half.EncodeFloat16(h, x)
			half.DecodeFloat16(x, h)
		} else {
			half.EncodeBFloat16(h, x)
			half.DecodeBFloat16(x, h)
		}
		return devArray(t, dev, dt, h)
	}
	return devArray(t, dev, dt, x)
}

func fetchAsFloat64(t *testing.T, dev Device, a cudaArray, n int) []float64 {
	out := make([]float64, n)
	switch a.dtype {
	case Float64:
		return fetch[float64](t, dev, a, n)
	case Float32:
		for i, v := range fetch[float32](t, dev, a, n) {
			out[i] = float64(v)
		}
	default:
		h := fetch[uint16](t, dev, a, n)
		f := make([]float32, n)
		if a.dtype == Float16 {
			half.DecodeFloat16(f, h)
		} else {
			half.DecodeBFloat16(f, h)
		}
		for i, v := range f {
			out[i] = float64(v)
		}
	}
	return out
}
