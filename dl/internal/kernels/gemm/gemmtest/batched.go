package gemmtest

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/dlbd/dlbd/dl/internal/kernels/gemm"
)

// BatchedFunc is a dtype package's GemmBatchedWith with the kernel as its
// number and the transposes as bytes.
type BatchedFunc[T gemm.Float] func(kern int, tA, tB byte, m, n, k int, alpha T, a []T, lda, strideA int, b []T, ldb, strideB int, beta T, c []T, ldc, strideC int, batch int)

// TestBatched checks a batched API against the float64 truth of every
// item: small items (spread over goroutines) and large ones, padded
// strides, a broadcast operand (stride 0), every kernel.
func TestBatched[T gemm.Float](t *testing.T, api API[T], batched BatchedFunc[T]) {
	r := rand.New(rand.NewPCG(21, 22))
	shapes := [][4]int{{5, 7, 3, 1}, {33, 40, 29, 4}, {64, 64, 64, 9}, {20, 300, 17, 2}}
	if !testing.Short() {
		shapes = append(shapes, [4]int{300, 200, 150, 3})
	}
	for _, s := range shapes {
		m, n, k, count := s[0], s[1], s[2], s[3]
		for _, kern := range publicKernels {
			if !api.Kernels.Available(kern) || kern == gemm.KernelNaive && m*n*k > 1e5 {
				continue
			}
			tA, tB := r.IntN(2) == 0, r.IntN(2) == 0
			beta := []T{0, 1, 0.5}[r.IntN(3)]
			// Items share the shape and leading dimensions of the first.
			items := []*gemm.Args[T]{Rand(r, m, n, k, tA, tB, 1.5, beta)}
			for len(items) < count {
				it := *items[0]
				refill := func(s []T) []T {
					out := make([]T, len(s))
					for i := range out {
						out[i] = T(r.NormFloat64())
						if s[i] != s[i] { // keep the NaN of C when beta == 0
							out[i] = s[i]
						}
					}
					return out
				}
				it.A, it.B, it.C = refill(it.A), refill(it.B), refill(it.C)
				items = append(items, &it)
			}
			shareB := count > 1 && r.IntN(2) == 0
			if shareB {
				for _, it := range items {
					it.B = items[0].B
				}
			}
			// Lay the items out in one slice per operand, strides padded.
			pack := func(get func(*gemm.Args[T]) []T) ([]T, int) {
				stride := len(get(items[0])) + r.IntN(4)
				all := make([]T, stride*count)
				for i, it := range items {
					copy(all[i*stride:], get(it))
				}
				return all, stride
			}
			a, sa := pack(func(p *gemm.Args[T]) []T { return p.A })
			b, sb := pack(func(p *gemm.Args[T]) []T { return p.B })
			if shareB {
				b, sb = items[0].B, 0
			}
			c, sc := pack(func(p *gemm.Args[T]) []T { return p.C })
			p0 := items[0]
			batched(kern, tb(tA), tb(tB), m, n, k, p0.Alpha, a, p0.LDA, sa, b, p0.LDB, sb, beta, c, p0.LDC, sc, count)
			for i, it := range items {
				want, scale := truth(it, it.C)
				got := *it
				c0 := it.C
				got.C = c[i*sc : i*sc+len(it.C)]
				check(t, fmt.Sprintf("batched %s item %d/%d m=%d n=%d k=%d tA=%v tB=%v beta=%v shareB=%v",
					gemm.KernelName(kern), i, count, m, n, k, tA, tB, beta, shareB), &got, c0, want, scale)
			}
		}
	}
	t.Run("overlap", func(t *testing.T) {
		defer func() {
			want := "strideC = 3 is less than 4, the extent of one 2x2 C with ldc = 2"
			if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), want) {
				t.Errorf("panic = %v; want %q", r, want)
			}
		}()
		x := make([]T, 16)
		batched(0, 'N', 'N', 2, 2, 2, 1, x, 2, 4, x, 2, 4, 0, x, 2, 3, 2)
	})
	t.Run("short", func(t *testing.T) {
		defer func() {
			want := "(batch item 2): len(A) = 2, want at least 4"
			if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), want) {
				t.Errorf("panic = %v; want %q", r, want)
			}
		}()
		x := make([]T, 10)
		batched(0, 'N', 'N', 2, 2, 2, 1, x, 2, 4, x, 2, 0, 0, make([]T, 12), 2, 4, 3)
	})
}
