//go:build !dlbd_noasm

package f32

import (
	"sync"
	"unsafe"

	"golang.org/x/sys/cpu"

	"github.com/dlbd/dlbd/dl/internal/kernels/gemm"
	"github.com/dlbd/dlbd/dl/internal/kernels/half"
)

// sbgemmAVX512BF16 is the 14x32 bfloat16 micro-kernel (VDPBF16PS,
// sbgemm_avx512_amd64.s); sbgemmGo is its Go equivalent.
//
//go:noescape
func sbgemmAVX512BF16(k int, a, b, c *float32, ldc int, alpha, beta float32)

// interleaveBF16AVX512 packs pairs of bfloat16 rows into 32-bit words
// (pack_half_amd64.s): dst[p*dstStride/4+j] = row(2p)[j] | row(2p+1)[j]<<16.
//
//go:noescape
func interleaveBF16AVX512(dst *float32, dstStride int, src *uint16, srcStride int, valid, width, pairs int)

var haveBF16Dot = haveHalfPack && cpu.X86.HasAVX512BF16

// bf16Kernel: the float32 kernel's 14x32 tile and registers with
// VDPBF16PS, which does twice the multiply-adds per instruction (measured
// ~227 GFLOP/s alone on this project's Zen 4 core, against ~113 for
// VFMADD231PS).  A pair of steps takes the bytes one float32 step takes,
// so KC = 512 keeps the panels' footprint in L1/L2 that of KC = 256 in
// float32.
var bf16Kernel = &gemm.MicroKernel[float32]{
	Name: "avx512bf16-14x32", MR: sbMR, NR: sbNR,
	KC: 512, MC: 14 * 32, NC: 4096,
	Fn:     sbgemmAVX512BF16,
	PackA:  packABF16,
	PackB:  packBBF16,
	RoundB: true,
	Store:  storeTile,
}

// bf16Kernels is the bfloat16 kernel of this CPU: AMX's where the OS lets
// the process use it; VDPBF16PS on CPUs without AMX (AMD Zen 4 and 5),
// where it is twice the float32 kernel's rate.  Intel's AMX CPUs run
// VDPBF16PS on one port (measured 108-113 GFLOP/s against the float32
// kernel's 180-195 on a Sapphire Rapids core), so without the tiles
// their bfloat16 products decode to float32 (nil).
var bf16Kernels = func() *gemm.MicroKernel[float32] {
	switch {
	case haveAMX:
		return amxKernel
	case haveBF16Dot && !cpu.X86.HasAMXBF16:
		return bf16Kernel
	}
	return nil
}()

// packABF16 is packABF16Go with the assembly loops: a row of A (no
// transpose) is a run of 32-bit pairs, so the float32 16x16 transpose
// packs it; Aᵀ interleaves two rows of A per pair.
func packABF16(dst []float32, p *gemm.Args[float32], ic, pc, mc, kc, mr int) {
	if p.Half != gemm.BFloat16 || mr > 16 {
		packABF16Go(dst, p, ic, pc, mc, kc, mr)
		return
	}
	pairs := kc / 2
	for q := 0; q*mr < mc; q++ {
		rows := min(mr, mc-q*mr)
		panel := dst[q*mr*kc : (q+1)*mr*kc]
		i0 := ic + q*mr
		done := 0
		if p.TransA {
			if pairs > 0 {
				interleaveBF16AVX512(&panel[0], 4*mr, &p.AH[pc*p.LDA+i0], 2*p.LDA, rows, mr, pairs)
			}
			done = pairs
		} else if blocks := pairs / 16; blocks > 0 {
			transposePanelAVX512(&panel[0], 4*mr, words(&p.AH[i0*p.LDA+pc]), 2*p.LDA, rows, mr, blocks)
			done = 16 * blocks
		}
		tailPairs(panel[done*mr:], i0, pc+2*done, rows, kc-2*done, mr,
			func(i, s int) uint32 { return bf16Bits(p.AH, p.LDA, p.TransA, i, s) })
	}
}

// packBBF16 is packBBF16Go with the assembly loops: B interleaves two rows
// per pair; a row of Bᵀ is a run of 32-bit pairs (two 16-row transposes
// per panel).
func packBBF16(dst []float32, p *gemm.Args[float32], pc, jc, kc, nc, nr int) {
	if p.RoundB {
		packRoundedB(dst, p, pc, jc, kc, nc, nr, packBBF16)
		return
	}
	if p.Half != gemm.BFloat16 || nr != 32 {
		packBBF16Go(dst, p, pc, jc, kc, nc, nr)
		return
	}
	pairs := kc / 2
	for q := 0; q*nr < nc; q++ {
		cols := min(nr, nc-q*nr)
		panel := dst[q*nr*kc : (q+1)*nr*kc]
		j0 := jc + q*nr
		done := 0
		if !p.TransB {
			if pairs > 0 {
				interleaveBF16AVX512(&panel[0], 4*nr, &p.BH[pc*p.LDB+j0], 2*p.LDB, cols, nr, pairs)
			}
			done = pairs
		} else if blocks := pairs / 16; blocks > 0 {
			second := j0 * p.LDB // rows 16.. exist only if cols > 16
			if cols > 16 {
				second += 16 * p.LDB
			}
			transposePanelAVX512(&panel[0], 4*nr, words(&p.BH[j0*p.LDB+pc]), 2*p.LDB, min(cols, 16), 16, blocks)
			transposePanelAVX512(&panel[16], 4*nr, words(&p.BH[second+pc]), 2*p.LDB, max(cols-16, 0), 16, blocks)
			done = 16 * blocks
		}
		tailPairs(panel[done*nr:], j0, pc+2*done, cols, kc-2*done, nr,
			func(j, s int) uint32 { return bf16Bits(p.BH, p.LDB, !p.TransB, j, s) })
	}
}

// packRoundedB packs the block [pc, pc+kc) x [jc, jc+nc) of a float32
// op(B) that p.RoundB rounds: the block is cast to p.Half into a scratch
// buffer (half.EncodeBFloat16's loops, row by row; it stays in L2), then
// packed from there by pack as a 16-bit B: the same words as casting the
// whole of B first, without its full-size copy.
func packRoundedB(dst []float32, p *gemm.Args[float32], pc, jc, kc, nc, nr int, pack func([]float32, *gemm.Args[float32], int, int, int, int, int)) {
	rows, cols, r0, c0 := kc, nc, pc, jc // the block as stored
	if p.TransB {
		rows, cols, r0, c0 = nc, kc, jc, pc
	}
	buf := scratchPool.Get().(*[]uint16)
	if cap(*buf) < rows*cols {
		*buf = make([]uint16, rows*cols)
	}
	s := (*buf)[:rows*cols]
	for r := range rows {
		src := p.B[(r0+r)*p.LDB+c0:][:cols]
		if p.Half == gemm.BFloat16 {
			half.EncodeBFloat16(s[r*cols:(r+1)*cols], src)
		} else {
			half.EncodeFloat16(s[r*cols:(r+1)*cols], src)
		}
	}
	q := gemm.Args[float32]{TransB: p.TransB, LDB: cols, Half: p.Half, BH: s}
	pack(dst, &q, 0, 0, kc, nc, nr)
	scratchPool.Put(buf)
}

// scratchPool holds packRoundedB's buffers (a block of B, up to
// ~330 KiB for the AMX kernel's deepest block of 4 panels).
var scratchPool = sync.Pool{New: func() any { return new([]uint16) }}

// words views bfloat16 storage from x on as 32-bit words (pairs), which the
// float32 transpose moves unchanged.
func words(x *uint16) *float32 { return (*float32)(unsafe.Pointer(x)) }

// tailPairs packs the pairs the assembly left, steps [pc, pc+kc), of one
// panel (w words per pair), like packPairs.
func tailPairs(panel []float32, i0, pc, rows, kc, w int, at func(i, s int) uint32) {
	if kc > 0 {
		packPairs(panel, i0, pc, rows, kc, w, at)
	}
}
