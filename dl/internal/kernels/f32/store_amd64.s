//go:build !noasm

#include "textflag.h"

// BF16(z, y): y = the bfloat16 bits of the 16 floats of z (Z4..Z7 and K3
// scratch; Z27..Z31 hold the constants).
#define BF16(z, y) \
	VPSRLD  $16, z, Z4 \
	VPANDD  Z29, Z4, Z5 \
	VPADDD  Z28, z, Z6 \
	VPADDD  Z5, Z6, Z6 \
	VPSRLD  $16, Z6, Z6 \
	VPANDD  Z30, z, Z7 \
	VPCMPUD $6, Z31, Z7, K3 \
	VPORD   Z27, Z4, K3, Z6 \
	VPMOVDW Z6, y

// func storeTileAVX512(dst unsafe.Pointer, ldd int, t *float32, ldt, rows int, mlo, mhi uint64, bias *float32, mode int)
//
// The epilogue of a tile of at most 32 columns (gemm.StoreTile): for
// each of rows rows, the columns masked by mlo (0..15) and mhi (16..31)
// of t, plus bias (when not nil), stored to dst as float32 (mode 0),
// bfloat16 (mode 1: the integer round-to-nearest-even of
// half.Float32ToBFloat16, NaN quieted) or float16 (mode 2: VCVTPS2PH
// $0, as half.EncodeFloat16).  ldd and ldt are byte strides.  Masked
// loads and stores touch nothing outside the columns.
TEXT ·storeTileAVX512(SB), NOSPLIT, $0-72
	MOVQ dst+0(FP), DI
	MOVQ ldd+8(FP), R8
	MOVQ t+16(FP), SI
	MOVQ ldt+24(FP), R9
	MOVQ rows+32(FP), CX
	MOVQ mlo+40(FP), AX
	KMOVW AX, K1
	MOVQ mhi+48(FP), AX
	KMOVW AX, K2
	MOVQ bias+56(FP), DX
	MOVQ mode+64(FP), BX
	TESTQ  DX, DX
	JZ     consts
	VMOVUPS.Z (DX), K1, Z20
	VMOVUPS.Z 64(DX), K2, Z21

consts:
	MOVL         $0x7fff, AX
	VPBROADCASTD AX, Z28
	MOVL         $1, AX
	VPBROADCASTD AX, Z29
	MOVL         $0x7fffffff, AX
	VPBROADCASTD AX, Z30
	MOVL         $0x7f800000, AX
	VPBROADCASTD AX, Z31
	MOVL         $0x40, AX
	VPBROADCASTD AX, Z27

rowloop:
	VMOVUPS.Z (SI), K1, Z0
	VMOVUPS.Z 64(SI), K2, Z1
	TESTQ     DX, DX
	JZ        nobias
	VADDPS    Z20, Z0, Z0
	VADDPS    Z21, Z1, Z1

nobias:
	CMPQ BX, $1
	JEQ  bf16
	CMPQ BX, $2
	JEQ  f16
	VMOVUPS Z0, K1, (DI)
	VMOVUPS Z1, K2, 64(DI)
	JMP     next

bf16:
	BF16(Z0, Y0)
	BF16(Z1, Y1)
	VMOVDQU16 Y0, K1, (DI)
	VMOVDQU16 Y1, K2, 32(DI)
	JMP       next

f16:
	VCVTPS2PH $0, Z0, Y0
	VCVTPS2PH $0, Z1, Y1
	VMOVDQU16 Y0, K1, (DI)
	VMOVDQU16 Y1, K2, 32(DI)

next:
	ADDQ R9, SI
	ADDQ R8, DI
	DECQ CX
	JNZ  rowloop
	VZEROUPPER
	RET
