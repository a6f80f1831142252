package gemm

import (
	"fmt"
	"sync/atomic"

	"github.com/dlbd/dlbd/dl/internal/cancel"
)

// Batched holds the extra arguments of a strided batched product:
// for i < Count, C_i = alpha*op(A_i)*op(B_i) + beta*C_i with
// X_i = X[i*StrideX:], like cublasSgemmStridedBatched and torch.bmm.
// A stride of 0 reuses the same operand for every item (a broadcast
// weight); StrideC must separate the items of C.
type Batched struct {
	Count                     int
	StrideA, StrideB, StrideC int
}

// item returns the arguments of item i (sub-slices of p's operands).
func (p *Args[T]) item(bt Batched, i int) Args[T] {
	q := *p
	q.A = p.A[min(i*bt.StrideA, len(p.A)):]
	q.B = p.B[min(i*bt.StrideB, len(p.B)):]
	q.C = p.C[min(i*bt.StrideC, len(p.C)):]
	if p.Half != NoHalf {
		q.AH = p.AH[min(i*bt.StrideA, len(p.AH)):]
		q.BH = p.BH[min(i*bt.StrideB, len(p.BH)):]
	}
	return q
}

// checkBatched panics with an *ArgError unless every item is a valid
// product and the items of C do not overlap.
func (p *Args[T]) checkBatched(bt Batched) {
	if bt.Count < 0 || bt.StrideA < 0 || bt.StrideB < 0 || bt.StrideC < 0 {
		p.fail("negative batch count or stride (count %d, strides %d, %d, %d)", bt.Count, bt.StrideA, bt.StrideB, bt.StrideC)
	}
	if bt.Count == 0 {
		return
	}
	if need := (p.M-1)*p.LDC + p.N; bt.Count > 1 && p.M > 0 && p.N > 0 && bt.StrideC < need {
		p.fail("strideC = %d is less than %d, the extent of one %dx%d C with ldc = %d: the items would overlap",
			bt.StrideC, need, p.M, p.N, p.LDC)
	}
	last := p.item(bt, bt.Count-1) // the last item reaches furthest
	last.Op = fmt.Sprintf("%s (batch item %d)", p.Op, bt.Count-1)
	last.Check()
	p.Check()
}

// RunBatched checks p and bt and computes the batch with kernel number k.
// Items too small to be worth splitting (like the heads of an attention
// layer), or as many as 4 per goroutine or more (the samples of a
// convolution's chunk), are spread over the goroutines, one whole item
// each: no item waits for a split between goroutines, and the last round
// leaves at most a quarter of the work to fewer goroutines.  Fewer larger
// items run one after another, each on all goroutines.  Either way each
// element of C is summed in the same order.
func (ks *Kernels[T]) RunBatched(k int, p *Args[T], bt Batched) {
	p.checkBatched(bt)
	nt := ks.Threads()
	spread := 2*p.M*p.N*p.K < 8*minParallelFlops || bt.Count >= 4*nt
	if k == KernelNaive || k == KernelGonum || nt == 1 || bt.Count == 1 || !spread {
		for i := 0; i < bt.Count; i++ {
			q := p.item(bt, i)
			ks.Run(k, &q)
		}
		return
	}
	if k == KernelAuto {
		k = KernelBlocked
		if len(ks.SIMD) > 0 {
			k = KernelSIMD
		}
	}
	mk := ks.Go
	if k == KernelSIMD {
		if len(ks.SIMD) == 0 {
			ks.Run(k, p) // panics with the "not available" message
		}
		mk = ks.simd(p)
	} else if k != KernelBlocked {
		ks.Run(k, p) // panics with the "unknown kernel" message
	}
	// Items run on helper goroutines, which must not panic: blocked
	// returns the context's error, and the gang stops the others.
	var (
		next, done atomic.Int32
		g          gang
		complete   bool
	)
	items := int32(bt.Count)
	work := func() {
		for i := next.Add(1) - 1; i < items; i = next.Add(1) - 1 {
			if g.stopped() {
				return
			}
			q := p.item(bt, int(i))
			if err := blocked(mk, 1, &q); err != nil {
				g.halt(err)
				return
			}
			g.arrive(&done, items)
		}
	}
	goParallel(min(nt, bt.Count)-1, func() {
		if g.enter() {
			work()
		}
		g.leave()
	}, func() {
		work()
		complete = g.wait(&done, items)
	})
	if !complete {
		g.quiesce()
		panic(&cancel.Stopped{Op: p.Op, Err: g.cause()})
	}
}
