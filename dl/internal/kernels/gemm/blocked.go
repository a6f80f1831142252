package gemm

// minParallelFlops: below this much work a second goroutine costs more
// (wake-up, duplicated packing) than it saves.
const minParallelFlops = 2 * 64 * 64 * 64

// Blocked computes C = alpha*op(A)*op(B) + beta*C with the GotoBLAS/BLIS
// five-loop algorithm around the micro-kernel mk, on up to nt goroutines.
// The caller has run p.Check.
//
//	for jc in N step NC          B panel of NC columns    (L3)
//	  for pc in K step KC        pack B[KC x NC] once
//	    for ic in M step MC      pack A[MC x KC]          (L2)
//	      for ir in MC step MR   A micro-panel MR x KC    (L1)
//	        for jr in NC step NR   B micro-panels stream from L2/L3
//	          micro-kernel: C[MR x NR] = alpha*Apanel*Bpanel + beta*C
func Blocked[T Float](mk *MicroKernel[T], nt int, p *Args[T]) {
	if p.Trivial() {
		return
	}
	if 2*p.M*p.N*p.K < minParallelFlops {
		nt = 1
	}
	// Split C into nt independent blocks, one per goroutine; each worker
	// runs the whole algorithm on its block with private buffers, so they
	// never synchronise.  Split along M (row blocks, every worker packs all
	// of B) or N (column blocks, every worker packs all of A), whichever
	// gives the largest block the fewest padded tiles: at n = 256, 19 MR=14
	// row tiles split 10/9 but 8 NR=32 column tiles split 4/4.
	tm, tn := ceilDiv(p.M, mk.MR), ceilDiv(p.N, mk.NR)
	nt = max(min(nt, max(tm, tn)), 1)
	if nt == 1 {
		serial(mk, p, 0, p.M, 0, p.N)
		return
	}
	splitN := ceilDiv(tn, nt)*mk.NR*tm*mk.MR < ceilDiv(tm, nt)*mk.MR*tn*mk.NR
	tiles := tm
	if splitN {
		tiles = tn
	}
	nt = min(nt, tiles)
	parallel(nt, func(t int) {
		lo, hi := tiles*t/nt, tiles*(t+1)/nt
		if splitN {
			serial(mk, p, 0, p.M, lo*mk.NR, min(hi*mk.NR, p.N))
		} else {
			serial(mk, p, lo*mk.MR, min(hi*mk.MR, p.M), 0, p.N)
		}
	})
}

// serial computes rows [m0,m1) x columns [n0,n1) of C on one goroutine.
func serial[T Float](mk *MicroKernel[T], p *Args[T], m0, m1, n0, n1 int) {
	ws := getWorkspace(mk, min(mk.NC, ceilDiv(n1-n0, mk.NR)*mk.NR))
	defer putWorkspace(ws)
	for jc := n0; jc < n1; jc += mk.NC {
		nc := min(mk.NC, n1-jc)
		for pc := 0; pc < p.K; pc += mk.KC {
			kc := min(mk.KC, p.K-pc)
			mk.packB(ws.b, p, pc, jc, kc, nc)
			// The first K block applies the caller's beta; later ones add.
			beta := T(1)
			if pc == 0 {
				beta = p.Beta
			}
			for ic := m0; ic < m1; ic += mk.MC {
				mc := min(mk.MC, m1-ic)
				mk.packA(ws.a, p, ic, pc, mc, kc)
				macroKernel(mk, ws, p, ic, jc, mc, nc, kc, beta)
			}
		}
	}
}

// macroKernel sweeps the micro-kernel over one packed MC x NC block.  The
// ir loop is outside: one A micro-panel (MR x KC, 14 KiB for float32) stays
// in L1 while the B micro-panels of the panel stream through from L2/L3 in
// address order, which the hardware prefetcher follows.  (BLIS keeps the
// B micro-panel in L1 instead, with jr outside; at KC=256 and NR=32 that
// panel is 32 KiB, all of Zen 4's L1, and this order measured 2-9% faster
// at n = 1024..2048 on one core.)
func macroKernel[T Float](mk *MicroKernel[T], ws *workspace[T], p *Args[T], ic, jc, mc, nc, kc int, beta T) {
	mr, nr, ldc := mk.MR, mk.NR, p.LDC
	for ir := 0; ir < mc; ir += mr {
		mb := min(mr, mc-ir)
		ap := &ws.a[ir*kc]
		for jr := 0; jr < nc; jr += nr {
			nb := min(nr, nc-jr)
			bp := &ws.b[jr*kc]
			if mb == mr && nb == nr {
				mk.Fn(kc, ap, bp, &p.C[(ic+ir)*ldc+jc+jr], ldc, p.Alpha, beta)
				continue
			}
			// Edge tile: compute the full padded tile into scratch (the
			// packed panels are zero-padded), then update the valid part.
			t := ws.tile
			mk.Fn(kc, ap, bp, &t[0], nr, 1, 0)
			for i := 0; i < mb; i++ {
				crow := p.C[(ic+ir+i)*ldc+jc+jr:][:nb]
				for j, v := range t[i*nr : i*nr+nb] {
					crow[j] = update(v, crow[j], p.Alpha, beta)
				}
			}
		}
	}
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }
