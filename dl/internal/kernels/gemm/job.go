package gemm

import "sync/atomic"

// job is one Blocked call shared by its goroutines.  The (jc, pc) blocks
// are done in order; within a block every goroutine first takes groups of
// B micro-panels to pack into the shared buffer b, waits until all are
// packed, then takes chunks of C (rows x columns) until none are left, and
// waits until all chunks are done before the next block overwrites b.
// The waits are what keeps K blocks of the same C element in order (the
// first applies beta, the later ones add).
//
// Cancellation (dl.SetCancel, see gang): every goroutine polls the
// context before each B group, each chunk and each A micro-panel of a
// chunk (MR x NC x KC of work); once one sees it done all give up, and the caller's
// goroutine waits until no helper is inside run before it reports, so no
// helper writes into C or the shared B block after the call returned.
type job[T Float] struct {
	mk *MicroKernel[T]
	p  *Args[T]
	nt int
	b  []T // packed B block, KC x NC, shared

	kc        int // depth of the K blocks (see blockDepth)
	chunkRows int // rows of C in the largest chunk (a multiple of MR)
	tilesM    int // MR-row tiles of C
	chunksM   int // chunks along M: tilesM shared out as evenly as whole tiles allow
	partsN    int // chunks along N of a block: 1 unless M is short

	blocks []blockState

	gang // cancellation state shared by the goroutines
}

// blockState holds the counters of one (jc, pc) block.
type blockState struct {
	nextB, doneB atomic.Int32 // groups of B micro-panels: handed out, packed
	nextC, doneC atomic.Int32 // chunks of C: handed out, computed
	_            [48]byte     // keep blocks on separate cache lines
}

// bGroup is how many B micro-panels one goroutine packs per turn.
const bGroup = 4

func newJob[T Float](mk *MicroKernel[T], p *Args[T], nt int) *job[T] {
	j := &job[T]{mk: mk, p: p}
	tilesM, tilesN := ceilDiv(p.M, mk.MR), ceilDiv(min(p.N, mk.NC), mk.NR)
	j.nt = max(1, min(nt, tilesM*tilesN))
	// Small chunks keep the goroutines' finishing times close: the last
	// one to finish waits for at most one chunk.  Every chunk runs over the
	// whole B block, so small chunks cost only their hand-out and the
	// packing of fewer rows at a time; a chunk of at most MC rows keeps
	// its packed A in L2.  The tiles are shared out evenly (sizes differ
	// by one tile at most).  For 1024 rows (74 tiles of MR=14) on 2
	// threads, 1024x784x256: chunks of 10 tiles 311, of 5 297, of 3 328,
	// of 1 329 GFLOP/s (medians of 7, interleaved); 1024x1024x1024: 329,
	// 318, 328, 343.
	tilesPer := max(1, min(ceilDiv(tilesM, 64*j.nt), mk.MC/mk.MR))
	j.tilesM = tilesM
	j.chunksM = ceilDiv(tilesM, tilesPer)
	j.chunkRows = ceilDiv(tilesM, j.chunksM) * mk.MR
	// Fewer row tiles than about 4 per goroutine (dW = dYᵀX with 10
	// outputs: one tile; a 40-row product: 3 tiles for 2 goroutines, one
	// of which would wait a third of the time): split N too, into about 4
	// chunks per goroutine.  One goroutine has nothing to balance.
	j.partsN = 1
	if j.nt > 1 && j.chunksM < 4*j.nt {
		j.partsN = min(tilesN, ceilDiv(4*j.nt, j.chunksM))
	}
	j.kc = blockDepth(p.K, mk.KC)
	j.blocks = make([]blockState, ceilDiv(p.N, mk.NC)*ceilDiv(p.K, j.kc))
	return j
}

// blockDepth splits k into K blocks of about kc: as many blocks as k/kc
// rounds to (blocks up to 1.25 kc deep) and of equal depth, rounded up to a
// multiple of 16 (the packing transposes 16 columns at a time).  k = 784
// with KC = 256 gives 3 blocks of 272, 272, 240 instead of 256, 256, 256
// and a 16-deep block that would cost a whole pass (packing, waits) for
// 2% of the work.
func blockDepth(k, kc int) int {
	n := max(1, (k+kc/2)/kc) // round(k/kc)
	if ceilDiv(k, n) > kc+kc/4 {
		n = ceilDiv(k, kc)
	}
	return ceilDiv(ceilDiv(k, n), 16) * 16
}

// maxDepth is the deepest block blockDepth returns for kc.
func maxDepth(kc int) int { return ceilDiv(kc+kc/4, 16)*16 + 16 }

// help is a helper goroutine's part: run, unless the job already gave up.
func (j *job[T]) help(ws *workspace[T]) {
	if j.enter() {
		j.run(ws)
	}
	j.leave()
}

// run is one goroutine's part of the job; ws is its workspace.  It
// returns false if the job gave up (the context is done) before C was
// complete.
func (j *job[T]) run(ws *workspace[T]) bool {
	mk, p := j.mk, j.p
	bi := 0
	for jc := 0; jc < p.N; jc += mk.NC {
		nc := min(mk.NC, p.N-jc)
		panels := ceilDiv(nc, mk.NR)
		groups := int32(ceilDiv(panels, bGroup))
		for pc := 0; pc < p.K; pc += j.kc {
			kc := min(j.kc, p.K-pc)
			blk := &j.blocks[bi]
			bi++
			for g := blk.nextB.Add(1) - 1; g < groups; g = blk.nextB.Add(1) - 1 {
				if j.stopped() {
					return false
				}
				q0 := int(g) * bGroup
				q1 := min(q0+bGroup, panels)
				cols := min(q1*mk.NR, nc) - q0*mk.NR
				mk.packB(j.b[q0*mk.NR*kc:q1*mk.NR*kc], p, pc, jc+q0*mk.NR, kc, cols)
				j.arrive(&blk.doneB, groups)
			}
			if !j.wait(&blk.doneB, groups) {
				return false
			}
			// The first K block applies the caller's beta; later ones add.
			beta := T(1)
			if pc == 0 {
				beta = p.Beta
			}
			chunks := int32(j.chunksM * j.partsN)
			for c := blk.nextC.Add(1) - 1; c < chunks; c = blk.nextC.Add(1) - 1 {
				if j.stopped() {
					return false
				}
				j.chunk(ws, int(c), jc, nc, pc, kc, panels, beta)
				j.arrive(&blk.doneC, chunks)
			}
			if !j.wait(&blk.doneC, chunks) {
				return false
			}
		}
	}
	return true
}

// chunk computes chunk c of block (jc, pc): its rows of A are packed into
// the goroutine's own buffer, its columns are a range of B micro-panels.
func (j *job[T]) chunk(ws *workspace[T], c, jc, nc, pc, kc, panels int, beta T) {
	mk, p := j.mk, j.p
	cm, cn := c/j.partsN, c%j.partsN
	i0 := cm * j.tilesM / j.chunksM * mk.MR
	mc := min((cm+1)*j.tilesM/j.chunksM*mk.MR, p.M) - i0
	q0, q1 := panels*cn/j.partsN, panels*(cn+1)/j.partsN
	n0, n1 := q0*mk.NR, min(q1*mk.NR, nc)
	mk.packA(ws.a, p, i0, pc, mc, kc)
	macroKernel(mk, ws.tile, ws.a, j.b[q0*mk.NR*kc:], p, i0, jc+n0, mc, n1-n0, kc, beta, &j.gang)
}
