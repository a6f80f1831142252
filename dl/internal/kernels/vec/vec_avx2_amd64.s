//go:build !dlbd_noasm

#include "textflag.h"
#include "lanes_amd64.h"

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

// The float64 row sums of rows_amd64.s on AVX2: the 16 lanes in four
// vectors (Y0: elements 16i..16i+3, Y1: +4..+7, Y2: +8..+11, Y3:
// +12..+15), every product and sum rounded as in the Go loops, and
// SUMLANES4 adding them as sumLanes does.  n > 0 is a multiple of 16.

// SUMLANES4: X0 = sumLanes of Y0..Y3 (lane l + lane l+8, then halves).
#define SUMLANES4 \
	VADDPD       Y2, Y0, Y0; \
	VADDPD       Y3, Y1, Y1; \
	VADDPD       Y1, Y0, Y0; \
	VEXTRACTF128 $1, Y0, X1; \
	VADDPD       X1, X0, X0; \
	VPERMILPD    $1, X0, X1; \
	VADDSD       X1, X0, X0

#define ZERO4 \
	VXORPD Y0, Y0, Y0; \
	VXORPD Y1, Y1, Y1; \
	VXORPD Y2, Y2, Y2; \
	VXORPD Y3, Y3, Y3

// func sum64AVX2(x *float32, n int) float64
TEXT ·sum64AVX2(SB), NOSPLIT, $0-24
	MOVQ x+0(FP), SI
	MOVQ n+8(FP), CX
	ZERO4

sumloop:
	VCVTPS2PD (SI), Y4
	VCVTPS2PD 16(SI), Y5
	VCVTPS2PD 32(SI), Y6
	VCVTPS2PD 48(SI), Y7
	VADDPD    Y4, Y0, Y0
	VADDPD    Y5, Y1, Y1
	VADDPD    Y6, Y2, Y2
	VADDPD    Y7, Y3, Y3
	ADDQ      $64, SI
	SUBQ      $16, CX
	JNZ       sumloop
	SUMLANES4
	VMOVSD    X0, ret+16(FP)
	VZEROUPPER
	RET

// SQDEV4(off, y): y = (x[off/4 .. +4] − c)², c in Y8.
#define SQDEV4(off, y) \
	VCVTPS2PD off(SI), y; \
	VSUBPD    Y8, y, y; \
	VMULPD    y, y, y

// func sqDevAVX2(x *float32, n int, c float64) float64
TEXT ·sqDevAVX2(SB), NOSPLIT, $0-32
	MOVQ         x+0(FP), SI
	MOVQ         n+8(FP), CX
	VBROADCASTSD c+16(FP), Y8
	ZERO4

sqdevloop:
	SQDEV4(0, Y4)
	SQDEV4(16, Y5)
	SQDEV4(32, Y6)
	SQDEV4(48, Y7)
	VADDPD Y4, Y0, Y0
	VADDPD Y5, Y1, Y1
	VADDPD Y6, Y2, Y2
	VADDPD Y7, Y3, Y3
	ADDQ   $64, SI
	SUBQ   $16, CX
	JNZ    sqdevloop
	SUMLANES4
	VMOVSD X0, ret+24(FP)
	VZEROUPPER
	RET

// DOT4(off, y): y = a[off/4 .. +4]·b[..], in float64.
#define DOT4(off, y) \
	VCVTPS2PD off(SI), y; \
	VCVTPS2PD off(DI), Y8; \
	VMULPD    Y8, y, y

// func dot64AVX2(a, b *float32, n int) float64
TEXT ·dot64AVX2(SB), NOSPLIT, $0-32
	MOVQ a+0(FP), SI
	MOVQ b+8(FP), DI
	MOVQ n+16(FP), CX
	ZERO4

dotloop:
	DOT4(0, Y4)
	DOT4(16, Y5)
	DOT4(32, Y6)
	DOT4(48, Y7)
	VADDPD Y4, Y0, Y0
	VADDPD Y5, Y1, Y1
	VADDPD Y6, Y2, Y2
	VADDPD Y7, Y3, Y3
	ADDQ   $64, SI
	ADDQ   $64, DI
	SUBQ   $16, CX
	JNZ    dotloop
	SUMLANES4
	VMOVSD X0, ret+24(FP)
	VZEROUPPER
	RET


// lanemask: 16 lanes set, then 16 clear; the 8 or 16 lanes from lane
// 16 − n have the first n set (the AVX2 loops here and in taps_amd64.s).
DATA ·lanemask+0(SB)/8, $-1
DATA ·lanemask+8(SB)/8, $-1
DATA ·lanemask+16(SB)/8, $-1
DATA ·lanemask+24(SB)/8, $-1
DATA ·lanemask+32(SB)/8, $-1
DATA ·lanemask+40(SB)/8, $-1
DATA ·lanemask+48(SB)/8, $-1
DATA ·lanemask+56(SB)/8, $-1
DATA ·lanemask+64(SB)/8, $0
DATA ·lanemask+72(SB)/8, $0
DATA ·lanemask+80(SB)/8, $0
DATA ·lanemask+88(SB)/8, $0
DATA ·lanemask+96(SB)/8, $0
DATA ·lanemask+104(SB)/8, $0
DATA ·lanemask+112(SB)/8, $0
DATA ·lanemask+120(SB)/8, $0
GLOBL ·lanemask(SB), RODATA|NOPTR, $128

// MASKN(n, y): y = the mask of the first n (0..8) of 8 lanes; uses AX.
#define MASKN(n, y) \
	MOVQ    $16, AX; \
	SUBQ    n, AX; \
	VMOVDQU (DX)(AX*4), y

// func copyRowsAVX2(dst *float32, ldd int, src *float32, lds, rows, cols, fill int)
//
// CopyRows on AVX2: a row's whole vectors of 8 below cols with plain
// moves, then the rest (the row's last floats and its fill) 8 lanes at a
// time, loaded under the mask of the columns left (zeros past them: the
// fill).  A row of cols + fill >= 8 stores that rest with plain moves, the
// last one moved back to end at cols + fill (it writes again what the one
// before wrote, the same values): AMD's masked stores are slow.  Shorter
// rows store under the mask of what is left.
TEXT ·copyRowsAVX2(SB), NOSPLIT, $0-56
	MOVQ dst+0(FP), DI
	MOVQ ldd+8(FP), R8
	SHLQ $2, R8
	MOVQ src+16(FP), SI
	MOVQ lds+24(FP), R9
	SHLQ $2, R9
	MOVQ rows+32(FP), R10
	MOVQ cols+40(FP), R11
	MOVQ fill+48(FP), R13
	ADDQ R11, R13
	LEAQ -8(R13), R12 // the start of a row's last 8
	LEAQ ·lanemask(SB), DX

crow:
	XORQ BX, BX

cfull:
	LEAQ    8(BX), AX
	CMPQ    AX, R11
	JGT     cedge
	VMOVUPS (SI)(BX*4), Y0
	VMOVUPS Y0, (DI)(BX*4)
	MOVQ    AX, BX
	JMP     cfull

cedge:
	CMPQ       BX, R13
	JGE        cnext
	TESTQ      R12, R12
	JL         cshort
	CMPQ       BX, R12
	JLE        2(PC)
	MOVQ       R12, BX
	MOVQ       R11, CX
	SUBQ       BX, CX
	JGE        2(PC)
	XORQ       CX, CX
	CMPQ       CX, $8
	JLE        2(PC)
	MOVQ       $8, CX
	MASKN(CX, Y1)
	VMASKMOVPS (SI)(BX*4), Y1, Y0
	VMOVUPS    Y0, (DI)(BX*4)
	ADDQ       $8, BX
	JMP        cedge

cshort: // cols + fill < 8: one masked store
	MASKN(R11, Y1)
	MASKN(R13, Y2)
	VMASKMOVPS (SI), Y1, Y0
	VMASKMOVPS Y0, Y2, (DI)

cnext:
	ADDQ R8, DI
	ADDQ R9, SI
	DECQ R10
	JNZ  crow
	VZEROUPPER
	RET

// func gather2RowsAVX2(dst, src *float32, rows, cols, ld int)
//
// Gather2Rows on AVX2: 8 outputs from 16 inputs (VSHUFPS takes the even
// floats of each half, VPERMPD puts the halves in order) while a whole
// 16 lie before the row's last read; then 4 from 8 if 8 still do; then
// the rest one at a time (masked moves cost more here than the scalar
// loop).
TEXT ·gather2RowsAVX2(SB), NOSPLIT, $0-40
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ rows+16(FP), R10
	MOVQ cols+24(FP), R11
	MOVQ ld+32(FP), R9
	SHLQ $2, R9

grow:
	XORQ BX, BX
	MOVQ SI, R12

gfull:
	LEAQ       9(BX), AX
	CMPQ       AX, R11
	JGT        ghalf
	VMOVUPS    (R12), Y0
	VMOVUPS    32(R12), Y1
	VSHUFPS    $0x88, Y1, Y0, Y2
	VPERMPD    $0xD8, Y2, Y2
	VMOVUPS    Y2, (DI)(BX*4)
	ADDQ       $8, BX
	ADDQ       $64, R12
	JMP        gfull

ghalf:
	LEAQ         5(BX), AX
	CMPQ         AX, R11
	JGT          gedge
	VMOVUPS      (R12), Y0
	VEXTRACTF128 $1, Y0, X1
	VSHUFPS      $0x88, X1, X0, X2
	VMOVUPS      X2, (DI)(BX*4)
	ADDQ         $4, BX
	ADDQ         $32, R12

gedge:
	CMPQ   BX, R11
	JGE    gnext
	VMOVSS (R12), X0
	VMOVSS X0, (DI)(BX*4)
	INCQ   BX
	ADDQ   $8, R12
	JMP    gedge

gnext:
	LEAQ (DI)(R11*4), DI
	ADDQ R9, SI
	DECQ R10
	JNZ  grow
	VZEROUPPER
	RET

// func maxAVX2(x *float32, n int) (m float32, nan bool)
//
// maxAVX512 on 8 lanes: two running maxima of 8 lanes (16 floats a
// turn), NaN lanes ignored by VMAXPS and recorded in Y4 (unordered
// compares ORed).
TEXT ·maxAVX2(SB), NOSPLIT, $0-21
	MOVQ         x+0(FP), SI
	MOVQ         n+8(FP), CX
	MOVL         $0xff800000, AX // -Inf
	VMOVD        AX, X0
	VBROADCASTSS X0, Y0
	VMOVAPS      Y0, Y1
	VXORPS       Y4, Y4, Y4

max2loop:
	VMOVUPS (SI), Y2
	VMOVUPS 32(SI), Y3
	VMAXPS  Y0, Y2, Y0    // m = x > m ? x : m (m if x is NaN)
	VMAXPS  Y1, Y3, Y1
	VCMPPS  $3, Y2, Y2, Y2 // NaN lanes
	VCMPPS  $3, Y3, Y3, Y3
	VORPS   Y2, Y4, Y4
	VORPS   Y3, Y4, Y4
	ADDQ    $64, SI
	SUBQ    $16, CX
	JNZ     max2loop

	// Horizontal maximum of the 16 lanes of Y0 and Y1.
	VMAXPS       Y1, Y0, Y0
	MAXLANES8
	VMOVMSKPS    Y4, AX
	TESTL        AX, AX
	SETNE        nan+20(FP)
	VZEROUPPER
	RET

// The LayerNorm row loops of rows_amd64.s on 4 doubles at a time, 16
// elements (4 groups) an iteration, n > 0 a multiple of 16; element j of
// a group of 16 goes into lane j mod 16 of the sums (Y0..Y3 as in
// sum64AVX2), so the results are the AVX-512 loops' and the Go loops'
// bits.

// LNROW4(off32, off64): the 4 elements at byte offset off32 of x (off64
// of w and b): h = (x − μ)·rstd into x̂, h·w + b into out.
#define LNROW4(off32, off64) \
	VCVTPS2PD  off32(SI), Y0; \
	VSUBPD     Y14, Y0, Y0; \
	VMULPD     Y15, Y0, Y0; \
	VCVTPD2PSY Y0, X1; \
	VMOVUPS    X1, off32(DX); \
	VMULPD     off64(R8), Y0, Y2; \
	VADDPD     off64(R9), Y2, Y2; \
	VCVTPD2PSY Y2, X3; \
	VMOVUPS    X3, off32(DI)

// func lnRowAVX2(out, xhat, x *float32, w, b *float64, n int, mean, rs float64)
TEXT ·lnRowAVX2(SB), NOSPLIT, $0-64
	MOVQ         out+0(FP), DI
	MOVQ         xhat+8(FP), DX
	MOVQ         x+16(FP), SI
	MOVQ         w+24(FP), R8
	MOVQ         b+32(FP), R9
	MOVQ         n+40(FP), CX
	VBROADCASTSD mean+48(FP), Y14
	VBROADCASTSD rs+56(FP), Y15

lnrowloop:
	LNROW4(0, 0)
	LNROW4(16, 32)
	LNROW4(32, 64)
	LNROW4(48, 96)
	ADDQ $64, SI
	ADDQ $64, DX
	ADDQ $64, DI
	ADDQ $128, R8
	ADDQ $128, R9
	SUBQ $16, CX
	JNZ  lnrowloop
	VZEROUPPER
	RET

// LNGRAD4(off32, off64, m1, m2): the 4 elements at byte offset off32 of
// grad and x̂ (off64 of w, bw, bb): bw += g·x̂, bb += g, dh = g·w, m1
// lanes += dh, m2 lanes += dh·x̂.
#define LNGRAD4(off32, off64, m1, m2) \
	VCVTPS2PD off32(SI), Y4; \
	VCVTPS2PD off32(DI), Y5; \
	VMULPD    Y5, Y4, Y6; \
	VADDPD    off64(R9), Y6, Y6; \
	VMOVUPD   Y6, off64(R9); \
	VADDPD    off64(R10), Y4, Y7; \
	VMOVUPD   Y7, off64(R10); \
	VMULPD    off64(R8), Y4, Y12; \
	VADDPD    Y12, m1, m1; \
	VMULPD    Y5, Y12, Y13; \
	VADDPD    Y13, m2, m2

// func lnGradSumsAVX2(grad, xhat *float32, w, bw, bb *float64, n int) (m1, m2 float64)
TEXT ·lnGradSumsAVX2(SB), NOSPLIT, $0-64
	MOVQ   grad+0(FP), SI
	MOVQ   xhat+8(FP), DI
	MOVQ   w+16(FP), R8
	MOVQ   bw+24(FP), R9
	MOVQ   bb+32(FP), R10
	MOVQ   n+40(FP), CX
	ZERO4              // m1 lanes
	VXORPD Y8, Y8, Y8  // m2 lanes
	VXORPD Y9, Y9, Y9
	VXORPD Y10, Y10, Y10
	VXORPD Y11, Y11, Y11

lngradsumsloop:
	LNGRAD4(0, 0, Y0, Y8)
	LNGRAD4(16, 32, Y1, Y9)
	LNGRAD4(32, 64, Y2, Y10)
	LNGRAD4(48, 96, Y3, Y11)
	ADDQ $64, SI
	ADDQ $64, DI
	ADDQ $128, R8
	ADDQ $128, R9
	ADDQ $128, R10
	SUBQ $16, CX
	JNZ  lngradsumsloop
	SUMLANES4
	VMOVSD  X0, m1+48(FP)
	VMOVAPD Y8, Y0
	VMOVAPD Y9, Y1
	VMOVAPD Y10, Y2
	VMOVAPD Y11, Y3
	SUMLANES4
	VMOVSD  X0, m2+56(FP)
	VZEROUPPER
	RET

// LNGRADROW4(off32, off64): the 4 elements at byte offset off32 of grad,
// x̂ and gx (off64 of w): gx = rstd·(g·w − m1 − x̂·m2).
#define LNGRADROW4(off32, off64) \
	VCVTPS2PD  off32(SI), Y0; \
	VMULPD     off64(R8), Y0, Y0; \
	VSUBPD     Y13, Y0, Y0; \
	VCVTPS2PD  off32(DI), Y1; \
	VMULPD     Y14, Y1, Y1; \
	VSUBPD     Y1, Y0, Y0; \
	VMULPD     Y15, Y0, Y0; \
	VCVTPD2PSY Y0, X2; \
	VMOVUPS    X2, off32(DX)

// func lnGradRowAVX2(gx, grad, xhat *float32, w *float64, n int, rs, m1, m2 float64)
TEXT ·lnGradRowAVX2(SB), NOSPLIT, $0-64
	MOVQ         gx+0(FP), DX
	MOVQ         grad+8(FP), SI
	MOVQ         xhat+16(FP), DI
	MOVQ         w+24(FP), R8
	MOVQ         n+32(FP), CX
	VBROADCASTSD rs+40(FP), Y15
	VBROADCASTSD m1+48(FP), Y13
	VBROADCASTSD m2+56(FP), Y14

lngradrowloop:
	LNGRADROW4(0, 0)
	LNGRADROW4(16, 32)
	LNGRADROW4(32, 64)
	LNGRADROW4(48, 96)
	ADDQ $64, SI
	ADDQ $64, DI
	ADDQ $64, DX
	ADDQ $128, R8
	SUBQ $16, CX
	JNZ  lngradrowloop
	VZEROUPPER
	RET

// SG4(off): the 4 elements at byte offset off of dP (in dst) and P:
// dst = P·(dP − D)·scale.
#define SG4(off) \
	VCVTPS2PD  off(DI), Y0; \
	VSUBPD     Y14, Y0, Y0; \
	VCVTPS2PD  off(SI), Y1; \
	VMULPD     Y0, Y1, Y0; \
	VMULPD     Y15, Y0, Y0; \
	VCVTPD2PSY Y0, X2; \
	VMOVUPS    X2, off(DI)

// func softmaxGradAVX2(dst, p *float32, n int, d, scale float64)
TEXT ·softmaxGradAVX2(SB), NOSPLIT, $0-40
	MOVQ         dst+0(FP), DI
	MOVQ         p+8(FP), SI
	MOVQ         n+16(FP), CX
	VBROADCASTSD d+24(FP), Y14
	VBROADCASTSD scale+32(FP), Y15

sgloop:
	SG4(0)
	SG4(16)
	ADDQ $32, SI
	ADDQ $32, DI
	SUBQ $8, CX
	JNZ  sgloop
	VZEROUPPER
	RET

// func scatterAdd2RowsAVX2(dst, src *float32, rows, cols, ld int)
//
// ScatterAdd2Rows on AVX2: 8 packed values spread over the even lanes of
// 16 (VPERMPD puts the pairs of each half in place, VUNPCKLPS and
// VUNPCKHPS double each), added to dst's 16 floats (dst + src, as the Go
// expression) and blended back with dst's odd floats, bit for bit as read,
// while a whole 16 lie before the row's last element written; then 4
// into 8 if 8 still do; then the rest one at a time (masked moves cost
// more here than the scalar loop).
TEXT ·scatterAdd2RowsAVX2(SB), NOSPLIT, $0-40
	MOVQ     dst+0(FP), DI
	MOVQ     src+8(FP), SI
	MOVQ     rows+16(FP), R10
	MOVQ     cols+24(FP), R11
	MOVQ     ld+32(FP), R9
	SHLQ     $2, R9

srow:
	XORQ BX, BX
	MOVQ DI, R12

sfull:
	LEAQ      9(BX), AX
	CMPQ      AX, R11
	JGT       shalf
	VMOVUPS   (SI)(BX*4), Y0
	VPERMPD   $0xD8, Y0, Y0
	VUNPCKLPS Y0, Y0, Y1
	VUNPCKHPS Y0, Y0, Y2
	VMOVUPS   (R12), Y3
	VMOVUPS   32(R12), Y4
	VADDPS    Y1, Y3, Y1
	VADDPS    Y2, Y4, Y2
	VBLENDPS  $0xAA, Y3, Y1, Y1
	VBLENDPS  $0xAA, Y4, Y2, Y2
	VMOVUPS   Y1, (R12)
	VMOVUPS   Y2, 32(R12)
	ADDQ      $8, BX
	ADDQ      $64, R12
	JMP       sfull

shalf:
	LEAQ         5(BX), AX
	CMPQ         AX, R11
	JGT          sedge
	VMOVUPS      (SI)(BX*4), X0
	VUNPCKLPS    X0, X0, X1
	VUNPCKHPS    X0, X0, X2
	VINSERTF128  $1, X2, Y1, Y1
	VMOVUPS      (R12), Y3
	VADDPS       Y1, Y3, Y1
	VBLENDPS     $0xAA, Y3, Y1, Y1
	VMOVUPS      Y1, (R12)
	ADDQ         $4, BX
	ADDQ         $32, R12

sedge:
	CMPQ   BX, R11
	JGE    snext
	VMOVSS (R12), X1
	VADDSS (SI)(BX*4), X1, X1
	VMOVSS X1, (R12)
	INCQ   BX
	ADDQ   $8, R12
	JMP    sedge

snext:
	LEAQ (SI)(R11*4), SI
	ADDQ R9, DI
	DECQ R10
	JNZ  srow
	VZEROUPPER
	RET

// lanes2<>: 2i for the lanes i of 8, as int32.
DATA lanes2<>+0(SB)/4, $0
DATA lanes2<>+4(SB)/4, $2
DATA lanes2<>+8(SB)/4, $4
DATA lanes2<>+12(SB)/4, $6
DATA lanes2<>+16(SB)/4, $8
DATA lanes2<>+20(SB)/4, $10
DATA lanes2<>+24(SB)/4, $12
DATA lanes2<>+28(SB)/4, $14
GLOBL lanes2<>(SB), RODATA|NOPTR, $32

// MAXSTEP2(v, o): where v (a candidate) is greater than best (Y4) or NaN,
// best = v and the offset (Y5, int32 lanes) = o.
#define MAXSTEP2(v, o) \
	VCMPPS    $0x1e, Y4, v, Y6; \
	VCMPPS    $0x03, v, v, Y7; \
	VORPS     Y7, Y6, Y6; \
	VBLENDVPS Y6, v, Y4, Y4; \
	VBLENDVPS Y6, o, Y5, Y5

// MAXBLOCK2: the 8 window maxima of outputs BX..BX+7 into dst and their
// int64 indexes, base + 2i + offset, into arg.
#define MAXBLOCK2 \
	VMOVUPS      (SI)(BX*8), Y0; \
	VMOVUPS      32(SI)(BX*8), Y1; \
	VMOVUPS      (DX)(BX*8), Y2; \
	VMOVUPS      32(DX)(BX*8), Y3; \
	VSHUFPS      $0x88, Y1, Y0, Y4; \
	VPERMPD      $0xD8, Y4, Y4; /* top[2i]: the first candidate */ \
	VSHUFPS      $0xDD, Y1, Y0, Y0; \
	VPERMPD      $0xD8, Y0, Y0; /* top[2i+1] */ \
	VSHUFPS      $0x88, Y3, Y2, Y1; \
	VPERMPD      $0xD8, Y1, Y1; /* bottom[2i] */ \
	VSHUFPS      $0xDD, Y3, Y2, Y2; \
	VPERMPD      $0xD8, Y2, Y2; /* bottom[2i+1] */ \
	VPXOR        Y5, Y5, Y5; \
	MAXSTEP2(Y0, Y11); \
	MAXSTEP2(Y1, Y12); \
	MAXSTEP2(Y2, Y13); \
	VPADDD       Y14, Y5, Y5; \
	LEAQ         (R9)(BX*2), AX; \
	VMOVQ        AX, X10; \
	VPBROADCASTQ X10, Y10; \
	VEXTRACTI128 $1, Y5, X9; \
	VPMOVSXDQ    X5, Y8; \
	VPMOVSXDQ    X9, Y9; \
	VPADDQ       Y10, Y8, Y8; \
	VPADDQ       Y10, Y9, Y9; \
	VMOVUPS      Y4, (DI)(BX*4); \
	VMOVDQU      Y8, (R8)(BX*8); \
	VMOVDQU      Y9, 32(R8)(BX*8)

// func maxPool2RowAVX2(dst *float32, arg *int64, top, bottom *float32, n, base, w int)
//
// MaxPool2Row on AVX2 for n >= 8: blocks of 8 outputs from 16 elements of
// each row (VSHUFPS and VPERMPD part the even and odd ones), the last
// block ending at n and overlapping the one before it where n%8 != 0 (its
// outputs written again, alike).
TEXT ·maxPool2RowAVX2(SB), NOSPLIT, $0-56
	MOVQ         dst+0(FP), DI
	MOVQ         arg+8(FP), R8
	MOVQ         top+16(FP), SI
	MOVQ         bottom+24(FP), DX
	MOVQ         n+32(FP), CX
	MOVQ         base+40(FP), R9
	MOVQ         w+48(FP), AX
	VMOVD        AX, X12
	VPBROADCASTD X12, Y12       // w
	MOVL         $1, AX
	VMOVD        AX, X11
	VPBROADCASTD X11, Y11       // 1
	VPADDD       Y11, Y12, Y13  // w+1
	VMOVDQU      lanes2<>(SB), Y14
	XORQ         BX, BX

mp2full:
	LEAQ 8(BX), AX
	CMPQ AX, CX
	JGT  mp2last
	MAXBLOCK2
	ADDQ $8, BX
	JMP  mp2full

mp2last:
	CMPQ BX, CX
	JGE  mp2done
	LEAQ -8(CX), BX
	MAXBLOCK2

mp2done:
	VZEROUPPER
	RET
