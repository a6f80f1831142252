package dl

import (
	"strconv"

	"github.com/dlbd/dlbd/dl/internal/kernels/f32"
	"github.com/dlbd/dlbd/dl/internal/kernels/f64"
	"github.com/dlbd/dlbd/dl/internal/kernels/gemm"
)

// MatMulKernel selects the algorithm behind MatMulWith on host devices.
// All compute the same product (up to floating-point rounding order).
// Course: "De bucles for a operaciones vectorizadas".
type MatMulKernel uint8

// The matmul kernels, slowest first (see dl/internal/kernels/f32).
const (
	MatMulAuto    MatMulKernel = iota // the fastest available (what MatMul uses): SIMD if the CPU has it, else Blocked
	MatMulNaive                       // the course's triple loop (i, j, p), one goroutine
	MatMulBlocked                     // cache blocking and packing (GotoBLAS/BLIS) in portable Go, parallel
	MatMulBLAS                        // gonum's BLAS (pure Go + SSE assembly)
	MatMulSIMD                        // the blocked driver around an AVX-512/AVX2 assembly micro-kernel
)

// String returns "auto", "naive", "blocked", "blas" or "simd".
func (k MatMulKernel) String() string {
	switch k {
	case MatMulAuto:
		return "auto"
	case MatMulNaive:
		return "naive"
	case MatMulBlocked:
		return "blocked"
	case MatMulBLAS:
		return "blas"
	case MatMulSIMD:
		return "simd"
	}
	return "MatMulKernel(" + strconv.Itoa(int(k)) + ")"
}

// Available reports whether k runs on this machine (SIMD needs amd64 with
// AVX-512 or AVX2+FMA and a build without the dlbd_noasm tag).
func (k MatMulKernel) Available() bool { return k <= MatMulSIMD && f32.Kernel(k.gemm()).Available() }

// MatMulKernels returns the kernels available on this machine, slowest
// first, without MatMulAuto.
func MatMulKernels() []MatMulKernel {
	var ks []MatMulKernel
	for k := MatMulNaive; k <= MatMulSIMD; k++ {
		if k.Available() {
			ks = append(ks, k)
		}
	}
	return ks
}

// gemm maps k to the kernel numbers of dl/internal/kernels.
func (k MatMulKernel) gemm() f32.Kernel {
	return [...]f32.Kernel{MatMulAuto: f32.Auto, MatMulNaive: f32.Naive, MatMulBlocked: f32.Blocked,
		MatMulBLAS: f32.Gonum, MatMulSIMD: f32.SIMD}[k]
}

// SetNumThreads sets how many goroutines a matrix multiply, the fused
// attention, the fused LayerNorm, and the elementwise ops, casts and
// optimiser updates of large tensors (32768 elements a goroutine at
// least) use on host devices; n <= 0 restores the default,
// runtime.GOMAXPROCS(0).  What an elementwise op computes for an element
// does not depend on it.  Like torch.set_num_threads.  (gonum's BLAS kernel picks its own.)  It returns
// the previous setting, 0 for the default, so a caller can restore it:
// NumThreads would give the resolved count and pin it.
func SetNumThreads(n int) int {
	f64.SetThreads(n)
	return f32.SetThreads(n)
}

// SetDynamicThreads turns dynamic threads on or off and returns the
// previous setting.  On (the default; DLBD_DYNAMIC_THREADS=0 in the
// environment turns it off), parallel kernels use at most the cores that
// other processes leave free, estimated from /proc/stat on Linux, like
// OpenMP's OMP_DYNAMIC: on a laptop where another program keeps a core
// busy, two goroutines that wait for each other are slower than one.
// NumThreads gives the count in effect; results never depend on it.
func SetDynamicThreads(on bool) bool { return gemm.SetDynamic(on) }

// GEMMKernelName returns the name of the micro-kernel that host matrix
// products of dtype dt run on this machine: "avx512-14x32" or
// "avx2-6x16" for Float32 and Float16 (decoded while packed), their
// float64 versions for Float64, "amx-bf16-32x32" (Intel AMX) or
// "avx512bf16-14x32" (AVX512_BF16 without AMX) for BFloat16 where the
// CPU has them, else the float32 one; "" where only the portable Go
// kernel runs (other architectures, -tags dlbd_noasm).
func GEMMKernelName(dt DType) string {
	switch dt {
	case Float64:
		return f64.SIMDName()
	case BFloat16:
		return f32.HalfKernelName(f32.BFloat16, 1024)
	}
	return f32.SIMDName()
}

// NumThreads returns the goroutines a matrix multiply uses now: the
// setting, or fewer while dynamic threads find other processes on the
// cores (SetDynamicThreads).
func NumThreads() int { return f32.Threads() }

// gemmArgs describes batch products C = alpha*op(A)*op(B) + beta*C on
// row-major views, with gonum's Sgemm conventions per batch.
type gemmArgs struct {
	op                        string // the dl op, for a *CanceledError
	transA, transB            bool
	m, n, k                   int
	alpha, beta               float64
	a, b, c                   view
	lda, ldb, ldc             int
	batch                     int
	strideA, strideB, strideC int // elements between batches (0: shared)
	// bias, when set (host devices, float32 or half operands), is added
	// to every row of C (beta 0); a half C (host devices) receives the
	// product rounded once.
	bias view
}

// gemm runs the product on the CPU backend's kernels, which check the context of
// SetCancel between macro-blocks: their *cancel.Stopped becomes a
// *CanceledError naming g.op.  A half A with a Float32 B (autocast's
// Linear on its float32 weight) rounds B to A's dtype as it is read:
// the product of B cast first, without the copy.  A half C receives the
// float32 accumulation rounded once, tile by tile (gemm.Args.CH), and a
// bias is added to every row as tiles are stored (gemm.Args.Bias).
func (cpuBackend) gemm(k MatMulKernel, g *gemmArgs) {
	defer rethrowStopped(g.op)
	if g.c.st.dtype == Float64 {
		a, b, c := g.a.f64(), g.b.f64(), g.c.f64()
		for i := 0; i < g.batch; i++ {
			p := gemm.Args[float64]{Op: "f64.Gemm", TransA: g.transA, TransB: g.transB, M: g.m, N: g.n, K: g.k,
				Alpha: g.alpha, A: a[i*g.strideA:], LDA: g.lda, B: b[i*g.strideB:], LDB: g.ldb,
				Beta: g.beta, C: c[i*g.strideC:], LDC: g.ldc}
			f64.GemmArgs(f64.Kernel(k.gemm()), &p)
		}
		return
	}
	for i := 0; i < g.batch; i++ {
		p := gemm.Args[float32]{Op: "f32.Gemm", TransA: g.transA, TransB: g.transB, M: g.m, N: g.n, K: g.k,
			Alpha: float32(g.alpha), LDA: g.lda, LDB: g.ldb, Beta: float32(g.beta), LDC: g.ldc}
		if h, ok := gemmHalf[g.a.st.dtype]; ok { // decoded while packed
			p.Half, p.AH = h, g.a.u16()[i*g.strideA:]
			if g.b.st.dtype == Float32 { // rounded to A's dtype while packed
				p.RoundB, p.B = true, g.b.f32()[i*g.strideB:]
			} else {
				p.BH = g.b.u16()[i*g.strideB:]
			}
		} else {
			p.A, p.B = g.a.f32()[i*g.strideA:], g.b.f32()[i*g.strideB:]
		}
		if g.c.st.dtype.IsHalf() {
			p.CH = g.c.u16()[i*g.strideC:]
		} else {
			p.C = g.c.f32()[i*g.strideC:]
		}
		if g.bias.st != nil {
			p.Bias = g.bias.f32()
		}
		f32.GemmArgs(k.gemm(), &p)
	}
}

// releaseOnPanic, deferred by an op with done set on its last line,
// releases the op's output t when the op panicked instead (an interrupted
// GEMM, see SetCancel), so that MemoryStats stay exact.
func releaseOnPanic(t *Tensor, done *bool) {
	if !*done {
		t.Release()
	}
}

// gemmHalf maps the half dtypes to the kernels' formats.
var gemmHalf = map[DType]f32.Half{Float16: f32.Float16, BFloat16: f32.BFloat16}

// accDType is the dtype a product of dt operands accumulates into: dt, or
// Float32 for half operands (rounded to dt once, by finish).
func accDType(dt DType) DType {
	if dt.IsHalf() {
		return Float32
	}
	return dt
}

// gemmOperands returns the operands a product gives the gemm kernel: a
// and b themselves on host devices, whose kernels decode half operands
// while packing; elsewhere float32 copies of half operands (the CUDA
// backend's cublasGemmEx could take them too, but that path has not been
// measured against this one), with the function that releases them.
func gemmOperands(a, b *Tensor) (*Tensor, *Tensor, func()) {
	if !a.dtype.IsHalf() || a.dev.IsHost() {
		return a, b, func() {}
	}
	a32, b32 := compute32(a), compute32(b)
	return a32, b32, func() {
		a32.Release()
		b32.Release()
	}
}

// bmm returns out (shape dims) with out[i] = op(A[i])·op(B[i]) for batch
// i, where op transposes when ta/tb are set: the transposed products of
// autograd go to the kernel as flags and are never materialised.  A is
// m×k (k×m stored when ta), B is k×n (n×k stored when tb); sA and sB are
// the element strides between batches (0: shared).  Half A and B go to
// the kernel as they are (it decodes them while packing, with no float32
// copies) and accumulate into a float32 product rounded once.
func bmm(name string, kern MatMulKernel, ta, tb bool, a, b *Tensor, m, n, k, batch, sA, sB int, dims []int) *Tensor {
	if a.dtype.IsHalf() && a.dev.IsHost() { // rounded as the kernel stores each tile
		return bmmInto(name, kern, ta, tb, a, b, m, n, k, batch, sA, sB, dims, a.dtype)
	}
	return finish(bmmAcc(name, kern, ta, tb, a, b, m, n, k, batch, sA, sB, dims), a.dtype, nil)
}

// bmmAcc is bmm before the final rounding: its result is in accDType(a's
// dtype), Float32 for half operands.
func bmmAcc(name string, kern MatMulKernel, ta, tb bool, a, b *Tensor, m, n, k, batch, sA, sB int, dims []int) *Tensor {
	return bmmInto(name, kern, ta, tb, a, b, m, n, k, batch, sA, sB, dims, accDType(a.dtype))
}

// bmmInto is bmm with a result of dtype dt: accDType(a's dtype), or on
// host devices a's half dtype, into which the kernels round each tile.
func bmmInto(name string, kern MatMulKernel, ta, tb bool, a, b *Tensor, m, n, k, batch, sA, sB int, dims []int, dt DType) *Tensor {
	out := newTensor(name, a.dev, dt, dims)
	a, b, release := gemmOperands(a, b)
	defer release()
	done := false
	defer releaseOnPanic(out, &done)
	if out.n > 0 {
		g := &gemmArgs{op: name, transA: ta, transB: tb, m: m, n: n, k: k, alpha: 1,
			a: a.v(name), b: b.v(name), c: out.v(name), lda: k, ldb: n, ldc: n,
			batch: batch, strideA: sA, strideB: sB, strideC: m * n}
		if ta {
			g.lda = m
		}
		if tb {
			g.ldb = k
		}
		if k == 0 {
			a.k(name).fill(out.v(name), 0)
		} else {
			a.k(name).gemm(kern, g)
		}
	}
	done = true
	return out
}
