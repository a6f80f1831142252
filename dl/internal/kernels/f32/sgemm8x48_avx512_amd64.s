//go:build !dlbd_noasm

#include "textflag.h"

// func sgemm8x48AVX512(k int, a, b, c *float32, ldc int, alpha, beta float32)
//
// The 8x48 micro-kernel for AVX-512: gemm.MicroKernel's contract with
// MR=8, NR=48 (see sgemm_avx512_amd64.s for the 14x32 one):
//
//	for p := 0; p < k; p++ {
//		for i := 0; i < 8; i++ {
//			for j := 0; j < 48; j++ {
//				acc[i][j] += a[p*8+i] * b[p*48+j]
//			}
//		}
//	}
//	c[i*ldc+j] = alpha*acc[i][j] + beta*c[i*ldc+j]  // c not read if beta == 0
//
// Registers:
//	SI      packed A: 8 floats (32 bytes) per k step
//	DI      packed B: 48 floats (192 bytes = 3 zmm) per k step
//	CX      k steps left
//	Z0..Z23 accumulators; row i lives in Z(3i), Z(3i+1), Z(3i+2)
//	Z24..Z26 the current B row
//	Z30,Z31 broadcast A values (alternated)
//
// Each k step is 3 vector loads + 8 broadcast loads + 24 FMAs: fewer
// loads per FMA than the 14x32 tile, and its 8 rows divide the channel
// counts of convolutions (16, 32, 64...) that leave 14-row tiles half
// empty.

// ROW48: acc0..acc2 += A value (broadcast) * B row.
#define ROW48(aoff, bc, acc0, acc1, acc2) \
	VBROADCASTSS (aoff)(SI), bc; \
	VFMADD231PS  bc, Z24, acc0; \
	VFMADD231PS  bc, Z25, acc1; \
	VFMADD231PS  bc, Z26, acc2

// KSTEP48: one rank-1 update of the 8x48 tile, step s of the unrolled body.
#define KSTEP48(s) \
	VMOVUPS ((s)*192)(DI), Z24; \
	VMOVUPS ((s)*192+64)(DI), Z25; \
	VMOVUPS ((s)*192+128)(DI), Z26; \
	ROW48((s)*32+0, Z30, Z0, Z1, Z2); \
	ROW48((s)*32+4, Z31, Z3, Z4, Z5); \
	ROW48((s)*32+8, Z30, Z6, Z7, Z8); \
	ROW48((s)*32+12, Z31, Z9, Z10, Z11); \
	ROW48((s)*32+16, Z30, Z12, Z13, Z14); \
	ROW48((s)*32+20, Z31, Z15, Z16, Z17); \
	ROW48((s)*32+24, Z30, Z18, Z19, Z20); \
	ROW48((s)*32+28, Z31, Z21, Z22, Z23)

// Epilogue rows; DX walks the C rows, BX = ldc in bytes.
#define SCALE48(r0, r1, r2) \
	VMULPS Z30, r0, r0; \
	VMULPS Z30, r1, r1; \
	VMULPS Z30, r2, r2

#define STROW48(r0, r1, r2) \
	VMOVUPS r0, (DX); \
	VMOVUPS r1, 64(DX); \
	VMOVUPS r2, 128(DX); \
	ADDQ    BX, DX

#define ADDROW48(r0, r1, r2) \
	VADDPS  (DX), r0, r0; \
	VADDPS  64(DX), r1, r1; \
	VADDPS  128(DX), r2, r2; \
	STROW48(r0, r1, r2)

#define FMAROW48(r0, r1, r2) \
	VFMADD231PS (DX), Z31, r0; \
	VFMADD231PS 64(DX), Z31, r1; \
	VFMADD231PS 128(DX), Z31, r2; \
	STROW48(r0, r1, r2)

#define PFROW48 \
	PREFETCHT0 (DX); \
	PREFETCHT0 64(DX); \
	PREFETCHT0 128(DX); \
	PREFETCHT0 191(DX); \
	ADDQ       BX, DX

#define ROWS48(M) \
	M(Z0, Z1, Z2); M(Z3, Z4, Z5); M(Z6, Z7, Z8); M(Z9, Z10, Z11); \
	M(Z12, Z13, Z14); M(Z15, Z16, Z17); M(Z18, Z19, Z20); M(Z21, Z22, Z23)

#define ZERO3(r0, r1, r2) \
	VPXORD r0, r0, r0; \
	VPXORD r1, r1, r1; \
	VPXORD r2, r2, r2

// EPILOGUE48: acc *= alpha; then by beta c = acc (beta == 0: c is not
// read), c += acc (beta == 1) or c = acc + beta*c; and return.  cArg,
// alphaArg and betaArg name the kernel's arguments (name+offset).
#define EPILOGUE48(cArg, alphaArg, betaArg) \
	VBROADCASTSS alphaArg(FP), Z30; \
	ROWS48(SCALE48); \
	MOVQ         cArg(FP), DX; \
	MOVL         betaArg(FP), AX; \
	TESTL        $0x7fffffff, AX; /* +0 or -0 */ \
	JZ           overwrite; \
	CMPL         AX, $0x3f800000; /* 1.0 */ \
	JEQ          accumulate; \
	VBROADCASTSS betaArg(FP), Z31; \
	ROWS48(FMAROW48); \
	VZEROUPPER; \
	RET; \
accumulate:; \
	ROWS48(ADDROW48); \
	VZEROUPPER; \
	RET; \
overwrite:; \
	ROWS48(STROW48); \
	VZEROUPPER; \
	RET

TEXT ·sgemm8x48AVX512(SB), NOSPLIT, $0-48
	MOVQ k+0(FP), CX
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DI
	MOVQ c+24(FP), DX
	MOVQ ldc+32(FP), BX
	SHLQ $2, BX

	PFROW48; PFROW48; PFROW48; PFROW48
	PFROW48; PFROW48; PFROW48; PFROW48

	ROWS48(ZERO3)

	// for p := 0; p+4 <= k; p += 4
	SUBQ $4, CX
	JL   tail

loop4:
	KSTEP48(0)
	KSTEP48(1)
	KSTEP48(2)
	KSTEP48(3)
	ADDQ $(4*32), SI
	ADDQ $(4*192), DI
	SUBQ $4, CX
	JGE  loop4

tail:
	ADDQ $4, CX
	JZ   done

loop1:
	KSTEP48(0)
	ADDQ $32, SI
	ADDQ $192, DI
	DECQ CX
	JNZ  loop1

done:
	EPILOGUE48(c+24, alpha+40, beta+44)

// func sgemm8x48RowsAVX512(k int, a *float32, offs *int, b, c *float32, ldc int, alpha, beta float32)
//
// sgemm8x48AVX512 with B read in place: row p of the 48-column B panel is
// the 48 floats at b + offs[p] bytes (offs: k byte offsets), not a packed
// panel.  A convolution's B rows are shifted runs of its input planes, so
// the columns are never built (implicit GEMM).
//
// Registers as sgemm8x48AVX512's, and R9 walking offs, R10 the row's
// offset.

// KSTEPROWS: one rank-1 update from B row offs[s] (relative to R9).
#define KSTEPROWS(s) \
	MOVQ    ((s)*8)(R9), R10; \
	VMOVUPS (DI)(R10*1), Z24; \
	VMOVUPS 64(DI)(R10*1), Z25; \
	VMOVUPS 128(DI)(R10*1), Z26; \
	ROW48((s)*32+0, Z30, Z0, Z1, Z2); \
	ROW48((s)*32+4, Z31, Z3, Z4, Z5); \
	ROW48((s)*32+8, Z30, Z6, Z7, Z8); \
	ROW48((s)*32+12, Z31, Z9, Z10, Z11); \
	ROW48((s)*32+16, Z30, Z12, Z13, Z14); \
	ROW48((s)*32+20, Z31, Z15, Z16, Z17); \
	ROW48((s)*32+24, Z30, Z18, Z19, Z20); \
	ROW48((s)*32+28, Z31, Z21, Z22, Z23)

TEXT ·sgemm8x48RowsAVX512(SB), NOSPLIT, $0-56
	MOVQ k+0(FP), CX
	MOVQ a+8(FP), SI
	MOVQ offs+16(FP), R9
	MOVQ b+24(FP), DI
	MOVQ c+32(FP), DX
	MOVQ ldc+40(FP), BX
	SHLQ $2, BX

	PFROW48; PFROW48; PFROW48; PFROW48
	PFROW48; PFROW48; PFROW48; PFROW48

	ROWS48(ZERO3)

	SUBQ $4, CX
	JL   rtail

rloop4:
	KSTEPROWS(0)
	KSTEPROWS(1)
	KSTEPROWS(2)
	KSTEPROWS(3)
	ADDQ $(4*32), SI
	ADDQ $(4*8), R9
	SUBQ $4, CX
	JGE  rloop4

rtail:
	ADDQ $4, CX
	JZ   rdone

rloop1:
	KSTEPROWS(0)
	ADDQ $32, SI
	ADDQ $8, R9
	DECQ CX
	JNZ  rloop1

rdone:
	EPILOGUE48(c+32, alpha+48, beta+52)

// func sgemm8x16RowsAVX512(k int, a *float32, offs *int, b, c *float32, ldc int, mask int, add bool)
//
// The last columns of sgemm8x48RowsAVX512's products: an 8x16 tile whose
// B rows (at b + offs[p] bytes) are read with mask's lanes only (the
// columns that exist, so nothing past them is read), and C written (or
// added to, add) on those lanes only.  A is the same packed 8-row panel.
// Z0..Z7 accumulators (row i in Zi), Z16..Z19 B rows, K1 the mask; the A
// values are broadcast by the FMAs.

#define KSTEP16ROWS(s, zb) \
	MOVQ      ((s)*8)(R9), R10; \
	VMOVUPS.Z (DI)(R10*1), K1, zb; \
	VFMADD231PS.BCST ((s)*32+0)(SI), zb, Z0; \
	VFMADD231PS.BCST ((s)*32+4)(SI), zb, Z1; \
	VFMADD231PS.BCST ((s)*32+8)(SI), zb, Z2; \
	VFMADD231PS.BCST ((s)*32+12)(SI), zb, Z3; \
	VFMADD231PS.BCST ((s)*32+16)(SI), zb, Z4; \
	VFMADD231PS.BCST ((s)*32+20)(SI), zb, Z5; \
	VFMADD231PS.BCST ((s)*32+24)(SI), zb, Z6; \
	VFMADD231PS.BCST ((s)*32+28)(SI), zb, Z7

#define STMASK16(r) \
	VMOVUPS r, K1, (DX); \
	ADDQ    BX, DX

#define ADDMASK16(r) \
	VMOVUPS.Z (DX), K1, Z20; \
	VADDPS    Z20, r, r; \
	STMASK16(r)

#define ROWS8(M) \
	M(Z0); M(Z1); M(Z2); M(Z3); M(Z4); M(Z5); M(Z6); M(Z7)

TEXT ·sgemm8x16RowsAVX512(SB), NOSPLIT, $0-57
	MOVQ  k+0(FP), CX
	MOVQ  a+8(FP), SI
	MOVQ  offs+16(FP), R9
	MOVQ  b+24(FP), DI
	MOVQ  mask+48(FP), AX
	KMOVW AX, K1

	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1
	VPXORD Z2, Z2, Z2
	VPXORD Z3, Z3, Z3
	VPXORD Z4, Z4, Z4
	VPXORD Z5, Z5, Z5
	VPXORD Z6, Z6, Z6
	VPXORD Z7, Z7, Z7

	SUBQ $4, CX
	JL   mtail

mloop4:
	KSTEP16ROWS(0, Z16)
	KSTEP16ROWS(1, Z17)
	KSTEP16ROWS(2, Z18)
	KSTEP16ROWS(3, Z19)
	ADDQ $(4*32), SI
	ADDQ $(4*8), R9
	SUBQ $4, CX
	JGE  mloop4

mtail:
	ADDQ $4, CX
	JZ   mdone

mloop1:
	KSTEP16ROWS(0, Z16)
	ADDQ $32, SI
	ADDQ $8, R9
	DECQ CX
	JNZ  mloop1

mdone:
	MOVQ    c+32(FP), DX
	MOVQ    ldc+40(FP), BX
	SHLQ    $2, BX
	MOVBLZX add+56(FP), AX
	TESTL   AX, AX
	JNZ     madd
	ROWS8(STMASK16)
	VZEROUPPER
	RET

madd:
	ROWS8(ADDMASK16)
	VZEROUPPER
	RET
