//go:build !dlbd_noasm

#include "textflag.h"
#include "transpose_amd64.h"

// The packing loops of pack_amd64.s for 16-bit float sources: the same
// layouts, with each row decoded to float32 in registers as it is loaded
// (VCVTPH2PS for float16; zero-extension and a 16-bit left shift for
// bfloat16, whose bits are the top half of a float32).  Source strides are
// in bytes, as for float32; a source row of 16 values is 32 bytes.

// LOADF16: reg = row r (16 float16 at addr, decoded) if r < rows (AX),
// else zero.
#define LOADF16(r, addr, reg) \
	VPXORD    reg, reg, reg; \
	CMPQ      AX, $r; \
	JLE       2(PC); \
	VCVTPH2PS addr, reg

// LOADBF16: the same for bfloat16: uint32(b) << 16.
#define LOADBF16(r, addr, reg) \
	VPXORD    reg, reg, reg; \
	CMPQ      AX, $r; \
	JLE       3(PC); \
	VPMOVZXWD addr, reg; \
	VPSLLD    $16, reg, reg

// SETUPT loads the arguments of the transposes and sets K1, R9, R10 as
// transposePanelAVX512 does.
#define SETUPT \
	MOVQ  dst+0(FP), DI; \
	MOVQ  dstStride+8(FP), DX; \
	MOVQ  src+16(FP), SI; \
	MOVQ  srcStride+24(FP), BX; \
	MOVQ  rows+32(FP), AX; \
	MOVQ  width+40(FP), R12; \
	MOVQ  blocks+48(FP), CX; \
	MOVQ  $1, R8; \
	SHLXQ R12, R8, R8; \
	DECQ  R8; \
	KMOVW R8, K1; \
	LEAQ  (BX)(BX*2), R9; \
	LEAQ  (DX)(DX*2), R10

// func transposeF16AVX512(dst *float32, dstStride int, src *uint16, srcStride int, rows, width, blocks int)
//
// transposePanelAVX512 with float16 source rows (block b reads 16 values
// at src + i*srcStride + 32*b):
//
//	dst[(16b+j)*dstStride/4 + i] = Float16ToFloat32(src[i*srcStride/2 + 16b + j]), 0 for rows <= i < width
TEXT ·transposeF16AVX512(SB), NOSPLIT, $0-56
	SETUPT
	TESTQ CX, CX
	JZ    f16done

f16block:
	MOVQ    SI, R11
	LOADF16(0, (R11), Z0)
	LOADF16(1, (R11)(BX*1), Z1)
	LOADF16(2, (R11)(BX*2), Z2)
	LOADF16(3, (R11)(R9*1), Z3)
	LEAQ    (R11)(BX*4), R11
	LOADF16(4, (R11), Z4)
	LOADF16(5, (R11)(BX*1), Z5)
	LOADF16(6, (R11)(BX*2), Z6)
	LOADF16(7, (R11)(R9*1), Z7)
	LEAQ    (R11)(BX*4), R11
	LOADF16(8, (R11), Z8)
	LOADF16(9, (R11)(BX*1), Z9)
	LOADF16(10, (R11)(BX*2), Z10)
	LOADF16(11, (R11)(R9*1), Z11)
	LEAQ    (R11)(BX*4), R11
	LOADF16(12, (R11), Z12)
	LOADF16(13, (R11)(BX*1), Z13)
	LOADF16(14, (R11)(BX*2), Z14)
	LOADF16(15, (R11)(R9*1), Z15)
	TRANSPOSE16
	STORE16 // DI: 16 columns further
	ADDQ    $32, SI
	DECQ    CX
	JNZ     f16block

f16done:
	VZEROUPPER
	RET

// func transposeBF16AVX512(dst *float32, dstStride int, src *uint16, srcStride int, rows, width, blocks int)
//
// transposeF16AVX512 for bfloat16:
//
//	dst[(16b+j)*dstStride/4 + i] = BFloat16ToFloat32(src[i*srcStride/2 + 16b + j]), 0 for rows <= i < width
TEXT ·transposeBF16AVX512(SB), NOSPLIT, $0-56
	SETUPT
	TESTQ CX, CX
	JZ    bf16done

bf16block:
	MOVQ    SI, R11
	LOADBF16(0, (R11), Z0)
	LOADBF16(1, (R11)(BX*1), Z1)
	LOADBF16(2, (R11)(BX*2), Z2)
	LOADBF16(3, (R11)(R9*1), Z3)
	LEAQ    (R11)(BX*4), R11
	LOADBF16(4, (R11), Z4)
	LOADBF16(5, (R11)(BX*1), Z5)
	LOADBF16(6, (R11)(BX*2), Z6)
	LOADBF16(7, (R11)(R9*1), Z7)
	LEAQ    (R11)(BX*4), R11
	LOADBF16(8, (R11), Z8)
	LOADBF16(9, (R11)(BX*1), Z9)
	LOADBF16(10, (R11)(BX*2), Z10)
	LOADBF16(11, (R11)(R9*1), Z11)
	LEAQ    (R11)(BX*4), R11
	LOADBF16(12, (R11), Z12)
	LOADBF16(13, (R11)(BX*1), Z13)
	LOADBF16(14, (R11)(BX*2), Z14)
	LOADBF16(15, (R11)(R9*1), Z15)
	TRANSPOSE16
	STORE16 // DI: 16 columns further
	ADDQ    $32, SI
	DECQ    CX
	JNZ     bf16block

bf16done:
	VZEROUPPER
	RET

// func copyHalfAVX512(dst *float32, dstStride int, src *uint16, srcStride int, valid, width, count int, bf16 bool)
//
// copyPanelAVX512 with 16-bit float source rows, decoded:
//
//	for r := 0; r < count; r++ {
//		d := dst[r*dstStride/4:][:width]
//		for j := range d {
//			d[j] = 0
//			if j < valid {
//				d[j] = decode(src[r*srcStride/2 + j]) // Float16ToFloat32, or BFloat16ToFloat32 if bf16
//			}
//		}
//	}
//
// The 16-bit loads are masked (K1, K2: words 0..15 and 16..31 below
// valid), so nothing past a row is read; the stores are masked to width
// (K3, K4), as in copyPanelAVX512.
TEXT ·copyHalfAVX512(SB), NOSPLIT, $0-57
	MOVQ dst+0(FP), DI
	MOVQ dstStride+8(FP), DX
	MOVQ src+16(FP), SI
	MOVQ srcStride+24(FP), BX
	MOVQ valid+32(FP), AX
	MOVQ width+40(FP), R8
	MOVQ count+48(FP), CX
	MOVBLZX bf16+56(FP), R10

	MOVQ  $1, R9
	SHLXQ AX, R9, R9
	DECQ  R9             // (1 << valid) - 1
	KMOVW R9, K1
	SHRQ  $16, R9
	KMOVW R9, K2
	MOVQ  $1, R9
	SHLXQ R8, R9, R9
	DECQ  R9             // (1 << width) - 1
	KMOVW R9, K3
	SHRQ  $16, R9
	KMOVW R9, K4
	TESTQ CX, CX
	JZ    hdone
	TESTQ R10, R10
	JNZ   bf16rows
	CMPQ  R8, $16
	JG    f16wide

f16narrow:
	VMOVDQU16.Z (SI), K1, Y0
	VCVTPH2PS   Y0, Z0
	VMOVUPS     Z0, K3, (DI)
	ADDQ        BX, SI
	ADDQ        DX, DI
	DECQ        CX
	JNZ         f16narrow
	JMP         hdone

f16wide:
	VMOVDQU16.Z (SI), K1, Y0
	VMOVDQU16.Z 32(SI), K2, Y1
	VCVTPH2PS   Y0, Z0
	VCVTPH2PS   Y1, Z1
	VMOVUPS     Z0, K3, (DI)
	VMOVUPS     Z1, K4, 64(DI)
	ADDQ        BX, SI
	ADDQ        DX, DI
	DECQ        CX
	JNZ         f16wide
	JMP         hdone

bf16rows:
	CMPQ R8, $16
	JG   bf16wide

bf16narrow:
	VMOVDQU16.Z (SI), K1, Y0
	VPMOVZXWD   Y0, Z0
	VPSLLD      $16, Z0, Z0
	VMOVUPS     Z0, K3, (DI)
	ADDQ        BX, SI
	ADDQ        DX, DI
	DECQ        CX
	JNZ         bf16narrow
	JMP         hdone

bf16wide:
	VMOVDQU16.Z (SI), K1, Y0
	VMOVDQU16.Z 32(SI), K2, Y1
	VPMOVZXWD   Y0, Z0
	VPMOVZXWD   Y1, Z1
	VPSLLD      $16, Z0, Z0
	VPSLLD      $16, Z1, Z1
	VMOVUPS     Z0, K3, (DI)
	VMOVUPS     Z1, K4, 64(DI)
	ADDQ        BX, SI
	ADDQ        DX, DI
	DECQ        CX
	JNZ         bf16wide

hdone:
	VZEROUPPER
	RET

// func interleaveBF16AVX512(dst *float32, dstStride int, src *uint16, srcStride int, valid, width, pairs int)
//
// Packs pairs of bfloat16 rows into 32-bit words, for the VDPBF16PS
// kernel: pair p reads rows 2p and 2p+1 (src + 2p*srcStride, one
// srcStride further; strides in bytes) and writes, for j < width,
//
//	dst[p*dstStride/4 + j] = uint32(row0[j]) | uint32(row1[j])<<16   (j < valid; 0 for valid <= j < width)
//
// (valid <= width <= 32).  Loads are masked to valid words (K1, K2) and
// stores to width words (K3, K4), as in copyHalfAVX512.
TEXT ·interleaveBF16AVX512(SB), NOSPLIT, $0-56
	MOVQ dst+0(FP), DI
	MOVQ dstStride+8(FP), DX
	MOVQ src+16(FP), SI
	MOVQ srcStride+24(FP), BX
	MOVQ valid+32(FP), AX
	MOVQ width+40(FP), R8
	MOVQ pairs+48(FP), CX

	MOVQ  $1, R9
	SHLXQ AX, R9, R9
	DECQ  R9             // (1 << valid) - 1
	KMOVW R9, K1
	SHRQ  $16, R9
	KMOVW R9, K2
	MOVQ  $1, R9
	SHLXQ R8, R9, R9
	DECQ  R9             // (1 << width) - 1
	KMOVW R9, K3
	SHRQ  $16, R9
	KMOVW R9, K4
	LEAQ  (BX)(BX*1), R10 // 2*srcStride: the next pair of rows
	TESTQ CX, CX
	JZ    ildone
	CMPQ  R8, $16
	JG    ilwide

ilnarrow:
	VMOVDQU16.Z (SI), K1, Y0
	VMOVDQU16.Z (SI)(BX*1), K1, Y1
	VPMOVZXWD   Y0, Z0
	VPMOVZXWD   Y1, Z1
	VPSLLD      $16, Z1, Z1
	VPORD       Z1, Z0, Z0 // low half: step 2p, high half: step 2p+1
	VMOVUPS     Z0, K3, (DI)
	ADDQ        R10, SI
	ADDQ        DX, DI
	DECQ        CX
	JNZ         ilnarrow
	JMP         ildone

ilwide:
	VMOVDQU16.Z (SI), K1, Y0
	VMOVDQU16.Z (SI)(BX*1), K1, Y1
	VMOVDQU16.Z 32(SI), K2, Y2
	VMOVDQU16.Z 32(SI)(BX*1), K2, Y3
	VPMOVZXWD   Y0, Z0
	VPMOVZXWD   Y1, Z1
	VPMOVZXWD   Y2, Z2
	VPMOVZXWD   Y3, Z3
	VPSLLD      $16, Z1, Z1
	VPSLLD      $16, Z3, Z3
	VPORD       Z1, Z0, Z0
	VPORD       Z3, Z2, Z2
	VMOVUPS     Z0, K3, (DI)
	VMOVUPS     Z2, K4, 64(DI)
	ADDQ        R10, SI
	ADDQ        DX, DI
	DECQ        CX
	JNZ         ilwide

ildone:
	VZEROUPPER
	RET

// func chunkRowsAVX512(dst, src *uint16, lda, rows, chunks, dstStride int)
//
// The AMX packing of rows of A (packRowsAMX): for each of rows rows
// (lda bytes apart in src, 64 bytes apart in dst), chunks runs of 32
// steps (64 bytes) moved to dst, dstStride bytes apart.
TEXT ·chunkRowsAVX512(SB), NOSPLIT, $0-48
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ lda+16(FP), R8
	MOVQ rows+24(FP), R9
	MOVQ chunks+32(FP), R10
	MOVQ dstStride+40(FP), R11

chunkrow:
	MOVQ SI, AX
	MOVQ DI, BX
	MOVQ R10, CX

chunkcol:
	VMOVDQU64 (AX), Z0
	VMOVDQU64 Z0, (BX)
	ADDQ      $64, AX
	ADDQ      R11, BX
	DECQ      CX
	JNZ       chunkcol
	ADDQ      R8, SI
	ADDQ      $64, DI
	DECQ      R9
	JNZ       chunkrow
	VZEROUPPER
	RET
