//go:build !dlbd_noasm

package f32

import (
	"unsafe"

	"golang.org/x/sys/cpu"

	"github.com/dlbd/dlbd/dl/internal/kernels/gemm"
)

// The AMX bfloat16 micro-kernel (Intel Sapphire Rapids and later):
// TDPBF16PS multiplies a 16x32 bfloat16 tile of A by a 32x16 tile of B
// (16 pairs of steps) into 16x16 float32 accumulators, 16x the multiply-
// adds of one VDPBF16PS.  The kernel holds a 32x32 tile of C in four
// accumulator tiles and takes k in chunks of 32 steps.
//
// Panels (words are pairs of bfloat16 steps, as in micro_bf16.go; each
// panel keeps the offset it has in the float32 layout, MR*kc and NR*kc
// words apart, and uses the first half, zero-padded to whole chunks):
//
//	A panel:  word[c*512 + r*16 + w] = op(A)[i0+r, pc+2p] | op(A)[i0+r, pc+2p+1] << 16, p = 16c + w
//	B panel:  word[p*32 + j]         = op(B)[pc+2p, j0+j] | op(B)[pc+2p+1, j0+j] << 16 (as packBBF16)
//
// so that a chunk of A is two tiles of 16 rows of 64 bytes and a chunk
// of B two tiles of 16 pairs of 64 bytes (128 bytes apart).  Padding kc
// to a multiple of 32 fits in a panel when kc >= 16 (MinDepth).
//
// Arithmetic: like VDPBF16PS, subnormal inputs and results are zero and
// the pairs' products are not rounded as one float32 FMA each, so the
// result is within float32 rounding of the exact product of the decoded
// operands, not bit-identical to the float32 kernel's (TestGemmAMX).

// amxMR, amxNR: the tile of C.
const amxMR, amxNR = 32, 32

// sbgemmAMXTile computes the 32x32 tile at c (row stride ldc) from
// chunks chunks of packed A and B: c = Σ a·b, plus c's own values if
// load (sbgemm_amx_amd64.s).
//
//go:noescape
func sbgemmAMXTile(chunks int, a, b, c *float32, ldc int, load bool)

// haveAMX: the CPU has AMX-BF16 (and the kernel's packing loops) and
// the OS lets this process use the tiles.
var haveAMX = haveHalfPack && cpu.X86.HasAMXTile && cpu.X86.HasAMXBF16 && requestAMX()

// amxKernel: KC = 1024 steps (32 chunks, 128 tile products per call)
// amortises the tile configuration and the load and store of C; the A
// panel (64 KiB) and a B panel (64 KiB) stream from L2 (2 MiB).  A B
// block that fits L2 (KC=512 x NC=1024, 1 MiB) was 20% faster on the d=512
// Transformer's products alone (BenchmarkBlockingNC) but slower in whole
// steps: the MLP step of dl/amp 4.3 -> 5.1 ms on 2 threads, the d=256 T=512
// Transformer step 230 -> 247 ms (products of depth 1024 then take two
// blocks and lose the fused epilogue), so the blocking stays.
var amxKernel = &gemm.MicroKernel[float32]{
	Name: "amx-bf16-32x32", MR: amxMR, NR: amxNR,
	KC: 1024, MC: 8 * amxMR, NC: 2048,
	Fn:       sbgemmAMX,
	PackA:    packAAMX,
	PackB:    packBAMX,
	MinDepth: 16,
	RoundB:   true, // packBAMX rounds through packBBF16
	Store:    storeTile,
}

// sbgemmAMX is gemm.MicroKernel.Fn of the AMX kernel: the tile
// instructions add into C directly when alpha = 1 and beta is 0 or 1 (the
// products of a training step), else through a scratch tile.
func sbgemmAMX(k int, a, b, c *float32, ldc int, alpha, beta float32) {
	chunks := (k + 31) / 32
	if alpha == 1 && (beta == 0 || beta == 1) {
		sbgemmAMXTile(chunks, a, b, c, ldc, beta == 1)
		return
	}
	var t [amxMR * amxNR]float32
	sbgemmAMXTile(chunks, a, b, &t[0], amxNR, false)
	cs := unsafe.Slice(c, (amxMR-1)*ldc+amxNR)
	for i := range amxMR {
		row := cs[i*ldc : i*ldc+amxNR]
		for j, v := range t[i*amxNR : (i+1)*amxNR] {
			if beta == 0 {
				row[j] = alpha * v
			} else {
				row[j] = alpha*v + beta*row[j]
			}
		}
	}
}

// amxPairs returns the pairs a panel of depth kc holds: whole chunks.
func amxPairs(kc int) int { return (kc + 31) / 32 * 16 }

// packBAMX is packBBF16 with the pairs past kc zeroed up to a whole chunk.
func packBAMX(dst []float32, p *gemm.Args[float32], pc, jc, kc, nc, nr int) {
	packBBF16(dst, p, pc, jc, kc, nc, nr)
	from, to := (kc+1)/2*nr, amxPairs(kc)*nr
	for q := 0; q*nr < nc; q++ {
		clear(dst[q*nr*kc+from : q*nr*kc+to])
	}
}

// packAAMX packs A in chunks of rows of 16 pairs: a row of A is already
// such a run of pairs (copied); a row of Aᵀ is interleaved into pairs at
// the end of the panel (interleaveBF16AVX512), then transposed 16x16
// words at a time into place (transposePanelAVX512), chunk by chunk from
// the front, which never overwrites pairs still to be moved when
// kc >= 32.
func packAAMX(dst []float32, p *gemm.Args[float32], ic, pc, mc, kc, mr int) {
	if p.Half != gemm.BFloat16 || mr != amxMR || kc < 32 {
		packAAMXGo(dst, p, ic, pc, mc, kc, mr)
		return
	}
	pairs, chunks := (kc+1)/2, amxPairs(kc)/16
	for q := 0; q*mr < mc; q++ {
		rows := min(mr, mc-q*mr)
		panel := dst[q*mr*kc : (q+1)*mr*kc]
		i0 := ic + q*mr
		if !p.TransA {
			packRowsAMX(unsafe.Slice((*uint16)(unsafe.Pointer(&panel[0])), 2*len(panel)), p, i0, pc, rows, kc, mr, chunks)
			continue
		}
		scratch := panel[len(panel)-pairs*mr:]
		if full := kc / 2; full > 0 {
			interleaveBF16AVX512(&scratch[0], 4*mr, &p.AH[pc*p.LDA+i0], 2*p.LDA, rows, mr, full)
		}
		if kc%2 == 1 { // the odd last step has no partner: the high halves are 0
			last := unsafe.Slice((*uint32)(unsafe.Pointer(&scratch[(pairs-1)*mr])), mr)
			for r := range last {
				last[r] = 0
				if r < rows {
					last[r] = bf16Bits(p.AH, p.LDA, true, i0+r, pc+kc-1)
				}
			}
		}
		for c := range chunks {
			n := min(16, pairs-16*c)
			for half := 0; half < mr; half += 16 {
				transposePanelAVX512(&panel[c*512+half*16], 64, &scratch[c*16*mr+half], 4*mr, n, 16, 1)
			}
		}
	}
}

// chunkRowsAVX512 moves the whole chunks of rows of A into an AMX panel
// (pack_half_amd64.s).
//
//go:noescape
func chunkRowsAVX512(dst, src *uint16, lda, rows, chunks, dstStride int)

// packRowsAMX packs rows of A (not transposed) into a panel of chunks
// (h, as 16-bit words): each row is read once, in order, a chunk of 32
// steps (64 bytes, one zmm) at a time (chunkRowsAVX512: a memmove call
// per 64 bytes was 8% of the bfloat16 Transformer step); the last
// chunk's steps past kc and the rows past rows are zero.
func packRowsAMX(h []uint16, p *gemm.Args[float32], i0, pc, rows, kc, mr, chunks int) {
	full := kc / 32
	if full > 0 && rows > 0 {
		_ = p.AH[(i0+rows-1)*p.LDA+pc+32*full-1] // the rows lie inside A
		_ = h[((full-1)*mr+rows-1)*32+31]        // and the chunks inside the panel
		chunkRowsAVX512(&h[0], &p.AH[i0*p.LDA+pc], 2*p.LDA, rows, full, 64*mr)
	}
	for r := range mr {
		if r >= rows {
			for c := range chunks {
				clear(h[(c*mr+r)*32:][:32])
			}
			continue
		}
		src := p.AH[(i0+r)*p.LDA+pc:][:kc]
		if full < chunks {
			d := h[(full*mr+r)*32:][:32]
			n := copy(d, src[32*full:])
			clear(d[n:])
		}
	}
}

// packAAMXGo is the reference packing of A for the AMX kernel.
func packAAMXGo(dst []float32, p *gemm.Args[float32], ic, pc, mc, kc, mr int) {
	words := unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(dst))), len(dst))
	at := func(i, s int) uint32 { return bf16Bits(p.AH, p.LDA, p.TransA, i, s) }
	pairs := (kc + 1) / 2
	for q := 0; q*mr < mc; q++ {
		panel := words[q*mr*kc : (q+1)*mr*kc]
		for c := range amxPairs(kc) / 16 {
			for r := range mr {
				for w := range 16 {
					var v uint32
					pr := 16*c + w
					if i := q*mr + r; i < mc && pr < pairs {
						v = at(ic+i, pc+2*pr)
						if 2*pr+1 < kc {
							v |= at(ic+i, pc+2*pr+1) << 16
						}
					}
					panel[c*mr*16+r*16+w] = v
				}
			}
		}
	}
}
