package reduce

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"
)

var lengths = []int{0, 1, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129, 1023, 1024, 1025, 4099}

const guard = 3

// padded returns a slice of length l at element offset shift inside a
// larger slice whose guard cells hold NaN, and a check that they still do.
func padded[T Float](rng *rand.Rand, l, shift int) ([]T, func(t *testing.T, what string)) {
	all := make([]T, l+2*guard+shift)
	for i := range all {
		all[i] = T(math.NaN())
	}
	s := all[guard+shift : guard+shift+l]
	for i := range s {
		s[i] = T(rng.IntN(2001)-1000) / 8
	}
	return s, func(t *testing.T, what string) {
		t.Helper()
		for i, v := range all {
			if (i < guard+shift || i >= guard+shift+l) && v == v {
				t.Fatalf("%s: guard violated at %d: %v", what, i, v)
			}
		}
	}
}

func testCombine[T Float](t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, l := range lengths {
		for _, shift := range []int{0, 1, 3} {
			for _, op := range []Op{Sum, Prod, Max, Min} {
				for _, div := range []T{0, 3} {
					name := fmt.Sprintf("len=%d/shift=%d/op=%d/div=%v", l, shift, op, div)
					dst, chk := padded[T](rng, l, shift)
					src, _ := padded[T](rng, l, 0)
					want := append([]T(nil), dst...)
					CombineGo(want, src, op, div)
					Combine(dst, src, op, div)
					for i := range dst {
						if dst[i] != want[i] {
							t.Fatalf("Combine %s: [%d] = %v; want %v", name, i, dst[i], want[i])
						}
					}
					chk(t, name)
				}
			}
		}
	}
}

func TestCombine(t *testing.T) {
	t.Run("dtype=float32", testCombine[float32])
	t.Run("dtype=float64", testCombine[float64])
}

func testFused[T Float](t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{1, 2, 3, 8} {
		for _, l := range lengths {
			for _, op := range []Op{Sum, Max} {
				for _, div := range []T{0, T(n)} {
					name := fmt.Sprintf("n=%d/len=%d/op=%d/div=%v", n, l, op, div)
					bufs := make([][]T, n)
					chks := make([]func(*testing.T, string), n)
					want := make([][]T, n)
					ptrs := make([]unsafe.Pointer, n)
					for k := range bufs {
						bufs[k], chks[k] = padded[T](rng, l, k%3)
						want[k] = append([]T(nil), bufs[k]...)
						if l > 0 {
							ptrs[k] = unsafe.Pointer(&bufs[k][0])
						}
					}
					// Two calls over two halves, with an offset that is not a
					// multiple of the stripe, exercise off and the Go tail.
					FusedGo(want, 0, l, op, div)
					h := l / 3
					Fused(bufs, ptrs, 0, h, op, div)
					Fused(bufs, ptrs, h, l-h, op, div)
					for k := range bufs {
						for i := range bufs[k] {
							if bufs[k][i] != want[k][i] {
								t.Fatalf("Fused %s: buf %d [%d] = %v; want %v", name, k, i, bufs[k][i], want[k][i])
							}
						}
						chks[k](t, name)
					}
				}
			}
		}
	}
}

func TestFused(t *testing.T) {
	t.Run("dtype=float32", testFused[float32])
	t.Run("dtype=float64", testFused[float64])
}

// TestFusedOrder checks that the sum is taken in buffer order 0..n-1 (so every
// rank gets the same bits no matter who runs the kernel): with these values
// another order would round differently.
func TestFusedOrder(t *testing.T) {
	l := 256
	vals := []float32{1, 1e8, -1e8, 1}
	bufs := make([][]float32, len(vals))
	ptrs := make([]unsafe.Pointer, len(vals))
	for k, v := range vals {
		bufs[k] = make([]float32, l)
		for i := range bufs[k] {
			bufs[k][i] = v
		}
		ptrs[k] = unsafe.Pointer(&bufs[k][0])
	}
	Fused(bufs, ptrs, 0, l, Sum, 0)
	a, b := vals[0], vals[1]
	want := ((a + b) - b) + a // = 1 (1+1e8 rounds to 1e8); the order 1e8-1e8+1+1 gives 2
	for k := range bufs {
		if bufs[k][0] != want || bufs[k][l-1] != want {
			t.Fatalf("Fused order: buf %d = %v; want %v", k, bufs[k][0], want)
		}
	}
}

func TestDouble(t *testing.T) {
	x := []float32{1, 2, 3}
	Double(x)
	if x[0] != 2 || x[1] != 4 || x[2] != 6 {
		t.Fatalf("Double = %v; want [2 4 6]", x)
	}
	t.Logf("AVX-512 kernels: %v", HasAVX512())
}

func TestFlushCache(t *testing.T) {
	x := []float64{1, 2, 3}
	ok := FlushCache(x)
	if x[0] != 1 || x[2] != 3 {
		t.Fatal("FlushCache changed the data")
	}
	t.Logf("FlushCache available: %v", ok)
}
