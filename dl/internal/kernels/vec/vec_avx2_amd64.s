//go:build !dlbd_noasm

#include "textflag.h"

// The loops of vec_amd64.s for AVX2 CPUs without AVX-512: the same
// operations on 8 lanes (ymm), n > 0 a multiple of 8, masks as vectors
// (a compare's lanes ANDed with the value) where AVX-512 uses K
// registers.

// func axpyAVX2(alpha float32, x, y *float32, n int)
TEXT ·axpyAVX2(SB), NOSPLIT, $0-32
	VBROADCASTSS alpha+0(FP), Y0
	MOVQ         x+8(FP), SI
	MOVQ         y+16(FP), DI
	MOVQ         n+24(FP), CX

axpyloop:
	VMULPS  (SI), Y0, Y1 // alpha * x, rounded
	VADDPS  (DI), Y1, Y1 // y + that, rounded
	VMOVUPS Y1, (DI)
	ADDQ    $32, SI
	ADDQ    $32, DI
	SUBQ    $8, CX
	JNZ     axpyloop
	VZEROUPPER
	RET

// func reluAVX2(dst, src *float32, n int)
//
// NLE_UQ (predicate 6) is true for v > 0 and NaN; v AND that mask keeps v
// there and gives +0 elsewhere (−0 too), as reluAVX512's zero-masking.
TEXT ·reluAVX2(SB), NOSPLIT, $0-24
	MOVQ   dst+0(FP), DI
	MOVQ   src+8(FP), SI
	MOVQ   n+16(FP), CX
	VXORPS Y0, Y0, Y0

reluloop:
	VMOVUPS (SI), Y1
	VCMPPS  $6, Y0, Y1, Y2
	VANDPS  Y1, Y2, Y2
	VMOVUPS Y2, (DI)
	ADDQ    $32, SI
	ADDQ    $32, DI
	SUBQ    $8, CX
	JNZ     reluloop
	VZEROUPPER
	RET

// func reluGradAVX2(dst, grad, y *float32, n int)
//
//	dst[i] = 0 > -int32(bits(y[i])) ? grad[i] : +0   (as reluGradAVX512)
TEXT ·reluGradAVX2(SB), NOSPLIT, $0-32
	MOVQ   dst+0(FP), DI
	MOVQ   grad+8(FP), SI
	MOVQ   y+16(FP), DX
	MOVQ   n+24(FP), CX
	VPXOR  Y0, Y0, Y0

relugradloop:
	VPSUBD   (DX), Y0, Y1 // 0 - int32(y), wrapping
	VPCMPGTD Y1, Y0, Y1   // 0 > that
	VPAND    (SI), Y1, Y1 // g where set, else 0
	VMOVDQU  Y1, (DI)
	ADDQ     $32, SI
	ADDQ     $32, DX
	ADDQ     $32, DI
	SUBQ     $8, CX
	JNZ      relugradloop
	VZEROUPPER
	RET

// func addAVX2(dst, a, b *float32, n int)
TEXT ·addAVX2(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DX
	MOVQ n+24(FP), CX

addloop:
	VMOVUPS (SI), Y1
	VADDPS  (DX), Y1, Y1
	VMOVUPS Y1, (DI)
	ADDQ    $32, SI
	ADDQ    $32, DX
	ADDQ    $32, DI
	SUBQ    $8, CX
	JNZ     addloop
	VZEROUPPER
	RET

// func affineAVX2(dst, x *float32, n int, a, b float32)
TEXT ·affineAVX2(SB), NOSPLIT, $0-32
	MOVQ         dst+0(FP), DI
	MOVQ         x+8(FP), SI
	MOVQ         n+16(FP), CX
	VBROADCASTSS a+24(FP), Y0
	VBROADCASTSS b+28(FP), Y1

affineloop:
	VMULPS  (SI), Y0, Y2 // a*x, rounded
	VADDPS  Y1, Y2, Y2   // + b, rounded
	VMOVUPS Y2, (DI)
	ADDQ    $32, SI
	ADDQ    $32, DI
	SUBQ    $8, CX
	JNZ     affineloop
	VZEROUPPER
	RET

// func affine2AVX2(dst, x, y *float32, n int, a, b, c float32)
TEXT ·affine2AVX2(SB), NOSPLIT, $0-44
	MOVQ         dst+0(FP), DI
	MOVQ         x+8(FP), SI
	MOVQ         y+16(FP), DX
	MOVQ         n+24(FP), CX
	VBROADCASTSS a+32(FP), Y0
	VBROADCASTSS b+36(FP), Y1
	VBROADCASTSS c+40(FP), Y2

affine2loop:
	VMULPS  (SI), Y0, Y3 // a*x
	VMULPS  (DX), Y1, Y4 // b*y
	VADDPS  Y4, Y3, Y3   // a*x + b*y
	VADDPS  Y2, Y3, Y3   // + c
	VMOVUPS Y3, (DI)
	ADDQ    $32, SI
	ADDQ    $32, DX
	ADDQ    $32, DI
	SUBQ    $8, CX
	JNZ     affine2loop
	VZEROUPPER
	RET
