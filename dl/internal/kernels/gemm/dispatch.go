package gemm

import (
	"fmt"
	"runtime"
	"strconv"
	"sync/atomic"

	"github.com/dlbd/dlbd/dl/internal/cancel"
)

// The kernel numbers shared by the f32.Kernel and f64.Kernel enums.
const (
	KernelAuto = iota
	KernelNaive
	KernelBlocked
	KernelGonum
	KernelSIMD
)

var kernelNames = [...]string{"auto", "naive", "blocked", "gonum", "simd"}

// KernelName returns the name of kernel number k ("auto", "naive",
// "blocked", "gonum", "simd"), or "Kernel(k)" for an unknown number.
func KernelName(k int) string {
	if k >= 0 && k < len(kernelNames) {
		return kernelNames[k]
	}
	return "Kernel(" + strconv.Itoa(k) + ")"
}

// Kernels is the set of code paths of one element type, as a dtype
// package (f32, f64) assembles it.
type Kernels[T Float] struct {
	Go   *MicroKernel[T]   // portable micro-kernel, used by Blocked
	SIMD []*MicroKernel[T] // assembly micro-kernels this CPU runs, best first
	// BF16, when set, is the SIMD micro-kernel for BFloat16 operands: a
	// dot-product instruction on pairs of steps (AVX512_BF16) or tiles
	// (AMX), with its own packing, faster than the float32 kernel; not
	// bit-identical to the float32 product of the decoded operands (see
	// f32's micro_bf16.go and micro_amx_amd64.go).
	BF16 *MicroKernel[T]
	// Tiles are SIMD micro-kernels as fast as SIMD[0] on whole tiles but
	// with other tile shapes: a product of T operands takes the one whose
	// tiles cover it with clearly less padding (see simd).
	Tiles []*MicroKernel[T]
	Gonum func(p *Args[T]) // gonum's BLAS on checked arguments
	nt    atomic.Int32     // SetThreads value; 0: GOMAXPROCS
}

// SetThreads sets the goroutines per call; n <= 0 restores GOMAXPROCS.
// It returns the previous setting (0: GOMAXPROCS), for a caller to restore.
func (ks *Kernels[T]) SetThreads(n int) int { return int(ks.nt.Swap(int32(max(n, 0)))) }

// Threads returns the goroutines a call uses.
func (ks *Kernels[T]) Threads() int {
	n := int(ks.nt.Load())
	if n <= 0 {
		n = runtime.GOMAXPROCS(0)
	}
	if n > 1 && dynamicThreads.Load() {
		return min(n, freeCores(runtime.NumCPU()))
	}
	return n
}

// Available reports whether kernel number k runs here.
func (ks *Kernels[T]) Available(k int) bool {
	switch k {
	case KernelAuto, KernelNaive, KernelBlocked, KernelGonum:
		return true
	case KernelSIMD:
		return len(ks.SIMD) > 0
	}
	return false
}

// Run checks p and computes it with kernel number k (Auto: SIMD when
// available, else Blocked).  It panics with an *ArgError on bad arguments
// or an unavailable kernel, and with a *cancel.Stopped when the context of
// dl.SetCancel is done before C is complete (every kernel checks it
// between pieces of work: macro-blocks, rows, bands of rows).
func (ks *Kernels[T]) Run(k int, p *Args[T]) {
	p.Check()
	if k == KernelAuto {
		k = KernelBlocked
		if len(ks.SIMD) > 0 {
			k = KernelSIMD
		}
	}
	if p.RoundB && (k == KernelNaive || k == KernelGonum) { // they read 16-bit B only
		q := p.roundedB()
		p = &q
	}
	if p.hasEpilogue() && (k == KernelNaive || k == KernelGonum) { // they write C only
		p.withEpilogue(ks.Go, func(q *Args[T]) error {
			ks.Run(k, q)
			return nil
		})
		return
	}
	switch k {
	case KernelNaive:
		if !p.Trivial() {
			Naive(p)
		}
	case KernelBlocked:
		Blocked(ks.Go, ks.Threads(), p)
	case KernelGonum:
		if p.Half != NoHalf { // gonum reads only T
			q := p.decoded()
			ks.gonumPieces(&q)
			return
		}
		ks.gonumPieces(p)
	case KernelSIMD:
		if len(ks.SIMD) == 0 {
			p.fail("kernel simd is not available on this machine (%s, or built with -tags dlbd_noasm); check Kernel.Available or use Auto", runtime.GOARCH)
		}
		Blocked(ks.simd(p), ks.Threads(), p)
	default:
		p.fail("unknown kernel %s; use Auto, Naive, Blocked, Gonum or SIMD", KernelName(k))
	}
}

// gonumPiece is the work (flops) of one piece of a gonum call: about
// 50 ms at gonum's ~20 GFLOP/s on two cores.
const gonumPiece = 1 << 30

// gonumPieces runs gonum's BLAS on bands of rows of C, checking the
// context of dl.SetCancel between bands: gonum cannot be stopped inside a
// call.  Bands of at least 64 rows keep its own blocking intact.
func (ks *Kernels[T]) gonumPieces(p *Args[T]) {
	flopsPerRow := 2 * p.N * p.K
	rows := p.M
	if flopsPerRow > 0 {
		rows = min(p.M, max(64, gonumPiece/flopsPerRow))
	}
	if rows >= p.M {
		ks.Gonum(p)
		return
	}
	for i := 0; i < p.M; i += rows {
		cancel.Check(p.Op)
		q := p.rows(i, min(i+rows, p.M))
		ks.Gonum(&q)
	}
}

// rows returns the product restricted to rows [i0, i1) of C.
func (p *Args[T]) rows(i0, i1 int) Args[T] {
	q := *p
	q.M = i1 - i0
	q.C = p.C[i0*p.LDC:]
	if p.TransA { // A is stored k x m: row i of op(A) is column i
		q.A = p.A[i0:]
	} else {
		q.A = p.A[i0*p.LDA:]
	}
	return q
}

// simd returns the SIMD micro-kernel for p: BF16 for bfloat16 operands
// when there is one and its packing fits p's depth; else, for T operands,
// the kernel of Tiles whose tiles cover p with at most 19/20 of the padded
// area of SIMD[0]'s (a 16-row product on 14-row tiles computes 28 rows,
// on 8-row tiles 16; near ties stay with SIMD[0]); else SIMD[0].  The choice depends on p's shape only,
// never on the threads, and every kernel sums each element in the same
// order, so the result is the same whichever runs.
func (ks *Kernels[T]) simd(p *Args[T]) *MicroKernel[T] {
	if p.Half == BFloat16 && ks.BF16 != nil && ks.BF16.fits(p.K) {
		return ks.BF16
	}
	best := ks.SIMD[0]
	if p.Half != NoHalf || narrow(best, p) {
		return best
	}
	area := best.paddedArea(p)
	for _, mk := range ks.Tiles {
		if a := mk.paddedArea(p); 20*a <= 19*area && !narrow(mk, p) {
			best, area = mk, a
		}
	}
	return best
}

// paddedArea is the number of elements of C that mk's whole tiles compute
// for p.
func (mk *MicroKernel[T]) paddedArea(p *Args[T]) int {
	return ceilDiv(p.M, mk.MR) * mk.MR * ceilDiv(p.N, mk.NR) * mk.NR
}

// SIMDKernel returns the name of the SIMD micro-kernel that runs a
// product of depth k with operands stored as h, or "" without SIMD.
func (ks *Kernels[T]) SIMDKernel(h Half, k int) string {
	return ks.SIMDKernelShape(h, 0, 0, k)
}

// SIMDKernelShape returns the name of the SIMD micro-kernel that runs an
// m x n product of depth k with operands stored as h, or "" without SIMD.
func (ks *Kernels[T]) SIMDKernelShape(h Half, m, n, k int) string {
	if len(ks.SIMD) == 0 {
		return ""
	}
	return ks.simd(&Args[T]{Half: h, M: m, N: n, K: k}).Name
}

// Trans converts a BLAS transpose byte ('N', 'T' or 'C'; blas.Transpose
// values) to "transposed?", panicking with an *ArgError naming op and the
// argument on any other value.  'C' (conjugate transpose) is the transpose
// for real matrices, as in gonum.
func Trans(op, name string, t byte) bool {
	switch t {
	case 'N':
		return false
	case 'T', 'C':
		return true
	}
	panic(&ArgError{Op: op, Msg: fmt.Sprintf("%s = %q is not a blas.Transpose; use blas.NoTrans or blas.Trans", name, rune(t))})
}
