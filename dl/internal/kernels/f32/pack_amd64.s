//go:build !dlbd_noasm

#include "textflag.h"
#include "transpose_amd64.h"

// func transposePanelAVX512(dst *float32, dstStride int, src *float32, srcStride int, rows, width, blocks int)
//
// Transposes blocks of rows x 16 floats (0 <= rows <= width <= 16; strides
// in bytes), zero-padded to width: block b reads rows i < rows at
// src + i*srcStride + 64*b and writes columns j < 16 at
// dst + (16*b + j)*dstStride, width lanes each.  Go equivalent:
//
//	for b := 0; b < blocks; b++ {
//		for j := 0; j < 16; j++ {
//			for i := 0; i < width; i++ {
//				v := float32(0)
//				if i < rows {
//					v = src[i*srcStride/4 + 16*b + j]
//				}
//				dst[(16*b+j)*dstStride/4 + i] = v
//			}
//		}
//	}
//
// It packs A (no transpose) into 14-row micro-panels (dstStride 56) and
// Bᵀ into 32-column micro-panels (two calls, dstStride 128).
//
// Method: the classic 4-stage 16x16 transpose, 64 shuffles per block:
// unpack 32-bit pairs of rows, then 64-bit pairs, then 128-bit lanes with
// VSHUFF32X4 twice.  Rows live in Z0..Z15; stages alternate between
// Z0..Z15 and Z16..Z31 (macros TRANSPOSE16 and STORE16 in
// transpose_amd64.h).

// LOADROW: reg = row r if r < rows (AX), else zero (partial panels only).
#define LOADROW(r, addr, reg) \
	VPXORD  reg, reg, reg; \
	CMPQ    AX, $r; \
	JLE     2(PC); \
	VMOVUPS addr, reg

TEXT ·transposePanelAVX512(SB), NOSPLIT, $0-56
	MOVQ dst+0(FP), DI
	MOVQ dstStride+8(FP), DX
	MOVQ src+16(FP), SI
	MOVQ srcStride+24(FP), BX
	MOVQ rows+32(FP), AX
	MOVQ width+40(FP), R12
	MOVQ blocks+48(FP), CX

	// K1 = (1 << width) - 1: the lanes stored per output column.
	MOVQ $1, R8
	SHLXQ R12, R8, R8
	DECQ R8
	KMOVW R8, K1

	LEAQ (BX)(BX*2), R9  // 3*srcStride
	LEAQ (DX)(DX*2), R10 // 3*dstStride
	TESTQ CX, CX
	JZ    done

block:
	MOVQ SI, R11
	CMPQ AX, $14
	JGE  full

	// A partial panel: load rows < rows, zero the others.
	LOADROW(0, (R11), Z0)
	LOADROW(1, (R11)(BX*1), Z1)
	LOADROW(2, (R11)(BX*2), Z2)
	LOADROW(3, (R11)(R9*1), Z3)
	LEAQ    (R11)(BX*4), R11
	LOADROW(4, (R11), Z4)
	LOADROW(5, (R11)(BX*1), Z5)
	LOADROW(6, (R11)(BX*2), Z6)
	LOADROW(7, (R11)(R9*1), Z7)
	LEAQ    (R11)(BX*4), R11
	LOADROW(8, (R11), Z8)
	LOADROW(9, (R11)(BX*1), Z9)
	LOADROW(10, (R11)(BX*2), Z10)
	LOADROW(11, (R11)(R9*1), Z11)
	LEAQ    (R11)(BX*4), R11
	LOADROW(12, (R11), Z12)
	VPXORD  Z13, Z13, Z13
	VPXORD  Z14, Z14, Z14
	VPXORD  Z15, Z15, Z15
	JMP     loaded

full:
	// Rows 0..13 (R11 walks groups of rows), and 14, 15 if rows > 14, 15.
	VMOVUPS (R11), Z0
	VMOVUPS (R11)(BX*1), Z1
	VMOVUPS (R11)(BX*2), Z2
	VMOVUPS (R11)(R9*1), Z3
	LEAQ    (R11)(BX*4), R11
	VMOVUPS (R11), Z4
	VMOVUPS (R11)(BX*1), Z5
	VMOVUPS (R11)(BX*2), Z6
	VMOVUPS (R11)(R9*1), Z7
	LEAQ    (R11)(BX*4), R11
	VMOVUPS (R11), Z8
	VMOVUPS (R11)(BX*1), Z9
	VMOVUPS (R11)(BX*2), Z10
	VMOVUPS (R11)(R9*1), Z11
	LEAQ    (R11)(BX*4), R11
	VMOVUPS (R11), Z12
	VMOVUPS (R11)(BX*1), Z13
	LOADROW(14, (R11)(BX*2), Z14)
	LOADROW(15, (R11)(R9*1), Z15)

loaded:
	TRANSPOSE16
	STORE16 // DI: next block, 16 columns further

	ADDQ $64, SI
	DECQ CX
	JNZ  block

done:
	VZEROUPPER
	RET

// func copyPanelAVX512(dst *float32, dstStride int, src *float32, srcStride int, valid, width, count int)
//
// Copies count rows of valid floats (strides in bytes), zero-padding each
// destination row to width floats (valid <= width <= 32).  Go equivalent:
//
//	for r := 0; r < count; r++ {
//		d := dst[r*dstStride/4:][:width]
//		copy(d, src[r*srcStride/4:][:valid])
//		clear(d[valid:])
//	}
//
// It packs Aᵀ (14 contiguous floats per k step) and B (32 per k step).
TEXT ·copyPanelAVX512(SB), NOSPLIT, $0-56
	MOVQ dst+0(FP), DI
	MOVQ dstStride+8(FP), DX
	MOVQ src+16(FP), SI
	MOVQ srcStride+24(FP), BX
	MOVQ valid+32(FP), AX
	MOVQ width+40(FP), R8
	MOVQ count+48(FP), CX

	// K1/K2: lanes 0..15 / 16..31 to load (valid); K3/K4: to store (width).
	MOVQ  $1, R9
	SHLXQ AX, R9, R9
	DECQ  R9             // (1 << valid) - 1
	KMOVW R9, K1
	SHRQ  $16, R9
	KMOVW R9, K2
	MOVQ  $1, R9
	SHLXQ R8, R9, R9
	DECQ  R9             // (1 << width) - 1
	KMOVW R9, K3
	SHRQ  $16, R9
	KMOVW R9, K4
	TESTQ CX, CX
	JZ    cdone
	CMPQ  R8, $16
	JG    wide

narrow:
	// width <= 16: one vector per row
	VMOVUPS.Z (SI), K1, Z0
	VMOVUPS   Z0, K3, (DI)
	ADDQ      BX, SI
	ADDQ      DX, DI
	DECQ      CX
	JNZ       narrow
	JMP       cdone

wide:
	// 16 < width <= 32: two vectors per row
	VMOVUPS.Z (SI), K1, Z0
	VMOVUPS.Z 64(SI), K2, Z1
	VMOVUPS   Z0, K3, (DI)
	VMOVUPS   Z1, K4, 64(DI)
	ADDQ      BX, SI
	ADDQ      DX, DI
	DECQ      CX
	JNZ       wide

cdone:
	VZEROUPPER
	RET
