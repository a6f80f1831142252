package gemmtest

import (
	"math/rand/v2"
	"runtime"
	"sync"
	"testing"
	"unsafe"

	"github.com/dlbd/dlbd/dl/internal/kernels/gemm"
)

// GemmFunc is a dtype package's GemmWith with its kernel already chosen.
type GemmFunc[T gemm.Float] func(tA, tB bool, m, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int)

// Bench times C = op(A)·op(B) (alpha 1, beta 0) with gemm on th
// goroutines: setThreads(th) and GOMAXPROCS = th, so that gonum's own
// parallelism and the runtime's helpers are held to the same cores.  It
// reports GFLOP/s = 2mnk/t and sets bytes to the operands' size.
func Bench[T gemm.Float](b *testing.B, gemm GemmFunc[T], setThreads func(int) int, tA, tB bool, m, n, k, th int) {
	a, bm, c := randSlice[T](m*k, 1), randSlice[T](k*n, 2), make([]T, m*n)
	lda, ldb := lds(tA, tB, m, n, k)
	var z T
	b.SetBytes(int64(unsafe.Sizeof(z)) * int64(m*k+k*n+m*n))
	timeFlops(b, setThreads, th, 2*float64(m)*float64(n)*float64(k), func() {
		gemm(tA, tB, m, n, k, 1, a, lda, bm, ldb, 0, c, n)
	})
}

// lds returns the leading dimensions of op(A) (m x k) and op(B) (k x n)
// stored densely.
func lds(tA, tB bool, m, n, k int) (lda, ldb int) {
	lda, ldb = k, n
	if tA {
		lda = m
	}
	if tB {
		ldb = k
	}
	return lda, ldb
}

// timeFlops runs fn once to warm up buffers and caches, then times it on
// th threads (GOMAXPROCS and setThreads) and reports GFLOP/s.
func timeFlops(b *testing.B, setThreads func(int) int, th int, flops float64, fn func()) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(th))
	defer setThreads(0)
	setThreads(th)
	fn()
	b.ResetTimer()
	for b.Loop() {
		fn()
	}
	b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
}

// randCache keeps benchmark operands between the calls testing.B makes
// of one benchmark function (b.N = 1, then the real run): filling 4M
// normal numbers costs more than the n = 2048 product being timed.
var randCache sync.Map // randKey -> []T

type randKey struct {
	size, seed, elem int
}

// randSlice returns size normal numbers, the same for the same arguments;
// callers must not modify it.
func randSlice[T gemm.Float](size, seed int) []T {
	var z T
	key := randKey{size, seed, int(unsafe.Sizeof(z))}
	if s, ok := randCache.Load(key); ok {
		return s.([]T)
	}
	r := rand.New(rand.NewPCG(uint64(size), uint64(seed)))
	s := make([]T, size)
	for i := range s {
		s[i] = T(r.NormFloat64())
	}
	randCache.Store(key, s)
	return s
}

// MLPShapes are the products of one training step of the MLP
// 784-1024-1024-10 at batch 256 (y = x·Wᵀ forward; dX = dY·W and
// dW = dYᵀ·X backward): the shapes dl's autograd sends to the kernels.
// Op is "NN", "NT" or "TN" (N: as stored, T: transposed).
var MLPShapes = []struct {
	Op      string
	M, N, K int
}{
	{"NT", 256, 1024, 784},  // layer 1 forward
	{"NT", 256, 1024, 1024}, // layer 2 forward
	{"NT", 256, 10, 1024},   // layer 3 forward
	{"NN", 256, 1024, 10},   // layer 3 backward, dX
	{"TN", 10, 1024, 256},   // layer 3 backward, dW
	{"NN", 256, 1024, 1024}, // layer 2 backward, dX
	{"TN", 1024, 1024, 256}, // layer 2 backward, dW
	{"TN", 1024, 784, 256},  // layer 1 backward, dW
	{"NT", 1024, 1024, 1024},
	{"TN", 1024, 1024, 1024},
	{"TT", 1024, 1024, 1024},
}

// SquareSizes are the n of BenchmarkGemm.
var SquareSizes = []int{64, 128, 256, 512, 1024, 2048}

// BatchedShapes are the shapes of BenchmarkGemmBatched: many small items
// and the attention scores Q·Kᵀ of 16 heads (sequence 256, head size 64).
var BatchedShapes = []struct {
	Op             string
	Count, M, N, K int
}{
	{"NN", 32, 64, 64, 64},
	{"NT", 16, 256, 256, 64},
}

// BenchBatched times a strided batched product on th goroutines,
// reporting GFLOP/s = 2·count·mnk/t.
func BenchBatched[T gemm.Float](b *testing.B, batched func(tA, tB bool, m, n, k int, a []T, lda, sa int, bm []T, ldb, sb int, c []T, ldc, sc, count int), setThreads func(int) int, tA, tB bool, count, m, n, k, th int) {
	a, bm, c := randSlice[T](count*m*k, 1), randSlice[T](count*k*n, 2), make([]T, count*m*n)
	lda, ldb := lds(tA, tB, m, n, k)
	timeFlops(b, setThreads, th, 2*float64(count*m*n*k), func() {
		batched(tA, tB, m, n, k, a, lda, m*k, bm, ldb, k*n, c, n, m*n, count)
	})
}
