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
