//go:build !dlbd_noasm

#include "textflag.h"
#include "lanes_amd64.h"

// The loops of planes.go: the same work on rows rows of n floats, row r at
// r·stride floats from the start (BatchNorm's planes of one channel across
// a batch), in one call.  Each row runs 16 floats a step and its last
// n%16 floats under masks (K1 the 16-lane mask; K2, K3 its low and high 8
// lanes for float64 halves), so nothing past a row is read or written.
// The sums keep two pairs of float64 accumulators (a step's low and high
// halves), alternated step by step, and add them at the end.
//
// Common registers: SI the row, R10 stride in bytes, R9 rows left, DX
// full steps a row, R11 n%16, CX steps left, R12/R13 the cursors.

// ROWMASKS: R11 = n%16, DX = n/16, K1..K3 the tail's masks.  Uses AX, BX.
#define ROWMASKS(nArg) \
	MOVQ  nArg, DX; \
	MOVQ  DX, R11; \
	ANDQ  $15, R11; \
	SHRQ  $4, DX; \
	MOVL  $1, AX; \
	MOVQ  R11, CX; \
	SHLL  CX, AX; \
	DECL  AX; \
	KMOVW AX, K1; \
	KMOVW AX, K2; \
	MOVL  AX, BX; \
	SHRL  $8, BX; \
	KMOVW BX, K3

// ---- Σ x

#define SUMSTEP(off, za, zb) \
	VCVTPS2PD off(R12), Z2; \
	VCVTPS2PD off+32(R12), Z3; \
	VADDPD    Z2, za, za; \
	VADDPD    Z3, zb, zb

// func sumRowsAVX512(x *float32, n, rows, stride int) float64
TEXT ·sumRowsAVX512(SB), NOSPLIT, $0-40
	MOVQ x+0(FP), SI
	MOVQ rows+16(FP), R9
	MOVQ stride+24(FP), R10
	SHLQ $2, R10
	ROWMASKS(n+8(FP))
	VXORPD Z0, Z0, Z0
	VXORPD Z1, Z1, Z1
	VXORPD Z4, Z4, Z4
	VXORPD Z5, Z5, Z5

sumrow:
	MOVQ SI, R12
	MOVQ DX, CX
	SHRQ $1, CX
	JZ   sumone

sumpair:
	SUMSTEP(0, Z0, Z1)
	SUMSTEP(64, Z4, Z5)
	ADDQ $128, R12
	DECQ CX
	JNZ  sumpair

sumone:
	TESTQ $1, DX
	JZ    sumtail
	SUMSTEP(0, Z0, Z1)
	ADDQ  $64, R12

sumtail:
	TESTQ     R11, R11
	JZ        sumnext
	VCVTPS2PD.Z (R12), K2, Z2
	VCVTPS2PD.Z 32(R12), K3, Z3
	VADDPD    Z2, Z4, Z4
	VADDPD    Z3, Z5, Z5

sumnext:
	ADDQ R10, SI
	DECQ R9
	JNZ  sumrow
	VADDPD Z4, Z0, Z0
	VADDPD Z5, Z1, Z1
	SUMLANES(Z0, Z1, Y0, Y1, X0, X1)
	MOVSD  X0, ret+32(FP)
	VZEROUPPER
	RET

// ---- Σ (x − c)²

#define SQSTEP(off, za, zb) \
	VCVTPS2PD   off(R12), Z2; \
	VCVTPS2PD   off+32(R12), Z3; \
	VSUBPD      Z30, Z2, Z2; \
	VSUBPD      Z30, Z3, Z3; \
	VFMADD231PD Z2, Z2, za; \
	VFMADD231PD Z3, Z3, zb

// func sqDevRowsAVX512(x *float32, n, rows, stride int, c float64) float64
TEXT ·sqDevRowsAVX512(SB), NOSPLIT, $0-48
	MOVQ         x+0(FP), SI
	MOVQ         rows+16(FP), R9
	MOVQ         stride+24(FP), R10
	SHLQ         $2, R10
	VBROADCASTSD c+32(FP), Z30
	ROWMASKS(n+8(FP))
	VXORPD       Z0, Z0, Z0
	VXORPD       Z1, Z1, Z1
	VXORPD       Z4, Z4, Z4
	VXORPD       Z5, Z5, Z5

sqrow:
	MOVQ SI, R12
	MOVQ DX, CX
	SHRQ $1, CX
	JZ   sqone

sqpair:
	SQSTEP(0, Z0, Z1)
	SQSTEP(64, Z4, Z5)
	ADDQ $128, R12
	DECQ CX
	JNZ  sqpair

sqone:
	TESTQ $1, DX
	JZ    sqtail
	SQSTEP(0, Z0, Z1)
	ADDQ  $64, R12

sqtail:
	TESTQ       R11, R11
	JZ          sqnext
	VCVTPS2PD.Z (R12), K2, Z2
	VCVTPS2PD.Z 32(R12), K3, Z3
	VSUBPD.Z    Z30, Z2, K2, Z2 // the lanes past the row stay 0
	VSUBPD.Z    Z30, Z3, K3, Z3
	VFMADD231PD Z2, Z2, Z4
	VFMADD231PD Z3, Z3, Z5

sqnext:
	ADDQ R10, SI
	DECQ R9
	JNZ  sqrow
	VADDPD Z4, Z0, Z0
	VADDPD Z5, Z1, Z1
	SUMLANES(Z0, Z1, Y0, Y1, X0, X1)
	MOVSD  X0, ret+40(FP)
	VZEROUPPER
	RET

// ---- Σ g and Σ g·x

#define DOTSTEP(off, za, zb, zc, zd) \
	VCVTPS2PD   off(R12), Z2; \
	VCVTPS2PD   off+32(R12), Z3; \
	VCVTPS2PD   off(R13), Z6; \
	VCVTPS2PD   off+32(R13), Z7; \
	VADDPD      Z2, za, za; \
	VADDPD      Z3, zb, zb; \
	VFMADD231PD Z6, Z2, zc; \
	VFMADD231PD Z7, Z3, zd

// func sumDotRowsAVX512(grad, x *float32, n, rows, stride int) (s, sx float64)
TEXT ·sumDotRowsAVX512(SB), NOSPLIT, $0-56
	MOVQ grad+0(FP), SI
	MOVQ x+8(FP), DI
	MOVQ rows+24(FP), R9
	MOVQ stride+32(FP), R10
	SHLQ $2, R10
	ROWMASKS(n+16(FP))
	VXORPD Z0, Z0, Z0
	VXORPD Z1, Z1, Z1
	VXORPD Z4, Z4, Z4
	VXORPD Z5, Z5, Z5
	VXORPD Z8, Z8, Z8
	VXORPD Z9, Z9, Z9
	VXORPD Z10, Z10, Z10
	VXORPD Z11, Z11, Z11

dotrow:
	MOVQ SI, R12
	MOVQ DI, R13
	MOVQ DX, CX
	SHRQ $1, CX
	JZ   dotone

dotpair:
	DOTSTEP(0, Z0, Z1, Z8, Z9)
	DOTSTEP(64, Z4, Z5, Z10, Z11)
	ADDQ $128, R12
	ADDQ $128, R13
	DECQ CX
	JNZ  dotpair

dotone:
	TESTQ $1, DX
	JZ    dottail
	DOTSTEP(0, Z0, Z1, Z8, Z9)
	ADDQ  $64, R12
	ADDQ  $64, R13

dottail:
	TESTQ       R11, R11
	JZ          dotnext
	VCVTPS2PD.Z (R12), K2, Z2
	VCVTPS2PD.Z 32(R12), K3, Z3
	VCVTPS2PD.Z (R13), K2, Z6
	VCVTPS2PD.Z 32(R13), K3, Z7
	VADDPD      Z2, Z4, Z4
	VADDPD      Z3, Z5, Z5
	VFMADD231PD Z6, Z2, Z10
	VFMADD231PD Z7, Z3, Z11

dotnext:
	ADDQ R10, SI
	ADDQ R10, DI
	DECQ R9
	JNZ  dotrow
	VADDPD Z4, Z0, Z0
	VADDPD Z5, Z1, Z1
	VADDPD Z10, Z8, Z8
	VADDPD Z11, Z9, Z9
	SUMLANES(Z0, Z1, Y0, Y1, X0, X1)
	MOVSD  X0, s+40(FP)
	SUMLANES(Z8, Z9, Y8, Y9, X8, X9)
	MOVSD  X8, sx+48(FP)
	VZEROUPPER
	RET

// ---- dst = a·x + b, each operation rounded (no FMA)

// func affineRowsAVX512(dst, x *float32, n, rows, stride int, a, b float32)
TEXT ·affineRowsAVX512(SB), NOSPLIT, $0-48
	MOVQ         dst+0(FP), DI
	MOVQ         x+8(FP), SI
	MOVQ         rows+24(FP), R9
	MOVQ         stride+32(FP), R10
	SHLQ         $2, R10
	VBROADCASTSS a+40(FP), Z0
	VBROADCASTSS b+44(FP), Z1
	ROWMASKS(n+16(FP))

affrow:
	MOVQ  SI, R12
	MOVQ  DI, R13
	MOVQ  DX, CX
	TESTQ CX, CX
	JZ    afftail

affstep:
	VMULPS  (R12), Z0, Z2
	VADDPS  Z1, Z2, Z2
	VMOVUPS Z2, (R13)
	ADDQ    $64, R12
	ADDQ    $64, R13
	DECQ    CX
	JNZ     affstep

afftail:
	TESTQ    R11, R11
	JZ       affnext
	VMULPS.Z (R12), Z0, K1, Z2
	VADDPS   Z1, Z2, Z2
	VMOVUPS  Z2, K1, (R13)

affnext:
	ADDQ R10, SI
	ADDQ R10, DI
	DECQ R9
	JNZ  affrow
	VZEROUPPER
	RET

// ---- dst = (a·x + b·y) + c, each operation rounded (no FMA)

// func affine2RowsAVX512(dst, x, y *float32, n, rows, stride int, a, b, c float32)
TEXT ·affine2RowsAVX512(SB), NOSPLIT, $0-60
	MOVQ         dst+0(FP), DI
	MOVQ         x+8(FP), SI
	MOVQ         y+16(FP), R8
	MOVQ         rows+32(FP), R9
	MOVQ         stride+40(FP), R10
	SHLQ         $2, R10
	VBROADCASTSS a+48(FP), Z0
	VBROADCASTSS b+52(FP), Z1
	VBROADCASTSS c+56(FP), Z4
	ROWMASKS(n+24(FP))

aff2row:
	MOVQ  SI, R12
	MOVQ  DI, R13
	MOVQ  R8, BX
	MOVQ  DX, CX
	TESTQ CX, CX
	JZ    aff2tail

aff2step:
	VMULPS  (R12), Z0, Z2
	VMULPS  (BX), Z1, Z3
	VADDPS  Z3, Z2, Z2
	VADDPS  Z4, Z2, Z2
	VMOVUPS Z2, (R13)
	ADDQ    $64, R12
	ADDQ    $64, R13
	ADDQ    $64, BX
	DECQ    CX
	JNZ     aff2step

aff2tail:
	TESTQ    R11, R11
	JZ       aff2next
	VMULPS.Z (R12), Z0, K1, Z2
	VMULPS.Z (BX), Z1, K1, Z3
	VADDPS   Z3, Z2, Z2
	VADDPS   Z4, Z2, Z2
	VMOVUPS  Z2, K1, (R13)

aff2next:
	ADDQ R10, SI
	ADDQ R10, DI
	ADDQ R10, R8
	DECQ R9
	JNZ  aff2row
	VZEROUPPER
	RET
