//go:build !dlbd_noasm

#include "textflag.h"
#include "micro_avx512_amd64.h"

// Micro-kernels of RowsGemmNT (arows_amd64.go): C = A·Bᵀ where A's rows
// are read in place and B is packed.  Row t of group g of the tile is
// the run of floats at a + offs[g] + t·step bytes (t = 0, 1, 2), read one
// float per k step; B is packed k-major, NR floats a step.  For a
// convolution's weight gradient, A's rows are the columns (or the shifted
// runs of the padded planes: the three taps of a kernel row are one
// group, step = the dilation), B is the output gradient: only the small
// operand is transposed into a panel.
//
//	for p := 0; p < k; p++ {
//		for i := 0; i < MR; i++ {
//			for j := 0; j < NR; j++ {
//				acc[i][j] += A_i[p] * b[p*NR+j]
//			}
//		}
//	}
//	c[i*ldc+j] = acc[i][j] (+ c[i*ldc+j] when add)

// ---- 12x32: four groups (R8..R11), step in AX; Z0..Z23 accumulators
// (row i in Z(2i), Z(2i+1)), Z24, Z25 the B row, Z26, Z27 broadcasts.

#define AR32(addr, bc, acc0, acc1) \
	VBROADCASTSS addr, bc; \
	VFMADD231PS  bc, Z24, acc0; \
	VFMADD231PS  bc, Z25, acc1

#define GROUP32(d, base, a0, a1, a2, a3, a4, a5) \
	AR32(d(base), Z26, a0, a1); \
	AR32(d(base)(AX*1), Z27, a2, a3); \
	AR32(d(base)(AX*2), Z26, a4, a5)

#define KSTEP12x32(s) \
	VMOVUPS ((s)*128)(DI), Z24; \
	VMOVUPS ((s)*128+64)(DI), Z25; \
	GROUP32((s)*4, R8, Z0, Z1, Z2, Z3, Z4, Z5); \
	GROUP32((s)*4, R9, Z6, Z7, Z8, Z9, Z10, Z11); \
	GROUP32((s)*4, R10, Z12, Z13, Z14, Z15, Z16, Z17); \
	GROUP32((s)*4, R11, Z18, Z19, Z20, Z21, Z22, Z23)

#define ROWS12(M) \
	M(Z0, Z1); M(Z2, Z3); M(Z4, Z5); M(Z6, Z7); M(Z8, Z9); M(Z10, Z11); \
	M(Z12, Z13); M(Z14, Z15); M(Z16, Z17); M(Z18, Z19); M(Z20, Z21); M(Z22, Z23)

#define ZERO2(r0, r1) \
	VPXORD r0, r0, r0; \
	VPXORD r1, r1, r1

// GROUPBASES(n): R8.. = a + offs[g] for the n groups; SI = a, R12 = offs.
#define LOADBASE(g, reg) \
	MOVQ (g*8)(R12), reg; \
	ADDQ SI, reg

// func sgemmARows12x32AVX512(k int, a *float32, offs *int, step int, b, c *float32, ldc int, add bool)
TEXT ·sgemmARows12x32AVX512(SB), NOSPLIT, $0-57
	MOVQ k+0(FP), CX
	MOVQ a+8(FP), SI
	MOVQ offs+16(FP), R12
	MOVQ step+24(FP), AX
	MOVQ b+32(FP), DI
	LOADBASE(0, R8)
	LOADBASE(1, R9)
	LOADBASE(2, R10)
	LOADBASE(3, R11)

	ROWS12(ZERO2)

	SUBQ $4, CX
	JL   tail12

loop12:
	KSTEP12x32(0)
	KSTEP12x32(1)
	KSTEP12x32(2)
	KSTEP12x32(3)
	ADDQ $16, R8
	ADDQ $16, R9
	ADDQ $16, R10
	ADDQ $16, R11
	ADDQ $512, DI
	SUBQ $4, CX
	JGE  loop12

tail12:
	ADDQ $4, CX
	JZ   done12

loop12s:
	KSTEP12x32(0)
	ADDQ $4, R8
	ADDQ $4, R9
	ADDQ $4, R10
	ADDQ $4, R11
	ADDQ $128, DI
	DECQ CX
	JNZ  loop12s

done12:
	MOVQ    c+40(FP), DX
	MOVQ    ldc+48(FP), BX
	SHLQ    $2, BX
	MOVBLZX add+56(FP), R8
	TESTL   R8, R8
	JNZ     add12
	ROWS12(STROW)
	VZEROUPPER
	RET

add12:
	ROWS12(ADDROW)
	VZEROUPPER
	RET

// ---- 18x16: six groups (R8..R11, R13, DX), step in AX; Z0..Z17
// accumulators (row i in Zi), Z24 the B row, the A values broadcast by
// the FMAs themselves (one use each).

#define GROUP16(d, base, a0, a1, a2) \
	VFMADD231PS.BCST d(base), Z24, a0; \
	VFMADD231PS.BCST d(base)(AX*1), Z24, a1; \
	VFMADD231PS.BCST d(base)(AX*2), Z24, a2

#define KSTEP18x16(s) \
	VMOVUPS ((s)*64)(DI), Z24; \
	GROUP16((s)*4, R8, Z0, Z1, Z2); \
	GROUP16((s)*4, R9, Z3, Z4, Z5); \
	GROUP16((s)*4, R10, Z6, Z7, Z8); \
	GROUP16((s)*4, R11, Z9, Z10, Z11); \
	GROUP16((s)*4, R13, Z12, Z13, Z14); \
	GROUP16((s)*4, DX, Z15, Z16, Z17)

#define ROWS18(M) \
	M(Z0); M(Z1); M(Z2); M(Z3); M(Z4); M(Z5); M(Z6); M(Z7); M(Z8); \
	M(Z9); M(Z10); M(Z11); M(Z12); M(Z13); M(Z14); M(Z15); M(Z16); M(Z17)

#define ZERO1(r) VPXORD r, r, r

#define STROW1(r) \
	VMOVUPS r, (DX); \
	ADDQ    BX, DX

#define ADDROW1(r) \
	VADDPS (DX), r, r; \
	STROW1(r)

// func sgemmARows18x16AVX512(k int, a *float32, offs *int, step int, b, c *float32, ldc int, add bool)
TEXT ·sgemmARows18x16AVX512(SB), NOSPLIT, $0-57
	MOVQ k+0(FP), CX
	MOVQ a+8(FP), SI
	MOVQ offs+16(FP), R12
	MOVQ step+24(FP), AX
	MOVQ b+32(FP), DI
	LOADBASE(0, R8)
	LOADBASE(1, R9)
	LOADBASE(2, R10)
	LOADBASE(3, R11)
	LOADBASE(4, R13)
	LOADBASE(5, DX)

	ROWS18(ZERO1)

	SUBQ $4, CX
	JL   tail18

loop18:
	KSTEP18x16(0)
	KSTEP18x16(1)
	KSTEP18x16(2)
	KSTEP18x16(3)
	ADDQ $16, R8
	ADDQ $16, R9
	ADDQ $16, R10
	ADDQ $16, R11
	ADDQ $16, R13
	ADDQ $16, DX
	ADDQ $256, DI
	SUBQ $4, CX
	JGE  loop18

tail18:
	ADDQ $4, CX
	JZ   done18

loop18s:
	KSTEP18x16(0)
	ADDQ $4, R8
	ADDQ $4, R9
	ADDQ $4, R10
	ADDQ $4, R11
	ADDQ $4, R13
	ADDQ $4, DX
	ADDQ $64, DI
	DECQ CX
	JNZ  loop18s

done18:
	MOVQ    c+40(FP), DX
	MOVQ    ldc+48(FP), BX
	SHLQ    $2, BX
	MOVBLZX add+56(FP), R8
	TESTL   R8, R8
	JNZ     add18
	ROWS18(STROW1)
	VZEROUPPER
	RET

add18:
	ROWS18(ADDROW1)
	VZEROUPPER
	RET
