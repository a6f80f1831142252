package gemm

import "github.com/dlbd/dlbd/dl/internal/cancel"

// minParallelFlops: below this much work a second goroutine costs more
// (hand-over, duplicated packing) than it saves.
const minParallelFlops = 2 * 64 * 64 * 64

// Blocked computes C = alpha*op(A)*op(B) + beta*C with the GotoBLAS/BLIS
// five-loop algorithm around the micro-kernel mk, on up to nt goroutines.
// The caller has run p.Check.
//
//	for jc in N step NC            B block: KC x NC, packed once, shared
//	  for pc in K step KC
//	    pack B[pc:pc+KC, jc:jc+NC]            (micro-panels split among workers)
//	    for each chunk of rows (and columns)  (handed out one at a time)
//	      pack A[chunk rows, pc:pc+KC]        (private, stays in L2)
//	      for ir in chunk step MR             A micro-panel MR x KC in L1
//	        for jr in chunk step NR           B micro-panels stream from L2/L3
//	          micro-kernel: C[MR x NR] = alpha*Apanel*Bpanel + beta*C
//
// The goroutines take B micro-panels and then chunks of C from shared
// counters (see job), so a worker that starts late, or runs on a core that
// another process is using, simply takes fewer chunks: nobody waits for a
// fixed share.  The caller's goroutine is one of the workers.
//
// Blocked panics with a *cancel.Stopped naming p.Op if the context given
// to dl.SetCancel is done before C is complete; C is then partly written,
// and every helper goroutine has left the call.
func Blocked[T Float](mk *MicroKernel[T], nt int, p *Args[T]) {
	if err := blocked(mk, nt, p); err != nil {
		panic(&cancel.Stopped{Op: p.Op, Err: err})
	}
}

// blocked is Blocked returning the context's error instead of panicking,
// for callers that run it on helper goroutines (RunBatched).
func blocked[T Float](mk *MicroKernel[T], nt int, p *Args[T]) error {
	if p.hasEpilogue() && !mk.storesTiles(p) {
		return p.withEpilogue(mk, func(q *Args[T]) error { return blocked(mk, nt, q) })
	}
	if p.Trivial() {
		return nil
	}
	if 2*p.M*p.N*p.K < minParallelFlops {
		nt = 1
	}
	transpose := narrow(mk, p)
	if p.RoundB && (!mk.RoundB || transpose) { // transposed swaps A and B: B must be cast
		q := p.roundedB()
		p = &q
	}
	if transpose {
		return transposed(mk, nt, p)
	}
	j := newJob(mk, p, nt)
	ws := getWorkspace(mk, j.chunkRows, min(mk.NC, ceilDiv(p.N, mk.NR)*mk.NR))
	j.b = ws.b // the shared B block
	done := false
	if j.nt > 1 {
		// Workers take their own workspace; the caller does not wait for
		// them to return, only for the work (job.run waits for every
		// chunk), so a worker that the OS preempts right after its last
		// chunk does not stall the call.
		goParallel(j.nt-1, func() {
			w := getWorkspace(mk, j.chunkRows, 0)
			j.help(w)
			putWorkspace(w)
		}, func() { done = j.run(ws) })
	} else {
		done = j.run(ws)
	}
	if !done {
		// Cancelled: helpers may still be inside a chunk, writing into C
		// and reading the shared B block; wait for them to leave.
		j.quiesce()
	}
	putWorkspace(ws)
	if !done {
		return j.cause()
	}
	return nil
}

// transposed computes a product with few columns (n <= NR/2, e.g. the
// logits y = x·Wᵀ of a 10-class layer) as Cᵀ = op(B)ᵀ·op(A)ᵀ into a
// scratch buffer, then adds its transpose into C: tiles of NR=32 columns
// would be mostly padding (10 of 32 columns used), tiles of MR=14 rows
// are not (10 of 14).
func transposed[T Float](mk *MicroKernel[T], nt int, p *Args[T]) error {
	ws := getWorkspace(mk, 0, 0)
	ws.t = aligned(ws.t, p.N*p.M)
	q := Args[T]{Op: p.Op, TransA: !p.TransB, TransB: !p.TransA, M: p.N, N: p.M, K: p.K,
		Alpha: p.Alpha, A: p.B, LDA: p.LDB, B: p.A, LDB: p.LDA, Beta: 0, C: ws.t, LDC: p.M,
		Half: p.Half, AH: p.BH, BH: p.AH}
	if err := blocked(mk, nt, &q); err != nil {
		putWorkspace(ws)
		return err
	}
	for i := 0; i < p.M; i++ {
		crow := p.C[i*p.LDC:][:p.N]
		for j := range crow {
			crow[j] = update(ws.t[j*p.M+i], crow[j], 1, p.Beta)
		}
	}
	putWorkspace(ws)
	return nil
}

// macroKernel runs the micro-kernel over rows [ic, ic+mc) and columns
// [jc, jc+nc) of C, from the packed A chunk a (mc x kc) and the packed B
// micro-panels b (kc x nc).  The ir loop is outside: one A micro-panel
// (MR x KC, 14 KiB for float32) stays in L1 while the B micro-panels
// stream through from L2/L3 in address order, which the hardware
// prefetcher follows.  (BLIS keeps a B micro-panel in L1 instead, jr
// outside; at KC=256 and NR=32 that panel is 32 KiB, all of Zen 4's L1,
// and this order measured 2-9% faster at n = 1024..2048 on one core.)
//
// It polls g (cancellation, see gang) before each A micro-panel, so a
// cancel waits for at most MR x NC x KC of work (29 MFLOP with the AVX-512
// kernel, 4 MFLOP with the portable one), not a whole chunk; a chunk cut
// short leaves C partly written, which a cancelled call allows.
func macroKernel[T Float](mk *MicroKernel[T], tile, a, b []T, p *Args[T], ic, jc, mc, nc, kc int, beta T, g *gang) {
	mr, nr, ldc := mk.MR, mk.NR, p.LDC
	epilogue := p.hasEpilogue()
	for ir := 0; ir < mc; ir += mr {
		if g.stopped() {
			return
		}
		mb := min(mr, mc-ir)
		ap := &a[ir*kc]
		for jr := 0; jr < nc; jr += nr {
			nb := min(nr, nc-jr)
			bp := &b[jr*kc]
			if epilogue { // the whole depth: the tile is the product (storesTiles)
				mk.Fn(kc, ap, bp, &tile[0], nr, p.Alpha, 0)
				mk.store(p, &tile[0], nr, ic+ir, jc+jr, mb, nb)
				continue
			}
			if mb == mr && nb == nr {
				mk.Fn(kc, ap, bp, &p.C[(ic+ir)*ldc+jc+jr], ldc, p.Alpha, beta)
				continue
			}
			// Edge tile: compute the full padded tile into scratch (the
			// packed panels are zero-padded), then update the valid part:
			// copied by mk's Store (masked vector rows) when it is C,
			// else row by row.
			mk.Fn(kc, ap, bp, &tile[0], nr, 1, 0)
			if p.Alpha == 1 && beta == 0 {
				mk.store(p, &tile[0], nr, ic+ir, jc+jr, mb, nb)
				continue
			}
			for i := 0; i < mb; i++ {
				crow := p.C[(ic+ir+i)*ldc+jc+jr:][:nb]
				for j, v := range tile[i*nr : i*nr+nb] {
					crow[j] = update(v, crow[j], p.Alpha, beta)
				}
			}
		}
	}
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }
