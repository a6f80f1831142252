//go:build !dlbd_noasm

#include "textflag.h"

// Stride-2 copies of float32 rows: the im2col (Gather2Rows) and col2im
// (ScatterAdd2Rows) of stride-2 convolutions.  The Go wrappers (stride2.go)
// pass the masks of a row's last, partial block of 16.

// even2<>: lanes 0, 2, ..., 30 of a pair of vectors (VPERMI2PS).
DATA even2<>+0(SB)/4, $0
DATA even2<>+4(SB)/4, $2
DATA even2<>+8(SB)/4, $4
DATA even2<>+12(SB)/4, $6
DATA even2<>+16(SB)/4, $8
DATA even2<>+20(SB)/4, $10
DATA even2<>+24(SB)/4, $12
DATA even2<>+28(SB)/4, $14
DATA even2<>+32(SB)/4, $16
DATA even2<>+36(SB)/4, $18
DATA even2<>+40(SB)/4, $20
DATA even2<>+44(SB)/4, $22
DATA even2<>+48(SB)/4, $24
DATA even2<>+52(SB)/4, $26
DATA even2<>+56(SB)/4, $28
DATA even2<>+60(SB)/4, $30
GLOBL even2<>(SB), RODATA|NOPTR, $64

// spread2<>: lane j/2 of a vector to lane j, j = 0..15; spread2<>+64:
// lane 8 + j/2 (VPERMPS).
DATA spread2<>+0(SB)/4, $0
DATA spread2<>+4(SB)/4, $0
DATA spread2<>+8(SB)/4, $1
DATA spread2<>+12(SB)/4, $1
DATA spread2<>+16(SB)/4, $2
DATA spread2<>+20(SB)/4, $2
DATA spread2<>+24(SB)/4, $3
DATA spread2<>+28(SB)/4, $3
DATA spread2<>+32(SB)/4, $4
DATA spread2<>+36(SB)/4, $4
DATA spread2<>+40(SB)/4, $5
DATA spread2<>+44(SB)/4, $5
DATA spread2<>+48(SB)/4, $6
DATA spread2<>+52(SB)/4, $6
DATA spread2<>+56(SB)/4, $7
DATA spread2<>+60(SB)/4, $7
DATA spread2<>+64(SB)/4, $8
DATA spread2<>+68(SB)/4, $8
DATA spread2<>+72(SB)/4, $9
DATA spread2<>+76(SB)/4, $9
DATA spread2<>+80(SB)/4, $10
DATA spread2<>+84(SB)/4, $10
DATA spread2<>+88(SB)/4, $11
DATA spread2<>+92(SB)/4, $11
DATA spread2<>+96(SB)/4, $12
DATA spread2<>+100(SB)/4, $12
DATA spread2<>+104(SB)/4, $13
DATA spread2<>+108(SB)/4, $13
DATA spread2<>+112(SB)/4, $14
DATA spread2<>+116(SB)/4, $14
DATA spread2<>+120(SB)/4, $15
DATA spread2<>+124(SB)/4, $15
GLOBL spread2<>(SB), RODATA|NOPTR, $128

// func gather2RowsAVX512(dst, src *float32, rows, cols, ld int, tlo, thi, tout uint64)
//
//	for r := 0; r < rows; r++ {
//		for i := 0; i < cols; i++ { dst[r*cols+i] = src[r*ld+2*i] }
//	}
//
// A block of 16 outputs reads source lanes 0..30 of two vectors (lane 31,
// odd, is masked off: nothing past the last even element is read); the
// last, partial block of a row (cols%16 outputs) reads lanes tlo (0..15)
// and thi (16..31) and writes lanes tout.  Masked-off lanes are neither
// read nor written.
TEXT ·gather2RowsAVX512(SB), NOSPLIT, $0-64
	MOVQ      dst+0(FP), DI
	MOVQ      src+8(FP), SI
	MOVQ      rows+16(FP), R8
	MOVQ      cols+24(FP), R9
	MOVQ      ld+32(FP), R10
	SHLQ      $2, R10
	MOVQ      tlo+40(FP), AX
	KMOVW     AX, K2
	MOVQ      thi+48(FP), AX
	KMOVW     AX, K3
	MOVQ      tout+56(FP), AX
	KMOVW     AX, K4
	MOVL      $0x7fff, AX
	KMOVW     AX, K1
	VMOVDQU32 even2<>(SB), Z4
	MOVQ      R9, R11
	SHRQ      $4, R11 // whole blocks per row
	MOVQ      R9, BX
	ANDQ      $15, BX // outputs in the partial block

growloop:
	MOVQ  SI, R12
	MOVQ  R11, CX
	TESTQ CX, CX
	JZ    gtail

gfull:
	VMOVUPS   (R12), Z2
	VMOVUPS.Z 64(R12), K1, Z3
	VMOVDQA32 Z4, Z1
	VPERMI2PS Z3, Z2, Z1 // Z1[j] = (Z2 ++ Z3)[2j]
	VMOVUPS   Z1, (DI)
	ADDQ      $128, R12
	ADDQ      $64, DI
	DECQ      CX
	JNZ       gfull

gtail:
	TESTQ     BX, BX
	JZ        gnext
	VMOVUPS.Z (R12), K2, Z2
	VMOVUPS.Z 64(R12), K3, Z3
	VMOVDQA32 Z4, Z1
	VPERMI2PS Z3, Z2, Z1
	VMOVUPS   Z1, K4, (DI)
	LEAQ      (DI)(BX*4), DI

gnext:
	ADDQ R10, SI
	DECQ R8
	JNZ  growloop
	VZEROUPPER
	RET

// func scatterAdd2RowsAVX512(dst, src *float32, rows, cols, ld int, tlo, thi, tin uint64)
//
//	for r := 0; r < rows; r++ {
//		for i := 0; i < cols; i++ { dst[r*ld+2*i] += src[r*cols+i] }
//	}
//
// Only the even lanes of dst are read and written (K1 = 0x5555 on each
// half of a block of 32); the last, partial block reads lanes tin of src
// and touches the even lanes tlo (0..15) and thi (16..31) of dst.
TEXT ·scatterAdd2RowsAVX512(SB), NOSPLIT, $0-64
	MOVQ      dst+0(FP), DI
	MOVQ      src+8(FP), SI
	MOVQ      rows+16(FP), R8
	MOVQ      cols+24(FP), R9
	MOVQ      ld+32(FP), R10
	SHLQ      $2, R10
	MOVQ      tlo+40(FP), AX
	KMOVW     AX, K2
	MOVQ      thi+48(FP), AX
	KMOVW     AX, K3
	MOVQ      tin+56(FP), AX
	KMOVW     AX, K4
	MOVL      $0x5555, AX
	KMOVW     AX, K1
	VMOVDQU32 spread2<>(SB), Z4
	VMOVDQU32 spread2<>+64(SB), Z5
	MOVQ      R9, R11
	SHRQ      $4, R11
	MOVQ      R9, BX
	ANDQ      $15, BX

srowloop:
	MOVQ  DI, R12
	MOVQ  R11, CX
	TESTQ CX, CX
	JZ    stail

sfull:
	VMOVUPS   (SI), Z2
	VPERMPS   Z2, Z4, Z0 // Z0[j] = src[j/2]
	VPERMPS   Z2, Z5, Z1 // Z1[j] = src[8+j/2]
	VMOVUPS.Z (R12), K1, Z6
	VMOVUPS.Z 64(R12), K1, Z7
	VADDPS    Z0, Z6, Z6
	VADDPS    Z1, Z7, Z7
	VMOVUPS   Z6, K1, (R12)
	VMOVUPS   Z7, K1, 64(R12)
	ADDQ      $64, SI
	ADDQ      $128, R12
	DECQ      CX
	JNZ       sfull

stail:
	TESTQ     BX, BX
	JZ        snext
	VMOVUPS.Z (SI), K4, Z2
	VPERMPS   Z2, Z4, Z0
	VPERMPS   Z2, Z5, Z1
	VMOVUPS.Z (R12), K2, Z6
	VMOVUPS.Z 64(R12), K3, Z7
	VADDPS    Z0, Z6, Z6
	VADDPS    Z1, Z7, Z7
	VMOVUPS   Z6, K2, (R12)
	VMOVUPS   Z7, K3, 64(R12)
	LEAQ      (SI)(BX*4), SI

snext:
	ADDQ R10, DI
	DECQ R8
	JNZ  srowloop
	VZEROUPPER
	RET

// odd2<>: lanes 1, 3, ..., 31 of a pair of vectors (VPERMI2PS).
DATA odd2<>+0(SB)/4, $1
DATA odd2<>+4(SB)/4, $3
DATA odd2<>+8(SB)/4, $5
DATA odd2<>+12(SB)/4, $7
DATA odd2<>+16(SB)/4, $9
DATA odd2<>+20(SB)/4, $11
DATA odd2<>+24(SB)/4, $13
DATA odd2<>+28(SB)/4, $15
DATA odd2<>+32(SB)/4, $17
DATA odd2<>+36(SB)/4, $19
DATA odd2<>+40(SB)/4, $21
DATA odd2<>+44(SB)/4, $23
DATA odd2<>+48(SB)/4, $25
DATA odd2<>+52(SB)/4, $27
DATA odd2<>+56(SB)/4, $29
DATA odd2<>+60(SB)/4, $31
GLOBL odd2<>(SB), RODATA|NOPTR, $64

// MAXSTEP: where v (a candidate) is greater than best (Z4) or NaN,
// best = v and the offset (Z5, int32 lanes) = o.
#define MAXSTEP(v, o) \
	VCMPPS    $0x1e, Z4, v, K5; \
	VCMPPS    $0x03, v, v, K6; \
	KORW      K6, K5, K5; \
	VMOVAPS   v, K5, Z4; \
	VMOVDQA32 o, K5, Z5

// MAXBLOCK: from the top row's lanes 0..31 (Z10, Z11) and the bottom's
// (Z12, Z13), the 16 window maxima into Z4 and their int64 indexes,
// base + 2i + offset, into Z14 (lanes 0..7) and Z15 (8..15).
#define MAXBLOCK \
	VMOVDQA32     Z24, Z4; \
	VPERMI2PS     Z11, Z10, Z4; /* top[2i]: the first candidate */ \
	VMOVDQA32     Z25, Z6; \
	VPERMI2PS     Z11, Z10, Z6; /* top[2i+1] */ \
	VMOVDQA32     Z24, Z7; \
	VPERMI2PS     Z13, Z12, Z7; /* bottom[2i] */ \
	VMOVDQA32     Z25, Z8; \
	VPERMI2PS     Z13, Z12, Z8; /* bottom[2i+1] */ \
	VPXORD        Z5, Z5, Z5; \
	MAXSTEP(Z6, Z21); \
	MAXSTEP(Z7, Z22); \
	MAXSTEP(Z8, Z23); \
	VPADDD        Z26, Z5, Z5; \
	VEXTRACTI32X8 $1, Z5, Y9; \
	VPMOVSXDQ     Y5, Z14; \
	VPMOVSXDQ     Y9, Z15; \
	VPADDQ        Z20, Z14, Z14; \
	VPADDQ        Z20, Z15, Z15

// func maxPool2RowAVX512(dst *float32, arg *int64, top, bottom *float32, n, base, w int, tlo, thi, tout uint64)
//
// For i < n: the largest of top[2i], top[2i+1], bottom[2i],
// bottom[2i+1], scanned in that order (a later one replaces only if
// greater, or NaN), into dst[i], and its index base + 2i (+1, +w, +w+1)
// into arg[i].  Whole blocks of 16 outputs read 32 elements of each row;
// the last, partial block reads lanes tlo (0..15) and thi (16..31) of
// them and writes lanes tout.
TEXT ·maxPool2RowAVX512(SB), NOSPLIT, $0-80
	MOVQ         dst+0(FP), DI
	MOVQ         arg+8(FP), R8
	MOVQ         top+16(FP), SI
	MOVQ         bottom+24(FP), DX
	MOVQ         n+32(FP), CX
	VPBROADCASTQ base+40(FP), Z20
	MOVQ         w+48(FP), AX
	VPBROADCASTD AX, Z22 // w
	MOVL         $1, BX
	VPBROADCASTD BX, Z21 // 1
	VPADDD       Z21, Z22, Z23 // w+1
	MOVQ         tlo+56(FP), AX
	KMOVW        AX, K2
	MOVQ         thi+64(FP), AX
	KMOVW        AX, K3
	MOVQ         tout+72(FP), AX
	KMOVW        AX, K4
	VMOVDQU32    even2<>(SB), Z24
	VMOVDQU32    odd2<>(SB), Z25
	VMOVDQA32    Z24, Z26 // 2i of the block's lanes
	MOVL         $32, BX
	VPBROADCASTD BX, Z27
	MOVQ         CX, R11
	SHRQ         $4, R11 // whole blocks
	ANDQ         $15, CX // outputs in the partial block
	TESTQ        R11, R11
	JZ           mptail

mpfull:
	VMOVUPS   (SI), Z10
	VMOVUPS   64(SI), Z11
	VMOVUPS   (DX), Z12
	VMOVUPS   64(DX), Z13
	MAXBLOCK
	VMOVUPS   Z4, (DI)
	VMOVDQU64 Z14, (R8)
	VMOVDQU64 Z15, 64(R8)
	VPADDD    Z27, Z26, Z26
	ADDQ      $128, SI
	ADDQ      $128, DX
	ADDQ      $64, DI
	ADDQ      $128, R8
	DECQ      R11
	JNZ       mpfull

mptail:
	TESTQ     CX, CX
	JZ        mpdone
	VMOVUPS.Z (SI), K2, Z10
	VMOVUPS.Z 64(SI), K3, Z11
	VMOVUPS.Z (DX), K2, Z12
	VMOVUPS.Z 64(DX), K3, Z13
	MAXBLOCK
	VMOVUPS   Z4, K4, (DI)
	KMOVW     K4, AX
	KMOVW     AX, K1 // lanes 0..7
	SHRL      $8, AX
	KMOVW     AX, K7 // lanes 8..15
	VMOVDQU64 Z14, K1, (R8)
	VMOVDQU64 Z15, K7, 64(R8)

mpdone:
	VZEROUPPER
	RET

// func copyRowsAVX512(dst *float32, ldd int, src *float32, lds int, rows, cols, fill int, ctail, ftail uint64)
//
//	for r := 0; r < rows; r++ {
//		copy(dst[r*ldd:][:cols], src[r*lds:][:cols])
//		clear(dst[r*ldd+cols:][:fill])
//	}
//
// (strides in elements), 16 elements a vector and the last cols%16
// (fill%16) with the mask ctail (ftail).
TEXT ·copyRowsAVX512(SB), NOSPLIT, $0-72
	MOVQ   dst+0(FP), DI
	MOVQ   ldd+8(FP), R8
	SHLQ   $2, R8
	MOVQ   src+16(FP), SI
	MOVQ   lds+24(FP), R9
	SHLQ   $2, R9
	MOVQ   rows+32(FP), R10
	MOVQ   cols+40(FP), R11
	MOVQ   fill+48(FP), BX
	MOVQ   ctail+56(FP), AX
	KMOVW  AX, K1
	MOVQ   ftail+64(FP), AX
	KMOVW  AX, K2
	VPXORD Z1, Z1, Z1

crow:
	MOVQ DI, R12
	MOVQ SI, R13
	MOVQ R11, CX
	SHRQ $4, CX
	JZ   ctl

cfull:
	VMOVUPS (R13), Z0
	VMOVUPS Z0, (R12)
	ADDQ    $64, R13
	ADDQ    $64, R12
	DECQ    CX
	JNZ     cfull

ctl:
	MOVQ      R11, CX
	ANDQ      $15, CX
	JZ        cfill
	VMOVUPS.Z (R13), K1, Z0
	VMOVUPS   Z0, K1, (R12)
	LEAQ      (R12)(CX*4), R12

cfill:
	MOVQ BX, CX
	SHRQ $4, CX
	JZ   cftl

cfz:
	VMOVUPS Z1, (R12)
	ADDQ    $64, R12
	DECQ    CX
	JNZ     cfz

cftl:
	MOVQ    BX, CX
	ANDQ    $15, CX
	JZ      cnext
	VMOVUPS Z1, K2, (R12)

cnext:
	ADDQ R8, DI
	ADDQ R9, SI
	DECQ R10
	JNZ  crow
	VZEROUPPER
	RET
