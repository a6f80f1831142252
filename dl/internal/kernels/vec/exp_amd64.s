//go:build !noasm

#include "textflag.h"

// The exponential of exp.go, 8 float64 lanes per vector and 4 vectors
// per iteration (32 floats), the stages interleaved across the vectors
// so that the fused multiply-adds of one Horner chain hide the latency of
// the others.  Every step is the same operation as in exp64, so results
// agree bit for bit.

// Constants: c<>+8i = 1/i! (i = 0..13), then log2e, ln2hi, ln2lo,
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

// Registers: Z16 shift, Z17 log2e, Z18 ln2hi, Z19 ln2lo, Z20 under,
// Z21 over, Z22 +Inf; vector v (0..3) uses D = Z(v) for d, K = Z(4+v) for
// k, R = Z(8+v) for r and P = Z(12+v) for p.

// SETUP loads the constants; shift is at shift+OFF(FP).
#define SETUP(OFF) \
	VBROADCASTSD shift+OFF(FP), Z16; \
	VBROADCASTSD expc<>+112(SB), Z17; \
	VBROADCASTSD expc<>+120(SB), Z18; \
	VBROADCASTSD expc<>+128(SB), Z19; \
	VBROADCASTSD expc<>+136(SB), Z20; \
	VBROADCASTSD expc<>+144(SB), Z21; \
	VBROADCASTSD expc<>+152(SB), Z22

// EXP4: P(v) = exp64(float64(x[8v+j]) - shift) for the 32 floats at SI.
#define EXP4 \
	VCVTPS2PD 0(SI), Z0; \
	VCVTPS2PD 32(SI), Z1; \
	VCVTPS2PD 64(SI), Z2; \
	VCVTPS2PD 96(SI), Z3; \
	VSUBPD Z16, Z0, Z0; \
	VSUBPD Z16, Z1, Z1; \
	VSUBPD Z16, Z2, Z2; \
	VSUBPD Z16, Z3, Z3; \
	VMULPD Z17, Z0, Z4; \
	VMULPD Z17, Z1, Z5; \
	VMULPD Z17, Z2, Z6; \
	VMULPD Z17, Z3, Z7; \
	VRNDSCALEPD $8, Z4, Z4; \
	VRNDSCALEPD $8, Z5, Z5; \
	VRNDSCALEPD $8, Z6, Z6; \
	VRNDSCALEPD $8, Z7, Z7; \
	VMOVAPD Z0, Z8; \
	VMOVAPD Z1, Z9; \
	VMOVAPD Z2, Z10; \
	VMOVAPD Z3, Z11; \
	VFNMADD231PD Z18, Z4, Z8; \
	VFNMADD231PD Z18, Z5, Z9; \
	VFNMADD231PD Z18, Z6, Z10; \
	VFNMADD231PD Z18, Z7, Z11; \
	VFNMADD231PD Z19, Z4, Z8; \
	VFNMADD231PD Z19, Z5, Z9; \
	VFNMADD231PD Z19, Z6, Z10; \
	VFNMADD231PD Z19, Z7, Z11; \
	VBROADCASTSD expc<>+104(SB), Z12; \
	VBROADCASTSD expc<>+104(SB), Z13; \
	VBROADCASTSD expc<>+104(SB), Z14; \
	VBROADCASTSD expc<>+104(SB), Z15; \
	VFMADD213PD.BCST expc<>+96(SB), Z8, Z12; \
	VFMADD213PD.BCST expc<>+96(SB), Z9, Z13; \
	VFMADD213PD.BCST expc<>+96(SB), Z10, Z14; \
	VFMADD213PD.BCST expc<>+96(SB), Z11, Z15; \
	VFMADD213PD.BCST expc<>+88(SB), Z8, Z12; \
	VFMADD213PD.BCST expc<>+88(SB), Z9, Z13; \
	VFMADD213PD.BCST expc<>+88(SB), Z10, Z14; \
	VFMADD213PD.BCST expc<>+88(SB), Z11, Z15; \
	VFMADD213PD.BCST expc<>+80(SB), Z8, Z12; \
	VFMADD213PD.BCST expc<>+80(SB), Z9, Z13; \
	VFMADD213PD.BCST expc<>+80(SB), Z10, Z14; \
	VFMADD213PD.BCST expc<>+80(SB), Z11, Z15; \
	VFMADD213PD.BCST expc<>+72(SB), Z8, Z12; \
	VFMADD213PD.BCST expc<>+72(SB), Z9, Z13; \
	VFMADD213PD.BCST expc<>+72(SB), Z10, Z14; \
	VFMADD213PD.BCST expc<>+72(SB), Z11, Z15; \
	VFMADD213PD.BCST expc<>+64(SB), Z8, Z12; \
	VFMADD213PD.BCST expc<>+64(SB), Z9, Z13; \
	VFMADD213PD.BCST expc<>+64(SB), Z10, Z14; \
	VFMADD213PD.BCST expc<>+64(SB), Z11, Z15; \
	VFMADD213PD.BCST expc<>+56(SB), Z8, Z12; \
	VFMADD213PD.BCST expc<>+56(SB), Z9, Z13; \
	VFMADD213PD.BCST expc<>+56(SB), Z10, Z14; \
	VFMADD213PD.BCST expc<>+56(SB), Z11, Z15; \
	VFMADD213PD.BCST expc<>+48(SB), Z8, Z12; \
	VFMADD213PD.BCST expc<>+48(SB), Z9, Z13; \
	VFMADD213PD.BCST expc<>+48(SB), Z10, Z14; \
	VFMADD213PD.BCST expc<>+48(SB), Z11, Z15; \
	VFMADD213PD.BCST expc<>+40(SB), Z8, Z12; \
	VFMADD213PD.BCST expc<>+40(SB), Z9, Z13; \
	VFMADD213PD.BCST expc<>+40(SB), Z10, Z14; \
	VFMADD213PD.BCST expc<>+40(SB), Z11, Z15; \
	VFMADD213PD.BCST expc<>+32(SB), Z8, Z12; \
	VFMADD213PD.BCST expc<>+32(SB), Z9, Z13; \
	VFMADD213PD.BCST expc<>+32(SB), Z10, Z14; \
	VFMADD213PD.BCST expc<>+32(SB), Z11, Z15; \
	VFMADD213PD.BCST expc<>+24(SB), Z8, Z12; \
	VFMADD213PD.BCST expc<>+24(SB), Z9, Z13; \
	VFMADD213PD.BCST expc<>+24(SB), Z10, Z14; \
	VFMADD213PD.BCST expc<>+24(SB), Z11, Z15; \
	VFMADD213PD.BCST expc<>+16(SB), Z8, Z12; \
	VFMADD213PD.BCST expc<>+16(SB), Z9, Z13; \
	VFMADD213PD.BCST expc<>+16(SB), Z10, Z14; \
	VFMADD213PD.BCST expc<>+16(SB), Z11, Z15; \
	VFMADD213PD.BCST expc<>+8(SB), Z8, Z12; \
	VFMADD213PD.BCST expc<>+8(SB), Z9, Z13; \
	VFMADD213PD.BCST expc<>+8(SB), Z10, Z14; \
	VFMADD213PD.BCST expc<>+8(SB), Z11, Z15; \
	VFMADD213PD.BCST expc<>+0(SB), Z8, Z12; \
	VFMADD213PD.BCST expc<>+0(SB), Z9, Z13; \
	VFMADD213PD.BCST expc<>+0(SB), Z10, Z14; \
	VFMADD213PD.BCST expc<>+0(SB), Z11, Z15; \
	VCVTPD2QQ Z4, Z4; \
	VCVTPD2QQ Z5, Z5; \
	VCVTPD2QQ Z6, Z6; \
	VCVTPD2QQ Z7, Z7; \
	VPSLLQ $52, Z4, Z4; \
	VPSLLQ $52, Z5, Z5; \
	VPSLLQ $52, Z6, Z6; \
	VPSLLQ $52, Z7, Z7; \
	VPADDQ Z4, Z12, Z12; \
	VPADDQ Z5, Z13, Z13; \
	VPADDQ Z6, Z14, Z14; \
	VPADDQ Z7, Z15, Z15; \
	VCMPPD $1, Z20, Z0, K1; \
	VXORPD Z12, Z12, K1, Z12; \
	VCMPPD $14, Z21, Z0, K2; \
	VMOVAPD Z22, K2, Z12; \
	VCMPPD $1, Z20, Z1, K1; \
	VXORPD Z13, Z13, K1, Z13; \
	VCMPPD $14, Z21, Z1, K2; \
	VMOVAPD Z22, K2, Z13; \
	VCMPPD $1, Z20, Z2, K1; \
	VXORPD Z14, Z14, K1, Z14; \
	VCMPPD $14, Z21, Z2, K2; \
	VMOVAPD Z22, K2, Z14; \
	VCMPPD $1, Z20, Z3, K1; \
	VXORPD Z15, Z15, K1, Z15; \
	VCMPPD $14, Z21, Z3, K2; \
	VMOVAPD Z22, K2, Z15

// func expSumAVX512(x *float32, n int, shift float64) float64
//
// n > 0, a multiple of 32: expSumGeneric.  The 4 vectors accumulate into
// Z23..Z26; then (Z23+Z24) + (Z25+Z26), and the 8 lanes as in
// expSumGeneric.
TEXT ·expSumAVX512(SB), NOSPLIT, $0-32
	MOVQ x+0(FP), SI
	MOVQ n+8(FP), CX
	SETUP(16)
	VPXORQ Z23, Z23, Z23
	VPXORQ Z24, Z24, Z24
	VPXORQ Z25, Z25, Z25
	VPXORQ Z26, Z26, Z26

sumloop:
	EXP4
	VADDPD Z12, Z23, Z23
	VADDPD Z13, Z24, Z24
	VADDPD Z14, Z25, Z25
	VADDPD Z15, Z26, Z26
	ADDQ   $128, SI
	SUBQ   $32, CX
	JNZ    sumloop

	VADDPD Z24, Z23, Z23 // l[j] + l[8+j]
	VADDPD Z26, Z25, Z25 // l[16+j] + l[24+j]
	VADDPD Z25, Z23, Z0  // w[j], j < 8
	VEXTRACTF64X4 $1, Z0, Y1
	VADDPD Y1, Y0, Y0    // w[j] + w[4+j], j < 4
	VEXTRACTF128 $1, Y0, X1
	VADDPD X1, X0, X0    // (w0+w4) + (w2+w6), (w1+w5) + (w3+w7)
	VPERMILPD $1, X0, X1
	VADDSD X1, X0, X0
	MOVSD  X0, ret+24(FP)
	VZEROUPPER
	RET

// func expScaleAVX512(dst, x *float32, n int, shift, scale float64)
//
// n > 0, a multiple of 32: expScaleGeneric.
TEXT ·expScaleAVX512(SB), NOSPLIT, $0-40
	MOVQ dst+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), CX
	SETUP(24)
	VBROADCASTSD scale+32(FP), Z23

scaleloop:
	EXP4
	VMULPD    Z23, Z12, Z12
	VMULPD    Z23, Z13, Z13
	VMULPD    Z23, Z14, Z14
	VMULPD    Z23, Z15, Z15
	VCVTPD2PS Z12, Y12
	VCVTPD2PS Z13, Y13
	VCVTPD2PS Z14, Y14
	VCVTPD2PS Z15, Y15
	VMOVUPS   Y12, (DI)
	VMOVUPS   Y13, 32(DI)
	VMOVUPS   Y14, 64(DI)
	VMOVUPS   Y15, 96(DI)
	ADDQ      $128, SI
	ADDQ      $128, DI
	SUBQ      $32, CX
	JNZ       scaleloop
	VZEROUPPER
	RET
