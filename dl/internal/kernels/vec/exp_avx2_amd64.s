//go:build !dlbd_noasm

#include "textflag.h"

// The exponential of exp.go on AVX2 CPUs (without AVX-512): 4 float64
// lanes per vector, one vector at a time (out-of-order execution overlaps
// consecutive ones), every step the operation of exp64, so results agree
// bit for bit.  Without VCVTPD2QQ, k·2^52 comes from k + 1.5·2^52, whose
// low mantissa bits hold k, shifted left by 52; NaN lanes get no shift
// (as int64(NaN) << 52 is 0 in Go); the under- and overflow lanes are
// set to 0 and +Inf after, as exp64's first cases give.  The constants
// are whole vectors (expv), as there are no embedded broadcasts.

DATA expv<>+0(SB)/8, $0x3ff0000000000000 // c0
DATA expv<>+8(SB)/8, $0x3ff0000000000000
DATA expv<>+16(SB)/8, $0x3ff0000000000000
DATA expv<>+24(SB)/8, $0x3ff0000000000000
DATA expv<>+32(SB)/8, $0x3ff0000000000000 // c1
DATA expv<>+40(SB)/8, $0x3ff0000000000000
DATA expv<>+48(SB)/8, $0x3ff0000000000000
DATA expv<>+56(SB)/8, $0x3ff0000000000000
DATA expv<>+64(SB)/8, $0x3fe0000000000000 // c2
DATA expv<>+72(SB)/8, $0x3fe0000000000000
DATA expv<>+80(SB)/8, $0x3fe0000000000000
DATA expv<>+88(SB)/8, $0x3fe0000000000000
DATA expv<>+96(SB)/8, $0x3fc5555555555555 // c3
DATA expv<>+104(SB)/8, $0x3fc5555555555555
DATA expv<>+112(SB)/8, $0x3fc5555555555555
DATA expv<>+120(SB)/8, $0x3fc5555555555555
DATA expv<>+128(SB)/8, $0x3fa5555555555555 // c4
DATA expv<>+136(SB)/8, $0x3fa5555555555555
DATA expv<>+144(SB)/8, $0x3fa5555555555555
DATA expv<>+152(SB)/8, $0x3fa5555555555555
DATA expv<>+160(SB)/8, $0x3f81111111111111 // c5
DATA expv<>+168(SB)/8, $0x3f81111111111111
DATA expv<>+176(SB)/8, $0x3f81111111111111
DATA expv<>+184(SB)/8, $0x3f81111111111111
DATA expv<>+192(SB)/8, $0x3f56c16c16c16c17 // c6
DATA expv<>+200(SB)/8, $0x3f56c16c16c16c17
DATA expv<>+208(SB)/8, $0x3f56c16c16c16c17
DATA expv<>+216(SB)/8, $0x3f56c16c16c16c17
DATA expv<>+224(SB)/8, $0x3f2a01a01a01a01a // c7
DATA expv<>+232(SB)/8, $0x3f2a01a01a01a01a
DATA expv<>+240(SB)/8, $0x3f2a01a01a01a01a
DATA expv<>+248(SB)/8, $0x3f2a01a01a01a01a
DATA expv<>+256(SB)/8, $0x3efa01a01a01a01a // c8
DATA expv<>+264(SB)/8, $0x3efa01a01a01a01a
DATA expv<>+272(SB)/8, $0x3efa01a01a01a01a
DATA expv<>+280(SB)/8, $0x3efa01a01a01a01a
DATA expv<>+288(SB)/8, $0x3ec71de3a556c734 // c9
DATA expv<>+296(SB)/8, $0x3ec71de3a556c734
DATA expv<>+304(SB)/8, $0x3ec71de3a556c734
DATA expv<>+312(SB)/8, $0x3ec71de3a556c734
DATA expv<>+320(SB)/8, $0x3e927e4fb7789f5c // c10
DATA expv<>+328(SB)/8, $0x3e927e4fb7789f5c
DATA expv<>+336(SB)/8, $0x3e927e4fb7789f5c
DATA expv<>+344(SB)/8, $0x3e927e4fb7789f5c
DATA expv<>+352(SB)/8, $0x3e5ae64567f544e4 // c11
DATA expv<>+360(SB)/8, $0x3e5ae64567f544e4
DATA expv<>+368(SB)/8, $0x3e5ae64567f544e4
DATA expv<>+376(SB)/8, $0x3e5ae64567f544e4
DATA expv<>+384(SB)/8, $0x3e21eed8eff8d898 // c12
DATA expv<>+392(SB)/8, $0x3e21eed8eff8d898
DATA expv<>+400(SB)/8, $0x3e21eed8eff8d898
DATA expv<>+408(SB)/8, $0x3e21eed8eff8d898
DATA expv<>+416(SB)/8, $0x3de6124613a86d09 // c13
DATA expv<>+424(SB)/8, $0x3de6124613a86d09
DATA expv<>+432(SB)/8, $0x3de6124613a86d09
DATA expv<>+440(SB)/8, $0x3de6124613a86d09
DATA expv<>+448(SB)/8, $0x3ff71547652b82fe // log2e
DATA expv<>+456(SB)/8, $0x3ff71547652b82fe
DATA expv<>+464(SB)/8, $0x3ff71547652b82fe
DATA expv<>+472(SB)/8, $0x3ff71547652b82fe
DATA expv<>+480(SB)/8, $0x3fe62e42fee00000 // ln2hi
DATA expv<>+488(SB)/8, $0x3fe62e42fee00000
DATA expv<>+496(SB)/8, $0x3fe62e42fee00000
DATA expv<>+504(SB)/8, $0x3fe62e42fee00000
DATA expv<>+512(SB)/8, $0x3dea39ef35793c76 // ln2lo
DATA expv<>+520(SB)/8, $0x3dea39ef35793c76
DATA expv<>+528(SB)/8, $0x3dea39ef35793c76
DATA expv<>+536(SB)/8, $0x3dea39ef35793c76
DATA expv<>+544(SB)/8, $0xc086180000000000 // under
DATA expv<>+552(SB)/8, $0xc086180000000000
DATA expv<>+560(SB)/8, $0xc086180000000000
DATA expv<>+568(SB)/8, $0xc086180000000000
DATA expv<>+576(SB)/8, $0x40862e42fefa39ef // over
DATA expv<>+584(SB)/8, $0x40862e42fefa39ef
DATA expv<>+592(SB)/8, $0x40862e42fefa39ef
DATA expv<>+600(SB)/8, $0x40862e42fefa39ef
DATA expv<>+608(SB)/8, $0x7ff0000000000000 // inf
DATA expv<>+616(SB)/8, $0x7ff0000000000000
DATA expv<>+624(SB)/8, $0x7ff0000000000000
DATA expv<>+632(SB)/8, $0x7ff0000000000000
DATA expv<>+640(SB)/8, $0x4338000000000000 // magic
DATA expv<>+648(SB)/8, $0x4338000000000000
DATA expv<>+656(SB)/8, $0x4338000000000000
DATA expv<>+664(SB)/8, $0x4338000000000000
GLOBL expv<>(SB), RODATA|NOPTR, $672

// EXP4: Y4 = exp64(Y0 = d); uses Y1..Y6.
#define EXP4 \
	VMULPD       expv<>+448(SB), Y0, Y1; \
	VROUNDPD     $8, Y1, Y1; \
	VMOVAPD      Y0, Y2; \
	VFNMADD231PD expv<>+480(SB), Y1, Y2; \
	VFNMADD231PD expv<>+512(SB), Y1, Y2; \
	VMULPD       Y2, Y2, Y3; \
	VMOVAPD      expv<>+128(SB), Y4; \
	VFMADD213PD  expv<>+96(SB), Y2, Y4; \
	VMOVAPD      expv<>+192(SB), Y5; \
	VFMADD213PD  expv<>+160(SB), Y2, Y5; \
	VFMADD231PD  Y5, Y3, Y4; \
	VMOVAPD      expv<>+256(SB), Y5; \
	VFMADD213PD  expv<>+224(SB), Y2, Y5; \
	VMOVAPD      expv<>+320(SB), Y6; \
	VFMADD213PD  expv<>+288(SB), Y2, Y6; \
	VFMADD231PD  Y6, Y3, Y5; \
	VMOVAPD      expv<>+384(SB), Y6; \
	VFMADD213PD  expv<>+352(SB), Y2, Y6; \
	VFMADD231PD  expv<>+416(SB), Y3, Y6; \
	VMULPD       Y3, Y3, Y3; \
	VFMADD231PD  Y5, Y3, Y4; \
	VMULPD       Y3, Y3, Y3; \
	VFMADD231PD  Y6, Y3, Y4; \
	VFMADD213PD  expv<>+64(SB), Y2, Y4; \
	VFMADD213PD  expv<>+32(SB), Y2, Y4; \
	VFMADD213PD  expv<>+0(SB), Y2, Y4; \
	VADDPD       expv<>+640(SB), Y1, Y1; \
	VPSLLQ       $52, Y1, Y1; \
	VCMPPD       $7, Y0, Y0, Y5; \
	VANDPD       Y5, Y1, Y1; \
	VPADDQ       Y1, Y4, Y4; \
	VCMPPD       $1, expv<>+544(SB), Y0, Y5; \
	VANDNPD      Y4, Y5, Y4; \
	VCMPPD       $14, expv<>+576(SB), Y0, Y5; \
	VBLENDVPD    Y5, expv<>+608(SB), Y4, Y4

// EXPAT(off): Y4 = exp64(float64(x[off/4 .. +4]) − shift), x at SI, shift
// in Y15.
#define EXPAT(off) \
	VCVTPS2PD off(SI), Y0; \
	VSUBPD    Y15, Y0, Y0; \
	EXP4

// func expSumAVX2(x *float32, n int, shift float64) float64
//
// expSumGeneric: Y7..Y14 hold the 32 lane sums l[0..31] (Y7 l[0..3],
// Y8 l[4..7], ...), reduced as its comment says.  n > 0 is a multiple of
// 32.
TEXT ·expSumAVX2(SB), NOSPLIT, $0-32
	MOVQ         x+0(FP), SI
	MOVQ         n+8(FP), CX
	VBROADCASTSD shift+16(FP), Y15
	VXORPD       Y7, Y7, Y7
	VXORPD       Y8, Y8, Y8
	VXORPD       Y9, Y9, Y9
	VXORPD       Y10, Y10, Y10
	VXORPD       Y11, Y11, Y11
	VXORPD       Y12, Y12, Y12
	VXORPD       Y13, Y13, Y13
	VXORPD       Y14, Y14, Y14

sumloop:
	EXPAT(0)
	VADDPD Y4, Y7, Y7
	EXPAT(16)
	VADDPD Y4, Y8, Y8
	EXPAT(32)
	VADDPD Y4, Y9, Y9
	EXPAT(48)
	VADDPD Y4, Y10, Y10
	EXPAT(64)
	VADDPD Y4, Y11, Y11
	EXPAT(80)
	VADDPD Y4, Y12, Y12
	EXPAT(96)
	VADDPD Y4, Y13, Y13
	EXPAT(112)
	VADDPD Y4, Y14, Y14
	ADDQ   $128, SI
	SUBQ   $32, CX
	JNZ    sumloop

	// w[0..3] = (l[j] + l[8+j]) + (l[16+j] + l[24+j]), w[4..7] alike
	VADDPD       Y9, Y7, Y7
	VADDPD       Y13, Y11, Y11
	VADDPD       Y11, Y7, Y7
	VADDPD       Y10, Y8, Y8
	VADDPD       Y14, Y12, Y12
	VADDPD       Y12, Y8, Y8
	// v = w[0..3] + w[4..7]; (v0 + v2) + (v1 + v3)
	VADDPD       Y8, Y7, Y7
	VEXTRACTF128 $1, Y7, X8
	VADDPD       X8, X7, X7
	VPERMILPD    $1, X7, X8
	VADDSD       X8, X7, X7
	VMOVSD       X7, ret+24(FP)
	VZEROUPPER
	RET

// func expScaleAVX2(dst, x *float32, n int, shift, scale float64)
//
// expScaleGeneric: dst[i] = float32(scale · exp64(x[i] − shift)), 4 at a
// time; n > 0 is a multiple of 4.
TEXT ·expScaleAVX2(SB), NOSPLIT, $0-40
	MOVQ         dst+0(FP), DI
	MOVQ         x+8(FP), SI
	MOVQ         n+16(FP), CX
	VBROADCASTSD shift+24(FP), Y15
	VBROADCASTSD scale+32(FP), Y14

scaleloop:
	EXPAT(0)
	VMULPD     Y14, Y4, Y4
	VCVTPD2PSY Y4, X4
	VMOVUPS    X4, (DI)
	ADDQ       $16, SI
	ADDQ       $16, DI
	SUBQ       $4, CX
	JNZ        scaleloop
	VZEROUPPER
	RET
