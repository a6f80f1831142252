package gemm

import "sync"

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
//	      for jr in NC step NR   B micro-panel KC x NR    (L1)
//	        for ir in MC step MR
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
	// never synchronise.  Split along M (rows) when there are at least two
	// MR tiles per worker: B, whose packing is a fast copy, is then the
	// operand every worker packs, while A's strided packing is divided.
	splitN := ceilDiv(p.M, mk.MR) < 2*nt && p.N > p.M
	tiles := ceilDiv(p.M, mk.MR)
	if splitN {
		tiles = ceilDiv(p.N, mk.NR)
	}
	nt = max(min(nt, tiles), 1)
	if nt == 1 {
		serial(mk, p, 0, p.M, 0, p.N)
		return
	}
	var wg sync.WaitGroup
	for t := 0; t < nt; t++ {
		lo, hi := tiles*t/nt, tiles*(t+1)/nt
		wg.Go(func() {
			if splitN {
				serial(mk, p, 0, p.M, lo*mk.NR, min(hi*mk.NR, p.N))
			} else {
				serial(mk, p, lo*mk.MR, min(hi*mk.MR, p.M), 0, p.N)
			}
		})
	}
	wg.Wait()
}

// serial computes rows [m0,m1) x columns [n0,n1) of C on one goroutine.
func serial[T Float](mk *MicroKernel[T], p *Args[T], m0, m1, n0, n1 int) {
	ws := getWorkspace(mk, min(mk.NC, ceilDiv(n1-n0, mk.NR)*mk.NR))
	defer putWorkspace(ws)
	for jc := n0; jc < n1; jc += mk.NC {
		nc := min(mk.NC, n1-jc)
		for pc := 0; pc < p.K; pc += mk.KC {
			kc := min(mk.KC, p.K-pc)
			packB(ws.b, p, pc, jc, kc, nc, mk.NR)
			// The first K block applies the caller's beta; later ones add.
			beta := T(1)
			if pc == 0 {
				beta = p.Beta
			}
			for ic := m0; ic < m1; ic += mk.MC {
				mc := min(mk.MC, m1-ic)
				packA(ws.a, p, ic, pc, mc, kc, mk.MR)
				macroKernel(mk, ws, p, ic, jc, mc, nc, kc, beta)
			}
		}
	}
}

// macroKernel sweeps the micro-kernel over one packed MC x NC block.  The
// jr loop is outside so that one B micro-panel (KC x NR) stays in L1 while
// the A micro-panels of the block stream through from L2.
func macroKernel[T Float](mk *MicroKernel[T], ws *workspace[T], p *Args[T], ic, jc, mc, nc, kc int, beta T) {
	mr, nr, ldc := mk.MR, mk.NR, p.LDC
	for jr := 0; jr < nc; jr += nr {
		nb := min(nr, nc-jr)
		bp := &ws.b[jr*kc]
		for ir := 0; ir < mc; ir += mr {
			mb := min(mr, mc-ir)
			ap := &ws.a[ir*kc]
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
