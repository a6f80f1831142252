//go:build !dlbd_noasm

#include "textflag.h"

// The exponential of exp.go, 8 float64 lanes per vector, two vectors at
// a time with their steps interleaved (so that the multiply-adds of one
// hide the latency of the other), four vectors (32 floats) per loop
// iteration.  Every step is the same operation as in exp64, so results
// agree bit for bit.

// Constants: expc<>+8i = 1/i! (i = 0..13), then log2e, ln2hi, ln2lo,
// under (-707), over, +Inf.
DATA expc<>+0(SB)/8, $0x3ff0000000000000
DATA expc<>+8(SB)/8, $0x3ff0000000000000
DATA expc<>+16(SB)/8, $0x3fe0000000000000
DATA expc<>+24(SB)/8, $0x3fc5555555555555
DATA expc<>+32(SB)/8, $0x3fa5555555555555
DATA expc<>+40(SB)/8, $0x3f81111111111111
DATA expc<>+48(SB)/8, $0x3f56c16c16c16c17
DATA expc<>+56(SB)/8, $0x3f2a01a01a01a01a
DATA expc<>+64(SB)/8, $0x3efa01a01a01a01a
DATA expc<>+72(SB)/8, $0x3ec71de3a556c734
DATA expc<>+80(SB)/8, $0x3e927e4fb7789f5c
DATA expc<>+88(SB)/8, $0x3e5ae64567f544e4
DATA expc<>+96(SB)/8, $0x3e21eed8eff8d898
DATA expc<>+104(SB)/8, $0x3de6124613a86d09
DATA expc<>+112(SB)/8, $0x3ff71547652b82fe
DATA expc<>+120(SB)/8, $0x3fe62e42fee00000
DATA expc<>+128(SB)/8, $0x3dea39ef35793c76
DATA expc<>+136(SB)/8, $0xc086180000000000
DATA expc<>+144(SB)/8, $0x40862e42fefa39ef
DATA expc<>+152(SB)/8, $0x7ff0000000000000
GLOBL expc<>(SB), RODATA|NOPTR, $160

// Registers: Z31 shift; vector u (0, 1) of a pair uses Z(11u)..Z(11u+8):
// D (d), K (k), R (r), R2 (r², then r⁴, r⁸) and Q0..Q4; the result is in
// Q0 (Z4, Z15).  Z27..Z30 are ExpSum's accumulators, Z27 ExpScale's scale.

// EXPPAIR0: Z4 = exp64(x - shift) of the 8 floats at SI, Z15 of the next 8.
#define EXPPAIR0 \
	VCVTPS2PD 0(SI), Z0; \
	VCVTPS2PD 32(SI), Z11; \
	VSUBPD Z31, Z0, Z0; \
	VSUBPD Z31, Z11, Z11; \
	VMULPD.BCST expc<>+112(SB), Z0, Z1; \
	VMULPD.BCST expc<>+112(SB), Z11, Z12; \
	VRNDSCALEPD $8, Z1, Z1; \
	VRNDSCALEPD $8, Z12, Z12; \
	VMOVAPD Z0, Z2; \
	VMOVAPD Z11, Z13; \
	VFNMADD231PD.BCST expc<>+120(SB), Z1, Z2; \
	VFNMADD231PD.BCST expc<>+120(SB), Z12, Z13; \
	VFNMADD231PD.BCST expc<>+128(SB), Z1, Z2; \
	VFNMADD231PD.BCST expc<>+128(SB), Z12, Z13; \
	VMULPD Z2, Z2, Z3; \
	VMULPD Z13, Z13, Z14; \
	VBROADCASTSD expc<>+32(SB), Z4; \
	VFMADD213PD.BCST expc<>+24(SB), Z2, Z4; \
	VBROADCASTSD expc<>+32(SB), Z15; \
	VFMADD213PD.BCST expc<>+24(SB), Z13, Z15; \
	VBROADCASTSD expc<>+48(SB), Z5; \
	VFMADD213PD.BCST expc<>+40(SB), Z2, Z5; \
	VBROADCASTSD expc<>+48(SB), Z16; \
	VFMADD213PD.BCST expc<>+40(SB), Z13, Z16; \
	VBROADCASTSD expc<>+64(SB), Z6; \
	VFMADD213PD.BCST expc<>+56(SB), Z2, Z6; \
	VBROADCASTSD expc<>+64(SB), Z17; \
	VFMADD213PD.BCST expc<>+56(SB), Z13, Z17; \
	VBROADCASTSD expc<>+80(SB), Z7; \
	VFMADD213PD.BCST expc<>+72(SB), Z2, Z7; \
	VBROADCASTSD expc<>+80(SB), Z18; \
	VFMADD213PD.BCST expc<>+72(SB), Z13, Z18; \
	VBROADCASTSD expc<>+96(SB), Z8; \
	VFMADD213PD.BCST expc<>+88(SB), Z2, Z8; \
	VBROADCASTSD expc<>+96(SB), Z19; \
	VFMADD213PD.BCST expc<>+88(SB), Z13, Z19; \
	VFMADD231PD Z5, Z3, Z4; \
	VFMADD231PD Z7, Z3, Z6; \
	VFMADD231PD.BCST expc<>+104(SB), Z3, Z8; \
	VFMADD231PD Z16, Z14, Z15; \
	VFMADD231PD Z18, Z14, Z17; \
	VFMADD231PD.BCST expc<>+104(SB), Z14, Z19; \
	VMULPD Z3, Z3, Z3; \
	VMULPD Z14, Z14, Z14; \
	VFMADD231PD Z6, Z3, Z4; \
	VFMADD231PD Z17, Z14, Z15; \
	VMULPD Z3, Z3, Z3; \
	VMULPD Z14, Z14, Z14; \
	VFMADD231PD Z8, Z3, Z4; \
	VFMADD231PD Z19, Z14, Z15; \
	VFMADD213PD.BCST expc<>+16(SB), Z2, Z4; \
	VFMADD213PD.BCST expc<>+16(SB), Z13, Z15; \
	VFMADD213PD.BCST expc<>+8(SB), Z2, Z4; \
	VFMADD213PD.BCST expc<>+8(SB), Z13, Z15; \
	VFMADD213PD.BCST expc<>+0(SB), Z2, Z4; \
	VFMADD213PD.BCST expc<>+0(SB), Z13, Z15; \
	VCVTPD2QQ Z1, Z1; \
	VCVTPD2QQ Z12, Z12; \
	VPSLLQ $52, Z1, Z1; \
	VPSLLQ $52, Z12, Z12; \
	VPADDQ Z1, Z4, Z4; \
	VPADDQ Z12, Z15, Z15; \
	VCMPPD.BCST $1, expc<>+136(SB), Z0, K1; \
	VXORPD Z4, Z4, K1, Z4; \
	VCMPPD.BCST $14, expc<>+144(SB), Z0, K2; \
	VBROADCASTSD expc<>+152(SB), K2, Z4; \
	VCMPPD.BCST $1, expc<>+136(SB), Z11, K1; \
	VXORPD Z15, Z15, K1, Z15; \
	VCMPPD.BCST $14, expc<>+144(SB), Z11, K2; \
	VBROADCASTSD expc<>+152(SB), K2, Z15

// EXPPAIR1: the same for the 16 floats at SI+64.
#define EXPPAIR1 \
	VCVTPS2PD 64(SI), Z0; \
	VCVTPS2PD 96(SI), Z11; \
	VSUBPD Z31, Z0, Z0; \
	VSUBPD Z31, Z11, Z11; \
	VMULPD.BCST expc<>+112(SB), Z0, Z1; \
	VMULPD.BCST expc<>+112(SB), Z11, Z12; \
	VRNDSCALEPD $8, Z1, Z1; \
	VRNDSCALEPD $8, Z12, Z12; \
	VMOVAPD Z0, Z2; \
	VMOVAPD Z11, Z13; \
	VFNMADD231PD.BCST expc<>+120(SB), Z1, Z2; \
	VFNMADD231PD.BCST expc<>+120(SB), Z12, Z13; \
	VFNMADD231PD.BCST expc<>+128(SB), Z1, Z2; \
	VFNMADD231PD.BCST expc<>+128(SB), Z12, Z13; \
	VMULPD Z2, Z2, Z3; \
	VMULPD Z13, Z13, Z14; \
	VBROADCASTSD expc<>+32(SB), Z4; \
	VFMADD213PD.BCST expc<>+24(SB), Z2, Z4; \
	VBROADCASTSD expc<>+32(SB), Z15; \
	VFMADD213PD.BCST expc<>+24(SB), Z13, Z15; \
	VBROADCASTSD expc<>+48(SB), Z5; \
	VFMADD213PD.BCST expc<>+40(SB), Z2, Z5; \
	VBROADCASTSD expc<>+48(SB), Z16; \
	VFMADD213PD.BCST expc<>+40(SB), Z13, Z16; \
	VBROADCASTSD expc<>+64(SB), Z6; \
	VFMADD213PD.BCST expc<>+56(SB), Z2, Z6; \
	VBROADCASTSD expc<>+64(SB), Z17; \
	VFMADD213PD.BCST expc<>+56(SB), Z13, Z17; \
	VBROADCASTSD expc<>+80(SB), Z7; \
	VFMADD213PD.BCST expc<>+72(SB), Z2, Z7; \
	VBROADCASTSD expc<>+80(SB), Z18; \
	VFMADD213PD.BCST expc<>+72(SB), Z13, Z18; \
	VBROADCASTSD expc<>+96(SB), Z8; \
	VFMADD213PD.BCST expc<>+88(SB), Z2, Z8; \
	VBROADCASTSD expc<>+96(SB), Z19; \
	VFMADD213PD.BCST expc<>+88(SB), Z13, Z19; \
	VFMADD231PD Z5, Z3, Z4; \
	VFMADD231PD Z7, Z3, Z6; \
	VFMADD231PD.BCST expc<>+104(SB), Z3, Z8; \
	VFMADD231PD Z16, Z14, Z15; \
	VFMADD231PD Z18, Z14, Z17; \
	VFMADD231PD.BCST expc<>+104(SB), Z14, Z19; \
	VMULPD Z3, Z3, Z3; \
	VMULPD Z14, Z14, Z14; \
	VFMADD231PD Z6, Z3, Z4; \
	VFMADD231PD Z17, Z14, Z15; \
	VMULPD Z3, Z3, Z3; \
	VMULPD Z14, Z14, Z14; \
	VFMADD231PD Z8, Z3, Z4; \
	VFMADD231PD Z19, Z14, Z15; \
	VFMADD213PD.BCST expc<>+16(SB), Z2, Z4; \
	VFMADD213PD.BCST expc<>+16(SB), Z13, Z15; \
	VFMADD213PD.BCST expc<>+8(SB), Z2, Z4; \
	VFMADD213PD.BCST expc<>+8(SB), Z13, Z15; \
	VFMADD213PD.BCST expc<>+0(SB), Z2, Z4; \
	VFMADD213PD.BCST expc<>+0(SB), Z13, Z15; \
	VCVTPD2QQ Z1, Z1; \
	VCVTPD2QQ Z12, Z12; \
	VPSLLQ $52, Z1, Z1; \
	VPSLLQ $52, Z12, Z12; \
	VPADDQ Z1, Z4, Z4; \
	VPADDQ Z12, Z15, Z15; \
	VCMPPD.BCST $1, expc<>+136(SB), Z0, K1; \
	VXORPD Z4, Z4, K1, Z4; \
	VCMPPD.BCST $14, expc<>+144(SB), Z0, K2; \
	VBROADCASTSD expc<>+152(SB), K2, Z4; \
	VCMPPD.BCST $1, expc<>+136(SB), Z11, K1; \
	VXORPD Z15, Z15, K1, Z15; \
	VCMPPD.BCST $14, expc<>+144(SB), Z11, K2; \
	VBROADCASTSD expc<>+152(SB), K2, Z15
// func expSumAVX512(x *float32, n int, shift float64) float64
//
// n > 0, a multiple of 32: expSumGeneric.  The 4 vectors of each 32
// floats accumulate into Z27..Z30; then (Z27+Z28) + (Z29+Z30), and the 8
// lanes as in expSumGeneric.
TEXT ·expSumAVX512(SB), NOSPLIT, $0-32
	MOVQ         x+0(FP), SI
	MOVQ         n+8(FP), CX
	VBROADCASTSD shift+16(FP), Z31
	VPXORQ       Z27, Z27, Z27
	VPXORQ       Z28, Z28, Z28
	VPXORQ       Z29, Z29, Z29
	VPXORQ       Z30, Z30, Z30

sumloop:
	EXPPAIR0
	VADDPD Z4, Z27, Z27
	VADDPD Z15, Z28, Z28
	EXPPAIR1
	VADDPD Z4, Z29, Z29
	VADDPD Z15, Z30, Z30
	ADDQ   $128, SI
	SUBQ   $32, CX
	JNZ    sumloop

	VADDPD        Z28, Z27, Z27 // l[j] + l[8+j]
	VADDPD        Z30, Z29, Z29 // l[16+j] + l[24+j]
	VADDPD        Z29, Z27, Z0  // w[j], j < 8
	VEXTRACTF64X4 $1, Z0, Y1
	VADDPD        Y1, Y0, Y0    // w[j] + w[4+j], j < 4
	VEXTRACTF128  $1, Y0, X1
	VADDPD        X1, X0, X0    // (w0+w4) + (w2+w6), (w1+w5) + (w3+w7)
	VPERMILPD     $1, X0, X1
	VADDSD        X1, X0, X0
	MOVSD         X0, ret+24(FP)
	VZEROUPPER
	RET

// func expScaleAVX512(dst, x *float32, n int, shift, scale float64)
//
// n > 0, a multiple of 32: expScaleGeneric.
TEXT ·expScaleAVX512(SB), NOSPLIT, $0-40
	MOVQ         dst+0(FP), DI
	MOVQ         x+8(FP), SI
	MOVQ         n+16(FP), CX
	VBROADCASTSD shift+24(FP), Z31
	VBROADCASTSD scale+32(FP), Z27

scaleloop:
	EXPPAIR0
	VMULPD    Z27, Z4, Z4
	VMULPD    Z27, Z15, Z15
	VCVTPD2PS Z4, Y4
	VCVTPD2PS Z15, Y15
	VMOVUPS   Y4, (DI)
	VMOVUPS   Y15, 32(DI)
	EXPPAIR1
	VMULPD    Z27, Z4, Z4
	VMULPD    Z27, Z15, Z15
	VCVTPD2PS Z4, Y4
	VCVTPD2PS Z15, Y15
	VMOVUPS   Y4, 64(DI)
	VMOVUPS   Y15, 96(DI)
	ADDQ      $128, SI
	ADDQ      $128, DI
	SUBQ      $32, CX
	JNZ       scaleloop
	VZEROUPPER
	RET
