//go:build !dlbd_noasm

#include "textflag.h"
#include "lanes_amd64.h"

// Every loop handles n elements, n > 0 and a multiple of 16 (the Go
// wrappers in vec_amd64.go pass such a prefix).  Loads and stores are
// unaligned (VMOVUPS), which costs nothing extra on aligned data.

// func axpyAVX512(alpha float32, x, y *float32, n int)
//
//	for i := 0; i < n; i++ { y[i] += alpha * x[i] }
TEXT ·axpyAVX512(SB), NOSPLIT, $0-32
	VBROADCASTSS alpha+0(FP), Z0
	MOVQ         x+8(FP), SI
	MOVQ         y+16(FP), DI
	MOVQ         n+24(FP), CX

axpyloop:
	VMULPS  (SI), Z0, Z1 // t = alpha * x[i:i+16], rounded
	VADDPS  (DI), Z1, Z1 // t = y[i:i+16] + t, rounded
	VMOVUPS Z1, (DI)     // y[i:i+16] = t
	ADDQ    $64, SI
	ADDQ    $64, DI
	SUBQ    $16, CX
	JNZ     axpyloop
	VZEROUPPER
	RET

// func reluAVX512(dst, src *float32, n int)
//
//	for i := 0; i < n; i++ { dst[i] = max(src[i], 0) }
//
// The compare "not less or equal, unordered" (predicate 6, NLE_UQ) is true
// for v > 0 and for NaN; the zero-masking move keeps v there and writes +0
// elsewhere (so −0 gives +0, like Go's max).
TEXT ·reluAVX512(SB), NOSPLIT, $0-24
	MOVQ   dst+0(FP), DI
	MOVQ   src+8(FP), SI
	MOVQ   n+16(FP), CX
	VXORPS Z0, Z0, Z0

reluloop:
	VMOVUPS   (SI), Z1
	VCMPPS    $6, Z0, Z1, K1 // k1[j] = !(v[j] <= 0)
	VMOVUPS.Z Z1, K1, Z2     // z[j] = k1[j] ? v[j] : +0
	VMOVUPS   Z2, (DI)
	ADDQ      $64, SI
	ADDQ      $64, DI
	SUBQ      $16, CX
	JNZ       reluloop
	VZEROUPPER
	RET

// func reluGradAVX512(dst, grad, y *float32, n int)
//
//	for i := 0; i < n; i++ { dst[i] = -int32(bits(y[i])) < 0 ? grad[i] : +0 }
TEXT ·reluGradAVX512(SB), NOSPLIT, $0-32
	MOVQ   dst+0(FP), DI
	MOVQ   grad+8(FP), SI
	MOVQ   y+16(FP), DX
	MOVQ   n+24(FP), CX
	VPXORD Z0, Z0, Z0

relugradloop:
	VPSUBD      (DX), Z0, Z1 // z1[j] = 0 - int32(y[j]), wrapping
	VPCMPGTD    Z1, Z0, K1   // k1[j] = 0 > z1[j]
	VMOVDQU32.Z (SI), K1, Z2 // z[j] = k1[j] ? g[j] : 0
	VMOVDQU32   Z2, (DI)
	ADDQ        $64, SI
	ADDQ        $64, DX
	ADDQ        $64, DI
	SUBQ        $16, CX
	JNZ         relugradloop
	VZEROUPPER
	RET

// func addAVX512(dst, a, b *float32, n int)
//
//	for i := 0; i < n; i++ { dst[i] = a[i] + b[i] }
TEXT ·addAVX512(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DX
	MOVQ n+24(FP), CX

addloop:
	VMOVUPS (SI), Z1
	VADDPS  (DX), Z1, Z1
	VMOVUPS Z1, (DI)
	ADDQ    $64, SI
	ADDQ    $64, DX
	ADDQ    $64, DI
	SUBQ    $16, CX
	JNZ     addloop
	VZEROUPPER
	RET

// func maxAVX512(x *float32, n int) (m float32, nan bool)
//
//	m = -Inf; for i := 0; i < n; i++ { if x[i] != x[i] { nan = true } else { m = max(m, x[i]) } }
//
// VMAXPS returns its second source when either is NaN, so with the
// running maximum second a NaN element leaves it alone; a separate
// unordered compare (predicate 3) collects NaNs into K2.
TEXT ·maxAVX512(SB), NOSPLIT, $0-21
	MOVQ         x+0(FP), SI
	MOVQ         n+8(FP), CX
	MOVL         $0xff800000, AX // -Inf
	VMOVD        AX, X0
	VBROADCASTSS X0, Z0
	KXORW        K2, K2, K2

maxloop:
	VMOVUPS (SI), Z2
	VMAXPS  Z0, Z2, Z0     // m = x > m ? x : m (m if x is NaN)
	VCMPPS  $3, Z2, Z2, K1 // NaN lanes
	KORW    K1, K2, K2
	ADDQ    $64, SI
	SUBQ    $16, CX
	JNZ     maxloop

	// Horizontal maximum of Z0's 16 lanes.
	VEXTRACTF64X4 $1, Z0, Y1
	VMAXPS        Y1, Y0, Y0
	MAXLANES8
	KMOVW         K2, AX
	TESTL         AX, AX
	SETNE         nan+20(FP)
	VZEROUPPER
	RET

// func affineAVX512(dst, x *float32, n int, a, b float32)
//
//	for i := 0; i < n; i++ { dst[i] = a*x[i] + b }
TEXT ·affineAVX512(SB), NOSPLIT, $0-32
	MOVQ         dst+0(FP), DI
	MOVQ         x+8(FP), SI
	MOVQ         n+16(FP), CX
	VBROADCASTSS a+24(FP), Z0
	VBROADCASTSS b+28(FP), Z1

affineloop:
	VMULPS  (SI), Z0, Z2 // a*x, rounded
	VADDPS  Z1, Z2, Z2   // + b, rounded
	VMOVUPS Z2, (DI)
	ADDQ    $64, SI
	ADDQ    $64, DI
	SUBQ    $16, CX
	JNZ     affineloop
	VZEROUPPER
	RET

// func affine2AVX512(dst, x, y *float32, n int, a, b, c float32)
//
//	for i := 0; i < n; i++ { dst[i] = a*x[i] + b*y[i] + c }
TEXT ·affine2AVX512(SB), NOSPLIT, $0-44
	MOVQ         dst+0(FP), DI
	MOVQ         x+8(FP), SI
	MOVQ         y+16(FP), DX
	MOVQ         n+24(FP), CX
	VBROADCASTSS a+32(FP), Z0
	VBROADCASTSS b+36(FP), Z1
	VBROADCASTSS c+40(FP), Z2

affine2loop:
	VMULPS  (SI), Z0, Z3 // a*x
	VMULPS  (DX), Z1, Z4 // b*y
	VADDPS  Z4, Z3, Z3   // a*x + b*y
	VADDPS  Z2, Z3, Z3   // + c
	VMOVUPS Z3, (DI)
	ADDQ    $64, SI
	ADDQ    $64, DX
	ADDQ    $64, DI
	SUBQ    $16, CX
	JNZ     affine2loop
	VZEROUPPER
	RET
