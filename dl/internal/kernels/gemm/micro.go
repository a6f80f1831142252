package gemm

import "unsafe"

// MicroKernel describes one register-blocked micro-kernel and the cache
// blocking tuned for it.
//
// Fn computes, for the MR x NR tile of C at c (row stride ldc elements),
//
//	acc[i][j] = Σ_{p<k} a[p*MR+i] * b[p*NR+j]      (packed panels, see pack.go)
//	c[i*ldc+j] = alpha*acc[i][j] + beta*c[i*ldc+j]
//
// and must not read c when beta == 0 (that is how BLAS's "C is not read"
// rule survives blocking: only the first K block passes the caller's beta,
// later blocks pass 1).
type MicroKernel[T Float] struct {
	Name   string
	MR, NR int // tile of C held in registers
	KC     int // depth of a packed block (B micro-panel KC x NR sits in L1)
	MC     int // rows of A per packed block (MC x KC sits in L2)
	NC     int // columns of B per packed panel (KC x NC sits in L3)
	Fn     func(k int, a, b, c *T, ldc int, alpha, beta T)

	// MinDepth, when set, is the least block depth kc the kernel's packing
	// fits in its panels (the AMX kernel pads kc to whole tiles); products
	// whose K would leave a shallower block use another kernel (fits).
	MinDepth int

	// RoundB: the kernel's PackB reads Args.RoundB's float32 B itself
	// (other kernels get B cast first, see Args.roundedB).
	RoundB bool

	// PackA and PackB, when set, replace the reference PackA/PackB (same
	// contract, see pack.go) with faster dtype-specific code.
	PackA func(dst []T, p *Args[T], ic, pc, mc, kc, mr int)
	PackB func(dst []T, p *Args[T], pc, jc, kc, nc, nr int)
	// Store, when set, replaces StoreTile (same contract: the epilogue of
	// a block of at most NR columns, see epilogue.go) with faster
	// dtype-specific code.
	Store func(p *Args[T], t *T, ldt, i0, j0, mb, nb int)
}

// fits reports whether every K block of a product of depth k is at least
// mk.MinDepth deep (blockDepth's blocks are equal but for the last).
func (mk *MicroKernel[T]) fits(k int) bool {
	if mk.MinDepth == 0 || k == 0 { // k = 0 has no block (and no product)
		return true
	}
	d := blockDepth(k, mk.KC)
	last := k - (ceilDiv(k, d)-1)*d
	return min(d, last) >= mk.MinDepth
}

func (mk *MicroKernel[T]) packA(dst []T, p *Args[T], ic, pc, mc, kc int) {
	if mk.PackA != nil {
		mk.PackA(dst, p, ic, pc, mc, kc, mk.MR)
		return
	}
	PackA(dst, p, ic, pc, mc, kc, mk.MR)
}

func (mk *MicroKernel[T]) packB(dst []T, p *Args[T], pc, jc, kc, nc int) {
	if mk.PackB != nil {
		mk.PackB(dst, p, pc, jc, kc, nc, mk.NR)
		return
	}
	PackB(dst, p, pc, jc, kc, nc, mk.NR)
}

// GoMicroKernel returns the portable micro-kernel: plain Go, no SIMD (gc
// does not auto-vectorise).  The 2x4 tile keeps its 8 accumulators, 4 B
// values and 2 A values in the 15 usable XMM registers (X15 is reserved by
// the register ABI); a 4x4 tile measured half as fast because gc schedules
// all products before the adds and spills them.
func GoMicroKernel[T Float]() *MicroKernel[T] {
	return &MicroKernel[T]{
		Name: "go-2x4", MR: 2, NR: 4,
		KC: 256, MC: 128, NC: 4096,
		Fn: micro2x4[T],
	}
}

// micro2x4 is the reference micro-kernel: the loop every assembly kernel
// implements, with MR=2, NR=4.
func micro2x4[T Float](k int, a, b, c *T, ldc int, alpha, beta T) {
	ap := unsafe.Slice(a, 2*k)
	bp := unsafe.Slice(b, 4*k)
	var c00, c01, c02, c03 T
	var c10, c11, c12, c13 T
	for p := 0; p < k; p++ {
		// Constant-length slices let the compiler drop bounds checks.
		av := ap[p*2 : p*2+2 : p*2+2]
		bv := bp[p*4 : p*4+4 : p*4+4]
		b0, b1, b2, b3 := bv[0], bv[1], bv[2], bv[3]
		a0, a1 := av[0], av[1]
		c00 += a0 * b0
		c01 += a0 * b1
		c02 += a0 * b2
		c03 += a0 * b3
		c10 += a1 * b0
		c11 += a1 * b1
		c12 += a1 * b2
		c13 += a1 * b3
	}
	cs := unsafe.Slice(c, ldc+4)
	r0, r1 := cs[0:4:4], cs[ldc:ldc+4:ldc+4]
	acc := [8]T{c00, c01, c02, c03, c10, c11, c12, c13}
	for j := range 4 {
		r0[j] = update(acc[j], r0[j], alpha, beta)
		r1[j] = update(acc[4+j], r1[j], alpha, beta)
	}
}

// update returns alpha*acc + beta*c, without reading c's value when
// beta == 0 (so a NaN there does not propagate).
func update[T Float](acc, c, alpha, beta T) T {
	if beta == 0 {
		return alpha * acc
	}
	return alpha*acc + beta*c
}
