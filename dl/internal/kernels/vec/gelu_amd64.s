//go:build !dlbd_noasm

#include "textflag.h"

// GELU and its gradient (gelu.go), 16 float32 lanes per vector: the
// operations of geluParts, expPairs, geluGeneric and geluGradGeneric in
// the same order, one vector per loop iteration (out-of-order execution overlaps
// the long dependency chains of consecutive iterations).  n > 0 is a
// multiple of 16.

DATA geluc<>+0(SB)/4, $0x7fffffff // absmask
DATA geluc<>+4(SB)/4, $0x41700000 // clamp 15
DATA geluc<>+8(SB)/4, $0x3f3504f3 // 1/sqrt2
DATA geluc<>+12(SB)/4, $0x3f000000 // 0.5
DATA geluc<>+16(SB)/4, $0x3f800000 // 1
DATA geluc<>+20(SB)/4, $0xbfa1fc4e // P0
DATA geluc<>+24(SB)/4, $0x3f8000c7 // P1
DATA geluc<>+28(SB)/4, $0x3ebf88fb // P2
DATA geluc<>+32(SB)/4, $0x3dc636c9 // P3
DATA geluc<>+36(SB)/4, $0xbe3ec24c // P4
DATA geluc<>+40(SB)/4, $0x3e8ec7cc // P5
DATA geluc<>+44(SB)/4, $0xbf914e5d // P6
DATA geluc<>+48(SB)/4, $0x3fbe87b0 // P7
DATA geluc<>+52(SB)/4, $0xbf527892 // P8
DATA geluc<>+56(SB)/4, $0x3e2ef945 // P9
DATA geluc<>+60(SB)/4, $0x3fb8aa3b // log2e
DATA geluc<>+64(SB)/4, $0x3f318000 // ln2hi
DATA geluc<>+68(SB)/4, $0xb95e8083 // ln2lo
DATA geluc<>+72(SB)/4, $0x3f800000 // E0
DATA geluc<>+76(SB)/4, $0x3f800000 // E1
DATA geluc<>+80(SB)/4, $0x3f000000 // E2
DATA geluc<>+84(SB)/4, $0x3e2aaaab // E3
DATA geluc<>+88(SB)/4, $0x3d2aaaab // E4
DATA geluc<>+92(SB)/4, $0x3c088889 // E5
DATA geluc<>+96(SB)/4, $0x3ab60b61 // E6
DATA geluc<>+100(SB)/4, $0x39500d01 // E7
DATA geluc<>+104(SB)/4, $0x3ecc422a // 1/sqrt(2pi)
GLOBL geluc<>(SB), RODATA|NOPTR, $108

// EXPPAIR: Z10 = expPairs(c = Z5, hi = Z6, lo = Z7); uses Z8 (k), Z9 (r).
//
//	k := round((c − hi)·log₂e)
//	r := −k·ln2hi − hi;  r += c − lo;  r −= k·ln2lo
//	q := Taylor(r) to r⁷ (Horner)
//	Z10 = q·2^k
#define EXPPAIR \
	VSUBPS Z6, Z5, Z8; \
	VMULPS.BCST geluc<>+60(SB), Z8, Z8; \
	VRNDSCALEPS $8, Z8, Z8; \
	VMOVAPS Z6, Z9; \
	VFNMSUB231PS.BCST geluc<>+64(SB), Z8, Z9; \
	VSUBPS Z7, Z5, Z10; \
	VADDPS Z10, Z9, Z9; \
	VFNMADD231PS.BCST geluc<>+68(SB), Z8, Z9; \
	VBROADCASTSS geluc<>+100(SB), Z10; \
	VFMADD213PS.BCST geluc<>+96(SB), Z9, Z10; \
	VFMADD213PS.BCST geluc<>+92(SB), Z9, Z10; \
	VFMADD213PS.BCST geluc<>+88(SB), Z9, Z10; \
	VFMADD213PS.BCST geluc<>+84(SB), Z9, Z10; \
	VFMADD213PS.BCST geluc<>+80(SB), Z9, Z10; \
	VFMADD213PS.BCST geluc<>+76(SB), Z9, Z10; \
	VFMADD213PS.BCST geluc<>+72(SB), Z9, Z10; \
	VSCALEFPS Z8, Z10, Z10

// GELUPARTS: Z11 = Φ(x), Z6 = hi, Z7 = lo for x = Z0 (geluParts); Z31
// must be 0.  Uses Z1..Z10 and K1.
//
//	ax := min(|x|, 15);  z := ax/√2;  t := 1/(1 + z/2);  p := P(t) (Horner)
//	hi, lo := ax·ax/2 and its rounding error/2
//	h := t·expPairs(p, hi, lo)/2;  Φ := x < 0 ? h : 1 − h
#define GELUPARTS \
	VANDPS.BCST geluc<>+0(SB), Z0, Z1; \
	VMINPS.BCST geluc<>+4(SB), Z1, Z1; \
	VMULPS.BCST geluc<>+8(SB), Z1, Z2; \
	VBROADCASTSS geluc<>+16(SB), Z3; \
	VFMADD231PS.BCST geluc<>+12(SB), Z2, Z3; \
	VBROADCASTSS geluc<>+16(SB), Z4; \
	VDIVPS Z3, Z4, Z4; \
	VBROADCASTSS geluc<>+56(SB), Z5; \
	VFMADD213PS.BCST geluc<>+52(SB), Z4, Z5; \
	VFMADD213PS.BCST geluc<>+48(SB), Z4, Z5; \
	VFMADD213PS.BCST geluc<>+44(SB), Z4, Z5; \
	VFMADD213PS.BCST geluc<>+40(SB), Z4, Z5; \
	VFMADD213PS.BCST geluc<>+36(SB), Z4, Z5; \
	VFMADD213PS.BCST geluc<>+32(SB), Z4, Z5; \
	VFMADD213PS.BCST geluc<>+28(SB), Z4, Z5; \
	VFMADD213PS.BCST geluc<>+24(SB), Z4, Z5; \
	VFMADD213PS.BCST geluc<>+20(SB), Z4, Z5; \
	VMULPS Z1, Z1, Z6; \
	VMOVAPS Z6, Z7; \
	VFMSUB231PS Z1, Z1, Z7; \
	VMULPS.BCST geluc<>+12(SB), Z6, Z6; \
	VMULPS.BCST geluc<>+12(SB), Z7, Z7; \
	EXPPAIR; \
	VMULPS Z4, Z10, Z10; \
	VMULPS.BCST geluc<>+12(SB), Z10, Z10; \
	VBROADCASTSS geluc<>+16(SB), Z11; \
	VSUBPS Z10, Z11, Z11; \
	VCMPPS $1, Z31, Z0, K1; \
	VMOVAPS Z10, K1, Z11

// func geluAVX512(dst, src *float32, n int)
//
//	for i := 0; i < n; i++ { dst[i] = src[i]·Φ(src[i]) }   (geluGeneric)
TEXT ·geluAVX512(SB), NOSPLIT, $0-24
	MOVQ   dst+0(FP), DI
	MOVQ   src+8(FP), SI
	MOVQ   n+16(FP), CX
	VXORPS Z31, Z31, Z31

geluloop:
	VMOVUPS (SI), Z0
	GELUPARTS
	VMULPS  Z11, Z0, Z11 // x·Φ(x)
	VMOVUPS Z11, (DI)
	ADDQ    $64, SI
	ADDQ    $64, DI
	SUBQ    $16, CX
	JNZ     geluloop
	VZEROUPPER
	RET

// func geluGradAVX512(dst, grad, x *float32, n int)
//
//	for i := 0; i < n; i++ { dst[i] = g[i]·(Φ(x[i]) + x[i]·φ(x[i])) }   (geluGradGeneric)
TEXT ·geluGradAVX512(SB), NOSPLIT, $0-32
	MOVQ   dst+0(FP), DI
	MOVQ   grad+8(FP), DX
	MOVQ   x+16(FP), SI
	MOVQ   n+24(FP), CX
	VXORPS Z31, Z31, Z31

gradloop:
	VMOVUPS (SI), Z0
	GELUPARTS
	VXORPS      Z5, Z5, Z5            // c = 0
	EXPPAIR                           // e^(−hi−lo)
	VMULPS.BCST geluc<>+104(SB), Z10, Z10 // φ(x) = e^(−x²/2)/√(2π)
	VFMADD231PS Z10, Z0, Z11          // Φ(x) + x·φ(x)
	VMULPS      (DX), Z11, Z11        // g·GELU′(x)
	VMOVUPS     Z11, (DI)
	ADDQ        $64, SI
	ADDQ        $64, DX
	ADDQ        $64, DI
	SUBQ        $16, CX
	JNZ         gradloop
	VZEROUPPER
	RET

// The AVX2 loops: the same operations on 8 lanes (ymm), for CPUs without
// AVX-512.  Without embedded broadcasts the constants are whole vectors
// (geluv); VROUNDPS rounds k as VRNDSCALEPS does; without VSCALEFPS, 2^k
// is two exact powers of two built in the exponent field, 2^k1 with
// k1 = max(k, −125) (q·2^k1 stays normal, so that product is exact) and
// 2^(k − k1), so the result is rounded once, into the subnormal range
// too, as VSCALEFPS and math.Ldexp round it; x < 0 selects h by
// VBLENDVPS.  n > 0 is a multiple of 8.

DATA geluv<>+0(SB)/4, $0x7fffffff // absmask
DATA geluv<>+4(SB)/4, $0x7fffffff
DATA geluv<>+8(SB)/4, $0x7fffffff
DATA geluv<>+12(SB)/4, $0x7fffffff
DATA geluv<>+16(SB)/4, $0x7fffffff
DATA geluv<>+20(SB)/4, $0x7fffffff
DATA geluv<>+24(SB)/4, $0x7fffffff
DATA geluv<>+28(SB)/4, $0x7fffffff
DATA geluv<>+32(SB)/4, $0x41700000 // clamp
DATA geluv<>+36(SB)/4, $0x41700000
DATA geluv<>+40(SB)/4, $0x41700000
DATA geluv<>+44(SB)/4, $0x41700000
DATA geluv<>+48(SB)/4, $0x41700000
DATA geluv<>+52(SB)/4, $0x41700000
DATA geluv<>+56(SB)/4, $0x41700000
DATA geluv<>+60(SB)/4, $0x41700000
DATA geluv<>+64(SB)/4, $0x3f3504f3 // invsqrt2
DATA geluv<>+68(SB)/4, $0x3f3504f3
DATA geluv<>+72(SB)/4, $0x3f3504f3
DATA geluv<>+76(SB)/4, $0x3f3504f3
DATA geluv<>+80(SB)/4, $0x3f3504f3
DATA geluv<>+84(SB)/4, $0x3f3504f3
DATA geluv<>+88(SB)/4, $0x3f3504f3
DATA geluv<>+92(SB)/4, $0x3f3504f3
DATA geluv<>+96(SB)/4, $0x3f000000 // half
DATA geluv<>+100(SB)/4, $0x3f000000
DATA geluv<>+104(SB)/4, $0x3f000000
DATA geluv<>+108(SB)/4, $0x3f000000
DATA geluv<>+112(SB)/4, $0x3f000000
DATA geluv<>+116(SB)/4, $0x3f000000
DATA geluv<>+120(SB)/4, $0x3f000000
DATA geluv<>+124(SB)/4, $0x3f000000
DATA geluv<>+128(SB)/4, $0x3f800000 // one
DATA geluv<>+132(SB)/4, $0x3f800000
DATA geluv<>+136(SB)/4, $0x3f800000
DATA geluv<>+140(SB)/4, $0x3f800000
DATA geluv<>+144(SB)/4, $0x3f800000
DATA geluv<>+148(SB)/4, $0x3f800000
DATA geluv<>+152(SB)/4, $0x3f800000
DATA geluv<>+156(SB)/4, $0x3f800000
DATA geluv<>+160(SB)/4, $0xbfa1fc4e // P0
DATA geluv<>+164(SB)/4, $0xbfa1fc4e
DATA geluv<>+168(SB)/4, $0xbfa1fc4e
DATA geluv<>+172(SB)/4, $0xbfa1fc4e
DATA geluv<>+176(SB)/4, $0xbfa1fc4e
DATA geluv<>+180(SB)/4, $0xbfa1fc4e
DATA geluv<>+184(SB)/4, $0xbfa1fc4e
DATA geluv<>+188(SB)/4, $0xbfa1fc4e
DATA geluv<>+192(SB)/4, $0x3f8000c7 // P1
DATA geluv<>+196(SB)/4, $0x3f8000c7
DATA geluv<>+200(SB)/4, $0x3f8000c7
DATA geluv<>+204(SB)/4, $0x3f8000c7
DATA geluv<>+208(SB)/4, $0x3f8000c7
DATA geluv<>+212(SB)/4, $0x3f8000c7
DATA geluv<>+216(SB)/4, $0x3f8000c7
DATA geluv<>+220(SB)/4, $0x3f8000c7
DATA geluv<>+224(SB)/4, $0x3ebf88fb // P2
DATA geluv<>+228(SB)/4, $0x3ebf88fb
DATA geluv<>+232(SB)/4, $0x3ebf88fb
DATA geluv<>+236(SB)/4, $0x3ebf88fb
DATA geluv<>+240(SB)/4, $0x3ebf88fb
DATA geluv<>+244(SB)/4, $0x3ebf88fb
DATA geluv<>+248(SB)/4, $0x3ebf88fb
DATA geluv<>+252(SB)/4, $0x3ebf88fb
DATA geluv<>+256(SB)/4, $0x3dc636c9 // P3
DATA geluv<>+260(SB)/4, $0x3dc636c9
DATA geluv<>+264(SB)/4, $0x3dc636c9
DATA geluv<>+268(SB)/4, $0x3dc636c9
DATA geluv<>+272(SB)/4, $0x3dc636c9
DATA geluv<>+276(SB)/4, $0x3dc636c9
DATA geluv<>+280(SB)/4, $0x3dc636c9
DATA geluv<>+284(SB)/4, $0x3dc636c9
DATA geluv<>+288(SB)/4, $0xbe3ec24c // P4
DATA geluv<>+292(SB)/4, $0xbe3ec24c
DATA geluv<>+296(SB)/4, $0xbe3ec24c
DATA geluv<>+300(SB)/4, $0xbe3ec24c
DATA geluv<>+304(SB)/4, $0xbe3ec24c
DATA geluv<>+308(SB)/4, $0xbe3ec24c
DATA geluv<>+312(SB)/4, $0xbe3ec24c
DATA geluv<>+316(SB)/4, $0xbe3ec24c
DATA geluv<>+320(SB)/4, $0x3e8ec7cc // P5
DATA geluv<>+324(SB)/4, $0x3e8ec7cc
DATA geluv<>+328(SB)/4, $0x3e8ec7cc
DATA geluv<>+332(SB)/4, $0x3e8ec7cc
DATA geluv<>+336(SB)/4, $0x3e8ec7cc
DATA geluv<>+340(SB)/4, $0x3e8ec7cc
DATA geluv<>+344(SB)/4, $0x3e8ec7cc
DATA geluv<>+348(SB)/4, $0x3e8ec7cc
DATA geluv<>+352(SB)/4, $0xbf914e5d // P6
DATA geluv<>+356(SB)/4, $0xbf914e5d
DATA geluv<>+360(SB)/4, $0xbf914e5d
DATA geluv<>+364(SB)/4, $0xbf914e5d
DATA geluv<>+368(SB)/4, $0xbf914e5d
DATA geluv<>+372(SB)/4, $0xbf914e5d
DATA geluv<>+376(SB)/4, $0xbf914e5d
DATA geluv<>+380(SB)/4, $0xbf914e5d
DATA geluv<>+384(SB)/4, $0x3fbe87b0 // P7
DATA geluv<>+388(SB)/4, $0x3fbe87b0
DATA geluv<>+392(SB)/4, $0x3fbe87b0
DATA geluv<>+396(SB)/4, $0x3fbe87b0
DATA geluv<>+400(SB)/4, $0x3fbe87b0
DATA geluv<>+404(SB)/4, $0x3fbe87b0
DATA geluv<>+408(SB)/4, $0x3fbe87b0
DATA geluv<>+412(SB)/4, $0x3fbe87b0
DATA geluv<>+416(SB)/4, $0xbf527892 // P8
DATA geluv<>+420(SB)/4, $0xbf527892
DATA geluv<>+424(SB)/4, $0xbf527892
DATA geluv<>+428(SB)/4, $0xbf527892
DATA geluv<>+432(SB)/4, $0xbf527892
DATA geluv<>+436(SB)/4, $0xbf527892
DATA geluv<>+440(SB)/4, $0xbf527892
DATA geluv<>+444(SB)/4, $0xbf527892
DATA geluv<>+448(SB)/4, $0x3e2ef945 // P9
DATA geluv<>+452(SB)/4, $0x3e2ef945
DATA geluv<>+456(SB)/4, $0x3e2ef945
DATA geluv<>+460(SB)/4, $0x3e2ef945
DATA geluv<>+464(SB)/4, $0x3e2ef945
DATA geluv<>+468(SB)/4, $0x3e2ef945
DATA geluv<>+472(SB)/4, $0x3e2ef945
DATA geluv<>+476(SB)/4, $0x3e2ef945
DATA geluv<>+480(SB)/4, $0x3fb8aa3b // log2e
DATA geluv<>+484(SB)/4, $0x3fb8aa3b
DATA geluv<>+488(SB)/4, $0x3fb8aa3b
DATA geluv<>+492(SB)/4, $0x3fb8aa3b
DATA geluv<>+496(SB)/4, $0x3fb8aa3b
DATA geluv<>+500(SB)/4, $0x3fb8aa3b
DATA geluv<>+504(SB)/4, $0x3fb8aa3b
DATA geluv<>+508(SB)/4, $0x3fb8aa3b
DATA geluv<>+512(SB)/4, $0x3f318000 // ln2hi
DATA geluv<>+516(SB)/4, $0x3f318000
DATA geluv<>+520(SB)/4, $0x3f318000
DATA geluv<>+524(SB)/4, $0x3f318000
DATA geluv<>+528(SB)/4, $0x3f318000
DATA geluv<>+532(SB)/4, $0x3f318000
DATA geluv<>+536(SB)/4, $0x3f318000
DATA geluv<>+540(SB)/4, $0x3f318000
DATA geluv<>+544(SB)/4, $0xb95e8083 // ln2lo
DATA geluv<>+548(SB)/4, $0xb95e8083
DATA geluv<>+552(SB)/4, $0xb95e8083
DATA geluv<>+556(SB)/4, $0xb95e8083
DATA geluv<>+560(SB)/4, $0xb95e8083
DATA geluv<>+564(SB)/4, $0xb95e8083
DATA geluv<>+568(SB)/4, $0xb95e8083
DATA geluv<>+572(SB)/4, $0xb95e8083
DATA geluv<>+576(SB)/4, $0x3f800000 // E0
DATA geluv<>+580(SB)/4, $0x3f800000
DATA geluv<>+584(SB)/4, $0x3f800000
DATA geluv<>+588(SB)/4, $0x3f800000
DATA geluv<>+592(SB)/4, $0x3f800000
DATA geluv<>+596(SB)/4, $0x3f800000
DATA geluv<>+600(SB)/4, $0x3f800000
DATA geluv<>+604(SB)/4, $0x3f800000
DATA geluv<>+608(SB)/4, $0x3f800000 // E1
DATA geluv<>+612(SB)/4, $0x3f800000
DATA geluv<>+616(SB)/4, $0x3f800000
DATA geluv<>+620(SB)/4, $0x3f800000
DATA geluv<>+624(SB)/4, $0x3f800000
DATA geluv<>+628(SB)/4, $0x3f800000
DATA geluv<>+632(SB)/4, $0x3f800000
DATA geluv<>+636(SB)/4, $0x3f800000
DATA geluv<>+640(SB)/4, $0x3f000000 // E2
DATA geluv<>+644(SB)/4, $0x3f000000
DATA geluv<>+648(SB)/4, $0x3f000000
DATA geluv<>+652(SB)/4, $0x3f000000
DATA geluv<>+656(SB)/4, $0x3f000000
DATA geluv<>+660(SB)/4, $0x3f000000
DATA geluv<>+664(SB)/4, $0x3f000000
DATA geluv<>+668(SB)/4, $0x3f000000
DATA geluv<>+672(SB)/4, $0x3e2aaaab // E3
DATA geluv<>+676(SB)/4, $0x3e2aaaab
DATA geluv<>+680(SB)/4, $0x3e2aaaab
DATA geluv<>+684(SB)/4, $0x3e2aaaab
DATA geluv<>+688(SB)/4, $0x3e2aaaab
DATA geluv<>+692(SB)/4, $0x3e2aaaab
DATA geluv<>+696(SB)/4, $0x3e2aaaab
DATA geluv<>+700(SB)/4, $0x3e2aaaab
DATA geluv<>+704(SB)/4, $0x3d2aaaab // E4
DATA geluv<>+708(SB)/4, $0x3d2aaaab
DATA geluv<>+712(SB)/4, $0x3d2aaaab
DATA geluv<>+716(SB)/4, $0x3d2aaaab
DATA geluv<>+720(SB)/4, $0x3d2aaaab
DATA geluv<>+724(SB)/4, $0x3d2aaaab
DATA geluv<>+728(SB)/4, $0x3d2aaaab
DATA geluv<>+732(SB)/4, $0x3d2aaaab
DATA geluv<>+736(SB)/4, $0x3c088889 // E5
DATA geluv<>+740(SB)/4, $0x3c088889
DATA geluv<>+744(SB)/4, $0x3c088889
DATA geluv<>+748(SB)/4, $0x3c088889
DATA geluv<>+752(SB)/4, $0x3c088889
DATA geluv<>+756(SB)/4, $0x3c088889
DATA geluv<>+760(SB)/4, $0x3c088889
DATA geluv<>+764(SB)/4, $0x3c088889
DATA geluv<>+768(SB)/4, $0x3ab60b61 // E6
DATA geluv<>+772(SB)/4, $0x3ab60b61
DATA geluv<>+776(SB)/4, $0x3ab60b61
DATA geluv<>+780(SB)/4, $0x3ab60b61
DATA geluv<>+784(SB)/4, $0x3ab60b61
DATA geluv<>+788(SB)/4, $0x3ab60b61
DATA geluv<>+792(SB)/4, $0x3ab60b61
DATA geluv<>+796(SB)/4, $0x3ab60b61
DATA geluv<>+800(SB)/4, $0x39500d01 // E7
DATA geluv<>+804(SB)/4, $0x39500d01
DATA geluv<>+808(SB)/4, $0x39500d01
DATA geluv<>+812(SB)/4, $0x39500d01
DATA geluv<>+816(SB)/4, $0x39500d01
DATA geluv<>+820(SB)/4, $0x39500d01
DATA geluv<>+824(SB)/4, $0x39500d01
DATA geluv<>+828(SB)/4, $0x39500d01
DATA geluv<>+832(SB)/4, $0x3ecc422a // invsqrt2pi
DATA geluv<>+836(SB)/4, $0x3ecc422a
DATA geluv<>+840(SB)/4, $0x3ecc422a
DATA geluv<>+844(SB)/4, $0x3ecc422a
DATA geluv<>+848(SB)/4, $0x3ecc422a
DATA geluv<>+852(SB)/4, $0x3ecc422a
DATA geluv<>+856(SB)/4, $0x3ecc422a
DATA geluv<>+860(SB)/4, $0x3ecc422a
DATA geluv<>+864(SB)/4, $0xffffff83 // kmin
DATA geluv<>+868(SB)/4, $0xffffff83
DATA geluv<>+872(SB)/4, $0xffffff83
DATA geluv<>+876(SB)/4, $0xffffff83
DATA geluv<>+880(SB)/4, $0xffffff83
DATA geluv<>+884(SB)/4, $0xffffff83
DATA geluv<>+888(SB)/4, $0xffffff83
DATA geluv<>+892(SB)/4, $0xffffff83
DATA geluv<>+896(SB)/4, $0x0000007f // bias
DATA geluv<>+900(SB)/4, $0x0000007f
DATA geluv<>+904(SB)/4, $0x0000007f
DATA geluv<>+908(SB)/4, $0x0000007f
DATA geluv<>+912(SB)/4, $0x0000007f
DATA geluv<>+916(SB)/4, $0x0000007f
DATA geluv<>+920(SB)/4, $0x0000007f
DATA geluv<>+924(SB)/4, $0x0000007f
GLOBL geluv<>(SB), RODATA|NOPTR, $928

// EXPPAIR8: Y10 = expPairs(c = Y5, hi = Y6, lo = Y7); uses Y8 (k), Y9
// (r), Y12, Y13.
#define EXPPAIR8 \
	VSUBPS       Y6, Y5, Y8; \
	VMULPS       geluv<>+480(SB), Y8, Y8; \
	VROUNDPS     $8, Y8, Y8; \
	VMOVAPS      Y6, Y9; \
	VFNMSUB231PS geluv<>+512(SB), Y8, Y9; \
	VSUBPS       Y7, Y5, Y10; \
	VADDPS       Y10, Y9, Y9; \
	VFNMADD231PS geluv<>+544(SB), Y8, Y9; \
	VMOVUPS      geluv<>+800(SB), Y10; \
	VFMADD213PS  geluv<>+768(SB), Y9, Y10; \
	VFMADD213PS  geluv<>+736(SB), Y9, Y10; \
	VFMADD213PS  geluv<>+704(SB), Y9, Y10; \
	VFMADD213PS  geluv<>+672(SB), Y9, Y10; \
	VFMADD213PS  geluv<>+640(SB), Y9, Y10; \
	VFMADD213PS  geluv<>+608(SB), Y9, Y10; \
	VFMADD213PS  geluv<>+576(SB), Y9, Y10; \
	VCVTPS2DQ    Y8, Y12; \
	VPMAXSD      geluv<>+864(SB), Y12, Y13; \
	VPSUBD       Y13, Y12, Y12; \
	VPADDD       geluv<>+896(SB), Y13, Y13; \
	VPSLLD       $23, Y13, Y13; \
	VPADDD       geluv<>+896(SB), Y12, Y12; \
	VPSLLD       $23, Y12, Y12; \
	VMULPS       Y13, Y10, Y10; \
	VMULPS       Y12, Y10, Y10

// GELUPARTS8: Y11 = Φ(x), Y6 = hi, Y7 = lo for x = Y0; Y15 must be 0.
// Uses Y1..Y10, Y12..Y14.
#define GELUPARTS8 \
	VANDPS      geluv<>+0(SB), Y0, Y1; \
	VMINPS      geluv<>+32(SB), Y1, Y1; \
	VMULPS      geluv<>+64(SB), Y1, Y2; \
	VMOVUPS     geluv<>+128(SB), Y3; \
	VFMADD231PS geluv<>+96(SB), Y2, Y3; \
	VMOVUPS     geluv<>+128(SB), Y4; \
	VDIVPS      Y3, Y4, Y4; \
	VMOVUPS     geluv<>+448(SB), Y5; \
	VFMADD213PS geluv<>+416(SB), Y4, Y5; \
	VFMADD213PS geluv<>+384(SB), Y4, Y5; \
	VFMADD213PS geluv<>+352(SB), Y4, Y5; \
	VFMADD213PS geluv<>+320(SB), Y4, Y5; \
	VFMADD213PS geluv<>+288(SB), Y4, Y5; \
	VFMADD213PS geluv<>+256(SB), Y4, Y5; \
	VFMADD213PS geluv<>+224(SB), Y4, Y5; \
	VFMADD213PS geluv<>+192(SB), Y4, Y5; \
	VFMADD213PS geluv<>+160(SB), Y4, Y5; \
	VMULPS      Y1, Y1, Y6; \
	VMOVAPS     Y6, Y7; \
	VFMSUB231PS Y1, Y1, Y7; \
	VMULPS      geluv<>+96(SB), Y6, Y6; \
	VMULPS      geluv<>+96(SB), Y7, Y7; \
	EXPPAIR8; \
	VMULPS      Y4, Y10, Y10; \
	VMULPS      geluv<>+96(SB), Y10, Y10; \
	VMOVUPS     geluv<>+128(SB), Y11; \
	VSUBPS      Y10, Y11, Y11; \
	VCMPPS      $1, Y15, Y0, Y14; \
	VBLENDVPS   Y14, Y10, Y11, Y11

// func geluAVX2(dst, src *float32, n int)
TEXT ·geluAVX2(SB), NOSPLIT, $0-24
	MOVQ   dst+0(FP), DI
	MOVQ   src+8(FP), SI
	MOVQ   n+16(FP), CX
	VXORPS Y15, Y15, Y15

ageluloop:
	VMOVUPS (SI), Y0
	GELUPARTS8
	VMULPS  Y11, Y0, Y11
	VMOVUPS Y11, (DI)
	ADDQ    $32, SI
	ADDQ    $32, DI
	SUBQ    $8, CX
	JNZ     ageluloop
	VZEROUPPER
	RET

// func geluGradAVX2(dst, grad, x *float32, n int)
TEXT ·geluGradAVX2(SB), NOSPLIT, $0-32
	MOVQ   dst+0(FP), DI
	MOVQ   grad+8(FP), DX
	MOVQ   x+16(FP), SI
	MOVQ   n+24(FP), CX
	VXORPS Y15, Y15, Y15

agradloop:
	VMOVUPS     (SI), Y0
	GELUPARTS8
	VXORPS      Y5, Y5, Y5
	EXPPAIR8
	VMULPS      geluv<>+832(SB), Y10, Y10
	VFMADD231PS Y10, Y0, Y11
	VMULPS      (DX), Y11, Y11
	VMOVUPS     Y11, (DI)
	ADDQ        $32, SI
	ADDQ        $32, DX
	ADDQ        $32, DI
	SUBQ        $8, CX
	JNZ         agradloop
	VZEROUPPER
	RET
