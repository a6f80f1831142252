//go:build !dlbd_noasm

#include "textflag.h"

// func storeTileAVX512(dst *float32, ldd int, t *float32, ldt, rows int, mlo, mhi uint64, bias *float32)
//
// gemm.StoreTile's loop for a float32 C and at most 32 columns: for each
// of rows rows, the columns masked by mlo (0..15) and mhi (16..31) of t,
// plus bias (when not nil), stored to dst.  ldd and ldt are byte
// strides; masked loads and stores touch nothing outside the columns.
TEXT ·storeTileAVX512(SB), NOSPLIT, $0-64
	MOVQ  dst+0(FP), DI
	MOVQ  ldd+8(FP), R8
	MOVQ  t+16(FP), SI
	MOVQ  ldt+24(FP), R9
	MOVQ  rows+32(FP), CX
	MOVQ  mlo+40(FP), AX
	KMOVW AX, K1
	MOVQ  mhi+48(FP), AX
	KMOVW AX, K2
	MOVQ  bias+56(FP), DX
	TESTQ DX, DX
	JZ    rowloop
	VMOVUPS.Z (DX), K1, Z20
	VMOVUPS.Z 64(DX), K2, Z21

rowloop:
	VMOVUPS.Z (SI), K1, Z0
	VMOVUPS.Z 64(SI), K2, Z1
	TESTQ     DX, DX
	JZ        store
	VADDPS    Z20, Z0, Z0
	VADDPS    Z21, Z1, Z1

store:
	VMOVUPS Z0, K1, (DI)
	VMOVUPS Z1, K2, 64(DI)
	ADDQ    R9, SI
	ADDQ    R8, DI
	DECQ    CX
	JNZ     rowloop
	VZEROUPPER
	RET

// func storeTile16AVX2(dst *float32, ldd int, t *float32, ldt, rows int, bias *float32)
//
// gemm.StoreTile's loop for a float32 C on AVX2 CPUs, for exactly 16
// columns (the 6x16 kernel's whole tiles): for each of rows rows (> 0),
// the 16 floats of t plus bias (when not nil) stored to dst.  ldd and
// ldt are byte strides.
TEXT ·storeTile16AVX2(SB), NOSPLIT, $0-48
	MOVQ  dst+0(FP), DI
	MOVQ  ldd+8(FP), R8
	MOVQ  t+16(FP), SI
	MOVQ  ldt+24(FP), R9
	MOVQ  rows+32(FP), CX
	MOVQ  bias+40(FP), DX
	TESTQ DX, DX
	JZ    copyrow16
	VMOVUPS (DX), Y2
	VMOVUPS 32(DX), Y3

biasrow16:
	VADDPS  (SI), Y2, Y0
	VADDPS  32(SI), Y3, Y1
	VMOVUPS Y0, (DI)
	VMOVUPS Y1, 32(DI)
	ADDQ    R9, SI
	ADDQ    R8, DI
	DECQ    CX
	JNZ     biasrow16
	VZEROUPPER
	RET

copyrow16:
	VMOVUPS (SI), Y0
	VMOVUPS 32(SI), Y1
	VMOVUPS Y0, (DI)
	VMOVUPS Y1, 32(DI)
	ADDQ    R9, SI
	ADDQ    R8, DI
	DECQ    CX
	JNZ     copyrow16
	VZEROUPPER
	RET
