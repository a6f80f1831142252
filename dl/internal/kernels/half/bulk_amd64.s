//go:build !dlbd_noasm

#include "textflag.h"

// All functions convert n elements, n > 0 and a multiple of the vector
// width (16 for AVX-512, 8 for AVX); the Go wrappers in bulk_amd64.go
// convert the remainder with the generic loops.

// func encodeF16AVX512(dst *uint16, src *float32, n int)
//
//	for i := 0; i < n; i++ { dst[i] = Float32ToFloat16(src[i]) }
//
// VCVTPS2PH with immediate 0 rounds to nearest even regardless of MXCSR;
// it keeps subnormal results and quiets NaN keeping sign and top payload,
// exactly like Float32ToFloat16 (the tests compare all cases).
TEXT ·encodeF16AVX512(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX

e16loop512:
	VMOVUPS   (SI), Z0
	VCVTPS2PH $0, Z0, Y1
	VMOVDQU   Y1, (DI)
	ADDQ      $64, SI
	ADDQ      $32, DI
	SUBQ      $16, CX
	JNZ       e16loop512
	VZEROUPPER
	RET

// func decodeF16AVX512(dst *float32, src *uint16, n int)
//
//	for i := 0; i < n; i++ { dst[i] = Float16ToFloat32(src[i]) }
TEXT ·decodeF16AVX512(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX

d16loop512:
	VCVTPH2PS (SI), Z0
	VMOVUPS   Z0, (DI)
	ADDQ      $32, SI
	ADDQ      $64, DI
	SUBQ      $16, CX
	JNZ       d16loop512
	VZEROUPPER
	RET

// func encodeF16F16C(dst *uint16, src *float32, n int)
//
// Same as encodeF16AVX512 with 256-bit vectors (F16C + AVX).
TEXT ·encodeF16F16C(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX

e16loop:
	VMOVUPS   (SI), Y0
	VCVTPS2PH $0, Y0, X1
	VMOVDQU   X1, (DI)
	ADDQ      $32, SI
	ADDQ      $16, DI
	SUBQ      $8, CX
	JNZ       e16loop
	VZEROUPPER
	RET

// func decodeF16F16C(dst *float32, src *uint16, n int)
//
// Same as decodeF16AVX512 with 256-bit vectors (F16C + AVX).
TEXT ·decodeF16F16C(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX

d16loop:
	VCVTPH2PS (SI), Y0
	VMOVUPS   Y0, (DI)
	ADDQ      $16, SI
	ADDQ      $32, DI
	SUBQ      $8, CX
	JNZ       d16loop
	VZEROUPPER
	RET

// BF16CONSTS loads the constants of BF16ENC: Z28 = 0x7fff, Z29 = 1,
// Z30 = 0x7fffffff, Z31 = 0x7f800000, Z27 = 0x40 (AX scratch).
#define BF16CONSTS \
	MOVL         $0x7fff, AX \
	VPBROADCASTD AX, Z28 \
	MOVL         $1, AX \
	VPBROADCASTD AX, Z29 \
	MOVL         $0x7fffffff, AX \
	VPBROADCASTD AX, Z30 \
	MOVL         $0x7f800000, AX \
	VPBROADCASTD AX, Z31 \
	MOVL         $0x40, AX \
	VPBROADCASTD AX, Z27

// BF16ENC(z, y): y = the bfloat16 bits of the 16 floats of z, the
// integer round-to-nearest-even of Float32ToBFloat16:
//
//	b := bits(src[i])
//	if b&0x7fffffff > 0x7f800000 { dst[i] = b>>16 | 0x40 }   // NaN: quiet it
//	else { dst[i] = (b + 0x7fff + (b>>16)&1) >> 16 }
//
// Z1..Z4 and K3 are scratch; y may be z's lower half.
#define BF16ENC(z, y) \
	VPSRLD  $16, z, Z1 \
	VPANDD  Z29, Z1, Z2 \
	VPADDD  Z28, z, Z3 \
	VPADDD  Z2, Z3, Z3 \
	VPSRLD  $16, Z3, Z3 \
	VPANDD  Z30, z, Z4 \
	VPCMPUD $6, Z31, Z4, K3 \
	VPORD   Z27, Z1, K3, Z3 \
	VPMOVDW Z3, y

// func encodeBF16AVX512(dst *uint16, src *float32, n int)
TEXT ·encodeBF16AVX512(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	BF16CONSTS

ebloop:
	VMOVDQU32 (SI), Z0
	BF16ENC(Z0, Y5)
	VMOVDQU   Y5, (DI)
	ADDQ      $64, SI
	ADDQ      $32, DI
	SUBQ      $16, CX
	JNZ       ebloop
	VZEROUPPER
	RET

// func encodeRowsAVX512(dst *uint16, ldd int, src *float32, lds, rows int, mlo, mhi uint64, bias *float32, f16 int)
//
// EncodeBFloat16Rows (f16 = 0) and EncodeFloat16Rows (f16 = 1) for at
// most 32 columns: mlo masks columns 0..15, mhi 16..31; ldd and lds are
// byte strides.  Masked loads and stores touch nothing past the columns.
TEXT ·encodeRowsAVX512(SB), NOSPLIT, $0-72
	MOVQ  dst+0(FP), DI
	MOVQ  ldd+8(FP), R8
	MOVQ  src+16(FP), SI
	MOVQ  lds+24(FP), R9
	MOVQ  rows+32(FP), CX
	MOVQ  mlo+40(FP), AX
	KMOVW AX, K1
	MOVQ  mhi+48(FP), AX
	KMOVW AX, K2
	MOVQ  bias+56(FP), DX
	MOVQ  f16+64(FP), BX
	BF16CONSTS
	TESTQ DX, DX
	JZ    rowloop
	VMOVUPS.Z (DX), K1, Z20
	VMOVUPS.Z 64(DX), K2, Z21

rowloop:
	VMOVUPS.Z (SI), K1, Z0
	VMOVUPS.Z 64(SI), K2, Z6
	TESTQ     DX, DX
	JZ        encode
	VADDPS    Z20, Z0, Z0
	VADDPS    Z21, Z6, Z6

encode:
	TESTQ BX, BX
	JNZ   tof16
	BF16ENC(Z0, Y5)
	BF16ENC(Z6, Y7)
	JMP   store

tof16:
	VCVTPS2PH $0, Z0, Y5
	VCVTPS2PH $0, Z6, Y7

store:
	VMOVDQU16 Y5, K1, (DI)
	VMOVDQU16 Y7, K2, 32(DI)
	ADDQ      R9, SI
	ADDQ      R8, DI
	DECQ      CX
	JNZ       rowloop
	VZEROUPPER
	RET

// func encodeBF16NE(dst *uint16, src *float32, n int)
//
// VCVTNEPS2BF16 (AVX512_BF16).  Not used by EncodeBFloat16: it treats
// subnormal inputs as zero (an implicit DAZ), so it differs from
// Float32ToBFloat16 on float32 subnormals; kept for the benchmark that
// shows the cost of exactness and for the test that documents the
// difference.
TEXT ·encodeBF16NE(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX

enloop:
	VMOVUPS (SI), Z0
	// VCVTNEPS2BF16 Z0, Y1 (EVEX.512.F3.0F38.W0 72 /r; the Go
	// assembler does not know the instruction)
	BYTE $0x62; BYTE $0xF2; BYTE $0x7E; BYTE $0x48; BYTE $0x72; BYTE $0xC8
	VMOVDQU Y1, (DI)
	ADDQ    $64, SI
	ADDQ    $32, DI
	SUBQ    $16, CX
	JNZ     enloop
	VZEROUPPER
	RET

// func decodeBF16AVX512(dst *float32, src *uint16, n int)
//
//	f := uint32(src[i]) << 16
//	if f&0x7fffffff > 0x7f800000 { f |= 0x00400000 }   // quiet NaN
//	dst[i] = f
TEXT ·decodeBF16AVX512(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	MOVL $0x7fffffff, AX
	VPBROADCASTD AX, Z30
	MOVL $0x7f800000, AX
	VPBROADCASTD AX, Z31
	MOVL $0x00400000, AX
	VPBROADCASTD AX, Z29

dbloop:
	VPMOVZXWD (SI), Z0
	VPSLLD    $16, Z0, Z0
	VPANDD    Z30, Z0, Z1
	VPCMPUD   $6, Z31, Z1, K1
	VPORD     Z29, Z0, K1, Z0
	VMOVDQU32 Z0, (DI)
	ADDQ      $32, SI
	ADDQ      $64, DI
	SUBQ      $16, CX
	JNZ       dbloop
	VZEROUPPER
	RET

// BF16AVX2CONSTS: Y10 = 0x7fffffff (|x|), Y11 = 0x7f800000 (+Inf),
// Y12 = 1, Y13 = 0x7fff, Y14 = 0x40, Y15 = 0x00400000.
#define BF16AVX2CONSTS \
	MOVL         $0x7fffffff, AX; \
	VMOVD        AX, X10; \
	VPBROADCASTD X10, Y10; \
	MOVL         $0x7f800000, AX; \
	VMOVD        AX, X11; \
	VPBROADCASTD X11, Y11; \
	MOVL         $1, AX; \
	VMOVD        AX, X12; \
	VPBROADCASTD X12, Y12; \
	MOVL         $0x7fff, AX; \
	VMOVD        AX, X13; \
	VPBROADCASTD X13, Y13; \
	MOVL         $0x40, AX; \
	VMOVD        AX, X14; \
	VPBROADCASTD X14, Y14; \
	MOVL         $0x00400000, AX; \
	VMOVD        AX, X15; \
	VPBROADCASTD X15, Y15

// func encodeBF16AVX2(dst *uint16, src *float32, n int)
//
// encodeBF16AVX512 on 8 floats at a time (AVX2), the integer RNE of
// Float32ToBFloat16:
//
//	x := bits(src[i])
//	if x&0x7fffffff > 0x7f800000 { dst[i] = x>>16 | 0x40 }        // quiet NaN
//	else                         { dst[i] = (x + 0x7fff + (x>>16)&1) >> 16 }
//
// The signed compare is exact: |x| is below 2³¹.  The 32-bit results
// (at most 0xffff) are packed to 16 bits without saturating.
TEXT ·encodeBF16AVX2(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	BF16AVX2CONSTS

eb2loop:
	VMOVDQU      (SI), Y0
	VPAND        Y10, Y0, Y1
	VPCMPGTD     Y11, Y1, Y2  // NaN lanes
	VPSRLD       $16, Y0, Y3  // x>>16
	VPAND        Y12, Y3, Y4  // the kept part's last bit
	VPADDD       Y13, Y0, Y5
	VPADDD       Y4, Y5, Y5
	VPSRLD       $16, Y5, Y5  // rounded
	VPOR         Y14, Y3, Y3  // quiet NaN
	VPBLENDVB    Y2, Y3, Y5, Y5
	VEXTRACTI128 $1, Y5, X6
	VPACKUSDW    X6, X5, X5
	VMOVDQU      X5, (DI)
	ADDQ         $32, SI
	ADDQ         $16, DI
	SUBQ         $8, CX
	JNZ          eb2loop
	VZEROUPPER
	RET

// func decodeBF16AVX2(dst *float32, src *uint16, n int)
//
// decodeBF16AVX512 on 8 values at a time (AVX2):
//
//	f := uint32(src[i]) << 16
//	if f&0x7fffffff > 0x7f800000 { f |= 0x00400000 }   // quiet NaN
//	dst[i] = f
TEXT ·decodeBF16AVX2(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	BF16AVX2CONSTS

db2loop:
	VPMOVZXWD (SI), Y0
	VPSLLD    $16, Y0, Y0
	VPAND     Y10, Y0, Y1
	VPCMPGTD  Y11, Y1, Y2
	VPAND     Y15, Y2, Y2
	VPOR      Y2, Y0, Y0
	VMOVDQU   Y0, (DI)
	ADDQ      $16, SI
	ADDQ      $32, DI
	SUBQ      $8, CX
	JNZ       db2loop
	VZEROUPPER
	RET
