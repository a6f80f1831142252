//go:build !dlbd_noasm

#include "textflag.h"
#include "lanes_amd64.h"

// Row loops on float32 rows in float64 lanes: LayerNorm's (layernorm.go)
// and the softmax gradient's (softmax.go):
// each VCVTPS2PD widens 8 floats, every product and sum is rounded as in
// the Go loops (no VFMADD), VCVTPD2PS rounds back to nearest even like
// Go's float32().  n > 0 is a multiple of 16.  The sums keep 16 lanes in
// two vectors, the first for elements 16i..16i+7, the second for
// 16i+8..16i+15, and SUMLANES adds them as sumLanes does.

// func sum64AVX512(x *float32, n int) float64
TEXT ·sum64AVX512(SB), NOSPLIT, $0-24
	MOVQ   x+0(FP), SI
	MOVQ   n+8(FP), CX
	VXORPD Z0, Z0, Z0
	VXORPD Z1, Z1, Z1

sumloop:
	VCVTPS2PD (SI), Z2
	VCVTPS2PD 32(SI), Z3
	VADDPD    Z2, Z0, Z0
	VADDPD    Z3, Z1, Z1
	ADDQ      $64, SI
	SUBQ      $16, CX
	JNZ       sumloop
	SUMLANES(Z0, Z1, Y0, Y1, X0, X1)
	MOVSD     X0, ret+16(FP)
	VZEROUPPER
	RET

// func sqDevAVX512(x *float32, n int, c float64) float64
TEXT ·sqDevAVX512(SB), NOSPLIT, $0-32
	MOVQ         x+0(FP), SI
	MOVQ         n+8(FP), CX
	VBROADCASTSD c+16(FP), Z4
	VXORPD       Z0, Z0, Z0
	VXORPD       Z1, Z1, Z1

sqdevloop:
	VCVTPS2PD (SI), Z2
	VCVTPS2PD 32(SI), Z3
	VSUBPD    Z4, Z2, Z2 // a = x − c
	VSUBPD    Z4, Z3, Z3
	VMULPD    Z2, Z2, Z2 // a²
	VMULPD    Z3, Z3, Z3
	VADDPD    Z2, Z0, Z0
	VADDPD    Z3, Z1, Z1
	ADDQ      $64, SI
	SUBQ      $16, CX
	JNZ       sqdevloop
	SUMLANES(Z0, Z1, Y0, Y1, X0, X1)
	MOVSD     X0, ret+24(FP)
	VZEROUPPER
	RET

// func lnRowAVX512(out, xhat, x *float32, w, b *float64, n int, mean, rs float64)
TEXT ·lnRowAVX512(SB), NOSPLIT, $0-64
	MOVQ         out+0(FP), DI
	MOVQ         xhat+8(FP), DX
	MOVQ         x+16(FP), SI
	MOVQ         w+24(FP), R8
	MOVQ         b+32(FP), R9
	MOVQ         n+40(FP), CX
	VBROADCASTSD mean+48(FP), Z30
	VBROADCASTSD rs+56(FP), Z31

lnrowloop:
	VCVTPS2PD (SI), Z0
	VSUBPD    Z30, Z0, Z0 // x − μ
	VMULPD    Z31, Z0, Z0 // h = (x − μ)·rstd
	VCVTPD2PS Z0, Y1
	VMOVUPS   Y1, (DX)    // x̂
	VMULPD    (R8), Z0, Z2 // h·w
	VADDPD    (R9), Z2, Z2 //   + b
	VCVTPD2PS Z2, Y3
	VMOVUPS   Y3, (DI)
	ADDQ      $32, SI
	ADDQ      $32, DX
	ADDQ      $32, DI
	ADDQ      $64, R8
	ADDQ      $64, R9
	SUBQ      $8, CX
	JNZ       lnrowloop
	VZEROUPPER
	RET

// LNGRADHALF(off32, off64, m1, m2): the 8 elements at float offset
// off32 (double offset off64) of the 16 in hand: bw += g·x̂, bb += g,
// dh = g·w, m1 lanes += dh, m2 lanes += dh·x̂.
#define LNGRADHALF(off32, off64, m1, m2) \
	VCVTPS2PD off32(SI), Z4 \
	VCVTPS2PD off32(DI), Z5 \
	VMULPD    Z5, Z4, Z6 \
	VADDPD    off64(R9), Z6, Z6 \
	VMOVUPD   Z6, off64(R9) \
	VADDPD    off64(R10), Z4, Z7 \
	VMOVUPD   Z7, off64(R10) \
	VMULPD    off64(R8), Z4, Z8 \
	VADDPD    Z8, m1, m1 \
	VMULPD    Z5, Z8, Z9 \
	VADDPD    Z9, m2, m2

// func lnGradSumsAVX512(grad, xhat *float32, w, bw, bb *float64, n int) (m1, m2 float64)
TEXT ·lnGradSumsAVX512(SB), NOSPLIT, $0-64
	MOVQ   grad+0(FP), SI
	MOVQ   xhat+8(FP), DI
	MOVQ   w+16(FP), R8
	MOVQ   bw+24(FP), R9
	MOVQ   bb+32(FP), R10
	MOVQ   n+40(FP), CX
	VXORPD Z0, Z0, Z0 // m1, elements 16i..16i+7
	VXORPD Z1, Z1, Z1 // m1, elements 16i+8..16i+15
	VXORPD Z2, Z2, Z2 // m2, the same
	VXORPD Z3, Z3, Z3

lngradsumsloop:
	LNGRADHALF(0, 0, Z0, Z2)
	LNGRADHALF(32, 64, Z1, Z3)
	ADDQ $64, SI
	ADDQ $64, DI
	ADDQ $128, R8
	ADDQ $128, R9
	ADDQ $128, R10
	SUBQ $16, CX
	JNZ  lngradsumsloop
	SUMLANES(Z0, Z1, Y0, Y1, X0, X1)
	SUMLANES(Z2, Z3, Y2, Y3, X2, X3)
	MOVSD X0, m1+48(FP)
	MOVSD X2, m2+56(FP)
	VZEROUPPER
	RET

// func lnGradRowAVX512(gx, grad, xhat *float32, w *float64, n int, rs, m1, m2 float64)
TEXT ·lnGradRowAVX512(SB), NOSPLIT, $0-64
	MOVQ         gx+0(FP), DX
	MOVQ         grad+8(FP), SI
	MOVQ         xhat+16(FP), DI
	MOVQ         w+24(FP), R8
	MOVQ         n+32(FP), CX
	VBROADCASTSD rs+40(FP), Z31
	VBROADCASTSD m1+48(FP), Z29
	VBROADCASTSD m2+56(FP), Z30

lngradrowloop:
	VCVTPS2PD (SI), Z0
	VMULPD    (R8), Z0, Z0 // g·w
	VSUBPD    Z29, Z0, Z0  //   − m1
	VCVTPS2PD (DI), Z1
	VMULPD    Z30, Z1, Z1  // x̂·m2
	VSUBPD    Z1, Z0, Z0   // g·w − m1 − x̂·m2
	VMULPD    Z31, Z0, Z0  // rstd·(...)
	VCVTPD2PS Z0, Y2
	VMOVUPS   Y2, (DX)
	ADDQ      $32, SI
	ADDQ      $32, DI
	ADDQ      $32, DX
	ADDQ      $64, R8
	SUBQ      $8, CX
	JNZ       lngradrowloop
	VZEROUPPER
	RET

// func dot64AVX512(a, b *float32, n int) float64
TEXT ·dot64AVX512(SB), NOSPLIT, $0-32
	MOVQ   a+0(FP), SI
	MOVQ   b+8(FP), DI
	MOVQ   n+16(FP), CX
	VXORPD Z0, Z0, Z0
	VXORPD Z1, Z1, Z1

dotloop:
	VCVTPS2PD (SI), Z2
	VCVTPS2PD 32(SI), Z3
	VCVTPS2PD (DI), Z4
	VCVTPS2PD 32(DI), Z5
	VMULPD    Z4, Z2, Z2
	VMULPD    Z5, Z3, Z3
	VADDPD    Z2, Z0, Z0
	VADDPD    Z3, Z1, Z1
	ADDQ      $64, SI
	ADDQ      $64, DI
	SUBQ      $16, CX
	JNZ       dotloop
	SUMLANES(Z0, Z1, Y0, Y1, X0, X1)
	MOVSD     X0, ret+24(FP)
	VZEROUPPER
	RET

// func softmaxGradAVX512(dst, p *float32, n int, d, scale float64)
TEXT ·softmaxGradAVX512(SB), NOSPLIT, $0-40
	MOVQ         dst+0(FP), DI
	MOVQ         p+8(FP), SI
	MOVQ         n+16(FP), CX
	VBROADCASTSD d+24(FP), Z30
	VBROADCASTSD scale+32(FP), Z31

sgloop:
	VCVTPS2PD (DI), Z0
	VSUBPD    Z30, Z0, Z0 // dP − D
	VCVTPS2PD (SI), Z1
	VMULPD    Z0, Z1, Z0  // P·(dP − D)
	VMULPD    Z31, Z0, Z0 //   ·scale
	VCVTPD2PS Z0, Y2
	VMOVUPS   Y2, (DI)
	ADDQ      $32, SI
	ADDQ      $32, DI
	SUBQ      $8, CX
	JNZ       sgloop
	VZEROUPPER
	RET
