//go:build !dlbd_noasm

#include "textflag.h"

// func sgemmAVX2(k int, a, b, c *float32, ldc int, alpha, beta float32)
//
// The 6x16 micro-kernel for AVX2+FMA CPUs without AVX-512 (same contract
// and Go equivalent as sgemmAVX512, with MR=6, NR=16).  With 16 ymm
// registers the classic 6x16 tile fits exactly:
//	Y0..Y11   accumulators; row i in Y(2i) (cols 0..7), Y(2i+1) (8..15)
//	Y12,Y13   the current B row (16 floats = 64 bytes per k step)
//	Y14,Y15   broadcast A values (6 floats = 24 bytes per k step)

// ROW: acc0, acc1 += A value (broadcast) * B row.
#define ROW(aoff, bc, acc0, acc1) \
	VBROADCASTSS (aoff)(SI), bc; \
	VFMADD231PS  bc, Y12, acc0; \
	VFMADD231PS  bc, Y13, acc1

// KSTEP: one rank-1 update of the 6x16 tile.
#define KSTEP(s) \
	VMOVUPS ((s)*64)(DI), Y12; \
	VMOVUPS ((s)*64+32)(DI), Y13; \
	ROW((s)*24+0, Y14, Y0, Y1); \
	ROW((s)*24+4, Y15, Y2, Y3); \
	ROW((s)*24+8, Y14, Y4, Y5); \
	ROW((s)*24+12, Y15, Y6, Y7); \
	ROW((s)*24+16, Y14, Y8, Y9); \
	ROW((s)*24+20, Y15, Y10, Y11)

// SCALE: r0, r1 *= alpha (Y14).
#define SCALE(r0, r1) \
	VMULPS Y14, r0, r0; \
	VMULPS Y14, r1, r1

// STROW:  c = acc            (beta == 0: c is not read)
#define STROW(r0, r1) \
	VMOVUPS r0, (DX); \
	VMOVUPS r1, 32(DX); \
	ADDQ    BX, DX

// ADDROW: c = acc + c        (beta == 1)
#define ADDROW(r0, r1) \
	VADDPS  (DX), r0, r0; \
	VADDPS  32(DX), r1, r1; \
	STROW(r0, r1)

// FMAROW: c = acc + beta*c   (beta in Y15)
#define FMAROW(r0, r1) \
	VFMADD231PS (DX), Y15, r0; \
	VFMADD231PS 32(DX), Y15, r1; \
	STROW(r0, r1)

#define ALLROWS(M) \
	M(Y0, Y1); M(Y2, Y3); M(Y4, Y5); M(Y6, Y7); M(Y8, Y9); M(Y10, Y11)

// ZEROY2, ZEROY: clear accumulators (ALLROWS(ZEROY2) the 6x16 tile's).
#define ZEROY2(r0, r1) \
	VXORPS r0, r0, r0; \
	VXORPS r1, r1, r1

#define ZEROY(r) VXORPS r, r, r

// ROWSARGS loads a Rows kernel's arguments: CX = k, SI = a, R9 = offs,
// DI = b, BX = ldc in bytes.
#define ROWSARGS \
	MOVQ k+0(FP), CX; \
	MOVQ a+8(FP), SI; \
	MOVQ offs+16(FP), R9; \
	MOVQ b+24(FP), DI; \
	MOVQ ldc+40(FP), BX; \
	SHLQ $2, BX

// ROWSLOOP runs KS(s) for the k steps of a Rows kernel, 4 at a time then
// one at a time, A's panel (SI) 24 bytes and offs (R9) 8 a step.
#define ROWSLOOP(KS, loop4, tail, loop1, done) \
	SUBQ $4, CX; \
	JL   tail; \
loop4: \
	KS(0); \
	KS(1); \
	KS(2); \
	KS(3); \
	ADDQ $(4*24), SI; \
	ADDQ $(4*8), R9; \
	SUBQ $4, CX; \
	JGE  loop4; \
tail: \
	ADDQ $4, CX; \
	JZ   done; \
loop1: \
	KS(0); \
	ADDQ $24, SI; \
	ADDQ $8, R9; \
	DECQ CX; \
	JNZ  loop1; \
done:

// ROWSSTORE writes (add: adds) the accumulators of a Rows kernel with an
// add flag into C, ROWSM(ST) or ROWSM(ADD) over its rows, and returns.
#define ROWSSTORE(ROWSM, ST, ADD, acc) \
	MOVQ c+32(FP), DX; \
	CMPB add+48(FP), $0; \
	JNE  acc; \
	ROWSM(ST); \
	VZEROUPPER; \
	RET; \
acc: \
	ROWSM(ADD); \
	VZEROUPPER; \
	RET

TEXT ·sgemmAVX2(SB), NOSPLIT, $0-48
	MOVQ k+0(FP), CX
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DI
	MOVQ ldc+32(FP), BX
	SHLQ $2, BX

	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7
	VXORPS Y8, Y8, Y8
	VXORPS Y9, Y9, Y9
	VXORPS Y10, Y10, Y10
	VXORPS Y11, Y11, Y11

	// for p := 0; p+4 <= k; p += 4
	SUBQ $4, CX
	JL   tail

loop4:
	KSTEP(0)
	KSTEP(1)
	KSTEP(2)
	KSTEP(3)
	ADDQ $(4*24), SI
	ADDQ $(4*64), DI
	SUBQ $4, CX
	JGE  loop4

tail:
	// for ; p < k; p++
	ADDQ $4, CX
	JZ   done

loop1:
	KSTEP(0)
	ADDQ $24, SI
	ADDQ $64, DI
	DECQ CX
	JNZ  loop1

done:
	// acc *= alpha
	VBROADCASTSS alpha+40(FP), Y14
	ALLROWS(SCALE)

	// switch beta { case 0: c = acc; case 1: c += acc; default: c = acc + beta*c }
	MOVQ c+24(FP), DX
	MOVL beta+44(FP), AX
	TESTL $0x7fffffff, AX
	JZ    overwrite
	CMPL  AX, $0x3f800000
	JEQ   accumulate
	VBROADCASTSS beta+44(FP), Y15
	ALLROWS(FMAROW)
	VZEROUPPER
	RET

accumulate:
	ALLROWS(ADDROW)
	VZEROUPPER
	RET

overwrite:
	ALLROWS(STROW)
	VZEROUPPER
	RET

// func sgemm6x16RowsAVX2(k int, a *float32, offs *int, b, c *float32, ldc int, alpha, beta float32)
//
// sgemmAVX2 with B read in place, as sgemm8x48RowsAVX512 reads it: row p
// of the 16-column B panel is the 16 floats at b + offs[p] bytes (offs:
// k byte offsets), so a convolution's columns are never built (implicit
// GEMM).  Registers as sgemmAVX2's, and R9 walking offs, R10 the row's
// offset.

// KSTEPROWS4: one rank-1 update of the first 4 rows from B row offs[s]
// (sgemm4x16RowsAVX2).
#define KSTEPROWS4(s) \
	MOVQ    ((s)*8)(R9), R10; \
	VMOVUPS (DI)(R10*1), Y12; \
	VMOVUPS 32(DI)(R10*1), Y13; \
	ROW((s)*24+0, Y14, Y0, Y1); \
	ROW((s)*24+4, Y15, Y2, Y3); \
	ROW((s)*24+8, Y14, Y4, Y5); \
	ROW((s)*24+12, Y15, Y6, Y7)

// KSTEPROWS: one rank-1 update from B row offs[s] (relative to R9).
#define KSTEPROWS(s) \
	KSTEPROWS4(s); \
	ROW((s)*24+16, Y14, Y8, Y9); \
	ROW((s)*24+20, Y15, Y10, Y11)

TEXT ·sgemm6x16RowsAVX2(SB), NOSPLIT, $0-56
	ROWSARGS

	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7
	VXORPS Y8, Y8, Y8
	VXORPS Y9, Y9, Y9
	VXORPS Y10, Y10, Y10
	VXORPS Y11, Y11, Y11

	ROWSLOOP(KSTEPROWS, rloop4, rtail, rloop1, rdone)
	VBROADCASTSS alpha+48(FP), Y14
	ALLROWS(SCALE)

	MOVQ c+32(FP), DX
	MOVL beta+52(FP), AX
	TESTL $0x7fffffff, AX
	JZ    roverwrite
	CMPL  AX, $0x3f800000
	JEQ   raccumulate
	VBROADCASTSS beta+52(FP), Y15
	ALLROWS(FMAROW)
	VZEROUPPER
	RET

raccumulate:
	ALLROWS(ADDROW)
	VZEROUPPER
	RET

roverwrite:
	ALLROWS(STROW)
	VZEROUPPER
	RET

// func transpose6x8AVX2(dst, src *float32, srcStride, blocks int)
//
// The packing of A for the 6x16 kernel: blocks times, 6 rows of 8 floats
// (row i at src + i·srcStride bytes, block b 32 bytes further per b) are
// written as 8 steps of 6 (dst[(8b+j)·6 + i] = row i's float 8b+j).
// Unpacks and shuffles make the columns' rows 0..3 (Y0..Y3: columns j
// and j+4 in their halves) and rows 4..5 (Y10, Y11: two columns per
// half), stored as 16 and 8 bytes.
TEXT ·transpose6x8AVX2(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ srcStride+16(FP), R8
	MOVQ blocks+24(FP), CX
	LEAQ (R8)(R8*2), R9

tloop:
	VMOVUPS      (SI), Y0
	VMOVUPS      (SI)(R8*1), Y1
	VMOVUPS      (SI)(R8*2), Y2
	VMOVUPS      (SI)(R9*1), Y3
	LEAQ         (SI)(R8*4), R10
	VMOVUPS      (R10), Y4
	VMOVUPS      (R10)(R8*1), Y5
	VUNPCKLPS    Y1, Y0, Y6
	VUNPCKHPS    Y1, Y0, Y7
	VUNPCKLPS    Y3, Y2, Y8
	VUNPCKHPS    Y3, Y2, Y9
	VUNPCKLPS    Y5, Y4, Y10
	VUNPCKHPS    Y5, Y4, Y11
	VSHUFPS      $0x44, Y8, Y6, Y0
	VSHUFPS      $0xEE, Y8, Y6, Y1
	VSHUFPS      $0x44, Y9, Y7, Y2
	VSHUFPS      $0xEE, Y9, Y7, Y3
	VMOVUPS      X0, 0(DI)
	VMOVLPS      X10, 16(DI)
	VMOVUPS      X1, 24(DI)
	VMOVHPS      X10, 40(DI)
	VMOVUPS      X2, 48(DI)
	VMOVLPS      X11, 64(DI)
	VMOVUPS      X3, 72(DI)
	VMOVHPS      X11, 88(DI)
	VEXTRACTF128 $1, Y10, X12
	VEXTRACTF128 $1, Y11, X13
	VEXTRACTF128 $1, Y0, 96(DI)
	VMOVLPS      X12, 112(DI)
	VEXTRACTF128 $1, Y1, 120(DI)
	VMOVHPS      X12, 136(DI)
	VEXTRACTF128 $1, Y2, 144(DI)
	VMOVLPS      X13, 160(DI)
	VEXTRACTF128 $1, Y3, 168(DI)
	VMOVHPS      X13, 184(DI)
	ADDQ         $32, SI
	ADDQ         $192, DI
	DECQ         CX
	JNZ          tloop
	VZEROUPPER
	RET

// func transpose8x8AVX2(dst *float32, dstStride int, src *float32, srcStride, blocks int)
//
// The packing of a transposed B for the 6x16 kernel: blocks times, 8 rows
// of 8 floats (row i at src + i·srcStride bytes, block b 32 bytes further
// per b) are written as 8 rows of 8 (row j at dst + (8b+j)·dstStride
// bytes holds column 8b+j of the source rows): unpacks, shuffles and
// lane permutes, the classic 8x8 transpose.
TEXT ·transpose8x8AVX2(SB), NOSPLIT, $0-40
	MOVQ dst+0(FP), DI
	MOVQ dstStride+8(FP), R11
	MOVQ src+16(FP), SI
	MOVQ srcStride+24(FP), R8
	MOVQ blocks+32(FP), CX
	LEAQ (R8)(R8*2), R9
	LEAQ (R11)(R11*2), R12

t8loop:
	VMOVUPS    (SI), Y0
	VMOVUPS    (SI)(R8*1), Y1
	VMOVUPS    (SI)(R8*2), Y2
	VMOVUPS    (SI)(R9*1), Y3
	LEAQ       (SI)(R8*4), R10
	VMOVUPS    (R10), Y4
	VMOVUPS    (R10)(R8*1), Y5
	VMOVUPS    (R10)(R8*2), Y6
	VMOVUPS    (R10)(R9*1), Y7
	VUNPCKLPS  Y1, Y0, Y8
	VUNPCKHPS  Y1, Y0, Y9
	VUNPCKLPS  Y3, Y2, Y10
	VUNPCKHPS  Y3, Y2, Y11
	VUNPCKLPS  Y5, Y4, Y12
	VUNPCKHPS  Y5, Y4, Y13
	VUNPCKLPS  Y7, Y6, Y14
	VUNPCKHPS  Y7, Y6, Y15
	VSHUFPS    $0x44, Y10, Y8, Y0
	VSHUFPS    $0xEE, Y10, Y8, Y1
	VSHUFPS    $0x44, Y11, Y9, Y2
	VSHUFPS    $0xEE, Y11, Y9, Y3
	VSHUFPS    $0x44, Y14, Y12, Y4
	VSHUFPS    $0xEE, Y14, Y12, Y5
	VSHUFPS    $0x44, Y15, Y13, Y6
	VSHUFPS    $0xEE, Y15, Y13, Y7
	VPERM2F128 $0x20, Y4, Y0, Y8
	VPERM2F128 $0x20, Y5, Y1, Y9
	VPERM2F128 $0x20, Y6, Y2, Y10
	VPERM2F128 $0x20, Y7, Y3, Y11
	VPERM2F128 $0x31, Y4, Y0, Y12
	VPERM2F128 $0x31, Y5, Y1, Y13
	VPERM2F128 $0x31, Y6, Y2, Y14
	VPERM2F128 $0x31, Y7, Y3, Y15
	VMOVUPS    Y8, (DI)
	VMOVUPS    Y9, (DI)(R11*1)
	VMOVUPS    Y10, (DI)(R11*2)
	VMOVUPS    Y11, (DI)(R12*1)
	LEAQ       (DI)(R11*4), R13
	VMOVUPS    Y12, (R13)
	VMOVUPS    Y13, (R13)(R11*1)
	VMOVUPS    Y14, (R13)(R11*2)
	VMOVUPS    Y15, (R13)(R12*1)
	ADDQ       $32, SI
	LEAQ       (DI)(R11*8), DI
	DECQ       CX
	JNZ        t8loop
	VZEROUPPER
	RET

// func sgemm4x16RowsAVX2(k int, a *float32, offs *int, b, c *float32, ldc int, add bool)
//
// sgemm6x16RowsAVX2 on the first 4 rows of a 6-row A panel only (the last
// panel of a product whose m%6 is 4, or fewer rows through a tile): the
// same steps with 8 accumulators (Y0..Y7), C written (add: added to) on 4
// rows, so the panel's missing rows are neither computed nor stored.

#define ROWS4(M) \
	M(Y0, Y1); M(Y2, Y3); M(Y4, Y5); M(Y6, Y7)

TEXT ·sgemm4x16RowsAVX2(SB), NOSPLIT, $0-49
	ROWSARGS

	ROWS4(ZEROY2)

	ROWSLOOP(KSTEPROWS4, r4loop4, r4tail, r4loop1, r4done)
	ROWSSTORE(ROWS4, STROW, ADDROW, r4accumulate)

// func sgemm6x8RowsAVX2(k int, a *float32, offs *int, b, c *float32, ldc int, add bool)
//
// sgemm6x16RowsAVX2 on 8 columns (the last ones of a product whose n%16
// is 8): row p of B is the 8 floats at b + offs[p] bytes, one load a step
// into Y12, the 6 rows accumulated in Y0..Y5, C written (add: added to)
// on 8 columns.  Each element is summed in the same order as by the
// 16-column tile.

// KSTEPROWS8: one rank-1 update of the 6x8 tile from B row offs[s].
#define KSTEPROWS8(s) \
	MOVQ         ((s)*8)(R9), R10; \
	VMOVUPS      (DI)(R10*1), Y12; \
	VBROADCASTSS ((s)*24+0)(SI), Y14; \
	VFMADD231PS  Y14, Y12, Y0; \
	VBROADCASTSS ((s)*24+4)(SI), Y15; \
	VFMADD231PS  Y15, Y12, Y1; \
	VBROADCASTSS ((s)*24+8)(SI), Y14; \
	VFMADD231PS  Y14, Y12, Y2; \
	VBROADCASTSS ((s)*24+12)(SI), Y15; \
	VFMADD231PS  Y15, Y12, Y3; \
	VBROADCASTSS ((s)*24+16)(SI), Y14; \
	VFMADD231PS  Y14, Y12, Y4; \
	VBROADCASTSS ((s)*24+20)(SI), Y15; \
	VFMADD231PS  Y15, Y12, Y5

// STROW8:  c = acc (8 columns); ADDROW8: c = acc + c.
#define STROW8(r0) \
	VMOVUPS r0, (DX); \
	ADDQ    BX, DX

#define ADDROW8(r0) \
	VADDPS (DX), r0, r0; \
	STROW8(r0)

#define ROWS6x8(M) \
	M(Y0); M(Y1); M(Y2); M(Y3); M(Y4); M(Y5)

TEXT ·sgemm6x8RowsAVX2(SB), NOSPLIT, $0-49
	ROWSARGS

	ROWS6x8(ZEROY)

	ROWSLOOP(KSTEPROWS8, r8loop4, r8tail, r8loop1, r8done)
	ROWSSTORE(ROWS6x8, STROW8, ADDROW8, r8accumulate)

// func sgemmARows6x16AVX2(k int, a *float32, offs *int, step int, b, c *float32, ldc int, add bool)
//
// RowsGemmNT's tile on AVX2 (the AVX-512 ones: sgemm_arows_avx512_amd64.s):
// a 6x16 tile of C = A·Bᵀ whose 6 A rows are two groups of three, group
// g's row t the run of floats at a + offs[g] + t·step bytes (R8, R9 the
// groups' starts, AX the step), read one float a k step and broadcast; B
// packed k-major, 16 floats a step (Y12, Y13); Y0..Y11 the accumulators
// as in sgemmAVX2; c written, or added to (add).

// GROUP6: the three rows of the group at base, acc pairs a0..a5.
#define GROUP6(d, base, a0, a1, a2, a3, a4, a5) \
	VBROADCASTSS d(base), Y14; \
	VFMADD231PS  Y14, Y12, a0; \
	VFMADD231PS  Y14, Y13, a1; \
	VBROADCASTSS d(base)(AX*1), Y15; \
	VFMADD231PS  Y15, Y12, a2; \
	VFMADD231PS  Y15, Y13, a3; \
	VBROADCASTSS d(base)(AX*2), Y14; \
	VFMADD231PS  Y14, Y12, a4; \
	VFMADD231PS  Y14, Y13, a5

#define KSTEPAR6(s) \
	VMOVUPS ((s)*64)(DI), Y12; \
	VMOVUPS ((s)*64+32)(DI), Y13; \
	GROUP6((s)*4, R8, Y0, Y1, Y2, Y3, Y4, Y5); \
	GROUP6((s)*4, R9, Y6, Y7, Y8, Y9, Y10, Y11)

TEXT ·sgemmARows6x16AVX2(SB), NOSPLIT, $0-57
	MOVQ k+0(FP), CX
	MOVQ a+8(FP), SI
	MOVQ offs+16(FP), R12
	MOVQ step+24(FP), AX
	MOVQ b+32(FP), DI
	MOVQ (R12), R8
	ADDQ SI, R8
	MOVQ 8(R12), R9
	ADDQ SI, R9

	ALLROWS(ZEROY2)

	SUBQ $4, CX
	JL   ar6tail

ar6loop4:
	KSTEPAR6(0)
	KSTEPAR6(1)
	KSTEPAR6(2)
	KSTEPAR6(3)
	ADDQ $16, R8
	ADDQ $16, R9
	ADDQ $256, DI
	SUBQ $4, CX
	JGE  ar6loop4

ar6tail:
	ADDQ $4, CX
	JZ   ar6done

ar6loop1:
	KSTEPAR6(0)
	ADDQ $4, R8
	ADDQ $4, R9
	ADDQ $64, DI
	DECQ CX
	JNZ  ar6loop1

ar6done:
	MOVQ c+40(FP), DX
	MOVQ ldc+48(FP), BX
	SHLQ $2, BX
	CMPB add+56(FP), $0
	JNE  ar6accumulate
	ALLROWS(STROW)
	VZEROUPPER
	RET

ar6accumulate:
	ALLROWS(ADDROW)
	VZEROUPPER
	RET
