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
