//go:build !dlbd_noasm

#include "textflag.h"

// func transposePanelAVX512(dst *float64, dstStride int, src *float64, srcStride int, rows, width, blocks int)
//
// Transposes blocks of rows x 8 doubles, zero-padded to width lanes
// (0 <= rows <= width <= 8; strides in bytes): block b reads rows
// i < rows at src + i*srcStride + 64*b and writes column j < 8 at
// dst + (8*b + j)*dstStride, width lanes.  Go equivalent:
//
//	for b := 0; b < blocks; b++ {
//		for j := 0; j < 8; j++ {
//			for i := 0; i < width; i++ {
//				v := 0.0
//				if i < rows {
//					v = src[i*srcStride/8 + 8*b + j]
//				}
//				dst[(8*b+j)*dstStride/8 + i] = v
//			}
//		}
//	}
//
// Method: the 3-stage 8x8 transpose, 24 shuffles per block: unpack 64-bit
// pairs of rows, then combine 128-bit lanes with VSHUFF64X2 twice.

#define S1(a, b, lo, hi) \
	VUNPCKLPD b, a, lo; \
	VUNPCKHPD b, a, hi

#define S2(a, b, lo, hi) \
	VSHUFF64X2 $0x44, b, a, lo; \
	VSHUFF64X2 $0xEE, b, a, hi

#define S3(a, b, lo, hi) \
	VSHUFF64X2 $0x88, b, a, lo; \
	VSHUFF64X2 $0xDD, b, a, hi

// LOADROW: Z(r) = row r if r < rows, else zero.
#define LOADROW(r, addr, reg) \
	VPXORQ reg, reg, reg; \
	CMPQ   AX, $r; \
	JLE    2(PC); \
	VMOVUPD addr, reg

TEXT ·transposePanelAVX512(SB), NOSPLIT, $0-56
	MOVQ dst+0(FP), DI
	MOVQ dstStride+8(FP), DX
	MOVQ src+16(FP), SI
	MOVQ srcStride+24(FP), BX
	MOVQ rows+32(FP), AX
	MOVQ width+40(FP), R12
	MOVQ blocks+48(FP), CX

	// K1 = (1 << width) - 1: the lanes stored per output column.
	MOVQ  $1, R8
	SHLXQ R12, R8, R8
	DECQ  R8
	KMOVW R8, K1

	LEAQ  (BX)(BX*2), R9  // 3*srcStride
	LEAQ  (DX)(DX*2), R10 // 3*dstStride
	TESTQ CX, CX
	JZ    done

block:
	MOVQ    SI, R11
	LOADROW(0, (R11), Z0)
	LOADROW(1, (R11)(BX*1), Z1)
	LOADROW(2, (R11)(BX*2), Z2)
	LOADROW(3, (R11)(R9*1), Z3)
	LEAQ    (R11)(BX*4), R11
	LOADROW(4, (R11), Z4)
	LOADROW(5, (R11)(BX*1), Z5)
	LOADROW(6, (R11)(BX*2), Z6)
	LOADROW(7, (R11)(R9*1), Z7)

	// t: 64-bit pairs of rows (2g, 2g+1) per 128-bit lane -> Z8..Z15
	S1(Z0, Z1, Z8, Z9)
	S1(Z2, Z3, Z10, Z11)
	S1(Z4, Z5, Z12, Z13)
	S1(Z6, Z7, Z14, Z15)

	// lanes {0,1} / {2,3} of rows 0-3 and 4-7 -> Z16..Z23
	S2(Z8, Z10, Z16, Z17)
	S2(Z9, Z11, Z18, Z19)
	S2(Z12, Z14, Z20, Z21)
	S2(Z13, Z15, Z22, Z23)

	// columns: Z(j) = column j of the 8 rows
	S3(Z16, Z20, Z0, Z2)
	S3(Z18, Z22, Z1, Z3)
	S3(Z17, Z21, Z4, Z6)
	S3(Z19, Z23, Z5, Z7)

	MOVQ    DI, R11
	VMOVUPD Z0, K1, (R11)
	VMOVUPD Z1, K1, (R11)(DX*1)
	VMOVUPD Z2, K1, (R11)(DX*2)
	VMOVUPD Z3, K1, (R11)(R10*1)
	LEAQ    (R11)(DX*4), R11
	VMOVUPD Z4, K1, (R11)
	VMOVUPD Z5, K1, (R11)(DX*1)
	VMOVUPD Z6, K1, (R11)(DX*2)
	VMOVUPD Z7, K1, (R11)(R10*1)
	LEAQ    (R11)(DX*4), DI // next block: 8 columns further

	ADDQ $64, SI
	DECQ CX
	JNZ  block

done:
	VZEROUPPER
	RET

// func copyPanelAVX512(dst *float64, dstStride int, src *float64, srcStride int, valid, width, count int)
//
// Copies count rows of valid doubles (strides in bytes), zero-padding each
// destination row to width doubles (valid <= width <= 16).  Go equivalent:
//
//	for r := 0; r < count; r++ {
//		d := dst[r*dstStride/8:][:width]
//		copy(d, src[r*srcStride/8:][:valid])
//		clear(d[valid:])
//	}
TEXT ·copyPanelAVX512(SB), NOSPLIT, $0-56
	MOVQ dst+0(FP), DI
	MOVQ dstStride+8(FP), DX
	MOVQ src+16(FP), SI
	MOVQ srcStride+24(FP), BX
	MOVQ valid+32(FP), AX
	MOVQ width+40(FP), R8
	MOVQ count+48(FP), CX

	// K1/K2: lanes 0..7 / 8..15 to load (valid); K3/K4: to store (width).
	MOVQ  $1, R9
	SHLXQ AX, R9, R9
	DECQ  R9
	KMOVW R9, K1
	SHRQ  $8, R9
	KMOVW R9, K2
	MOVQ  $1, R9
	SHLXQ R8, R9, R9
	DECQ  R9
	KMOVW R9, K3
	SHRQ  $8, R9
	KMOVW R9, K4
	TESTQ CX, CX
	JZ    cdone

crow:
	VMOVUPD.Z (SI), K1, Z0
	VMOVUPD.Z 64(SI), K2, Z1
	VMOVUPD   Z0, K3, (DI)
	VMOVUPD   Z1, K4, 64(DI)
	ADDQ      BX, SI
	ADDQ      DX, DI
	DECQ      CX
	JNZ       crow

cdone:
	VZEROUPPER
	RET
