//go:build !dlbd_noasm

#include "textflag.h"

// func dgemmAVX2(k int, a, b, c *float64, ldc int, alpha, beta float64)
//
// The 6x8 float64 micro-kernel for AVX2+FMA CPUs without AVX-512 (same
// contract and Go equivalent as dgemmAVX512, with MR=6, NR=8):
//	Y0..Y11   accumulators; row i in Y(2i) (cols 0..3), Y(2i+1) (4..7)
//	Y12,Y13   the current B row (8 doubles = 64 bytes per k step)
//	Y14,Y15   broadcast A values (6 doubles = 48 bytes per k step)

// ROW: acc0, acc1 += A value (broadcast) * B row.
#define ROW(aoff, bc, acc0, acc1) \
	VBROADCASTSD (aoff)(SI), bc; \
	VFMADD231PD  bc, Y12, acc0; \
	VFMADD231PD  bc, Y13, acc1

// KSTEP: one rank-1 update of the 6x8 tile.
#define KSTEP(s) \
	VMOVUPD ((s)*64)(DI), Y12; \
	VMOVUPD ((s)*64+32)(DI), Y13; \
	ROW((s)*48+0, Y14, Y0, Y1); \
	ROW((s)*48+8, Y15, Y2, Y3); \
	ROW((s)*48+16, Y14, Y4, Y5); \
	ROW((s)*48+24, Y15, Y6, Y7); \
	ROW((s)*48+32, Y14, Y8, Y9); \
	ROW((s)*48+40, Y15, Y10, Y11)

// SCALE: r0, r1 *= alpha (Y14).
#define SCALE(r0, r1) \
	VMULPD Y14, r0, r0; \
	VMULPD Y14, r1, r1

// STROW:  c = acc            (beta == 0: c is not read)
#define STROW(r0, r1) \
	VMOVUPD r0, (DX); \
	VMOVUPD r1, 32(DX); \
	ADDQ    BX, DX

// ADDROW: c = acc + c        (beta == 1)
#define ADDROW(r0, r1) \
	VADDPD  (DX), r0, r0; \
	VADDPD  32(DX), r1, r1; \
	STROW(r0, r1)

// FMAROW: c = acc + beta*c   (beta in Y15)
#define FMAROW(r0, r1) \
	VFMADD231PD (DX), Y15, r0; \
	VFMADD231PD 32(DX), Y15, r1; \
	STROW(r0, r1)

#define ALLROWS(M) \
	M(Y0, Y1); M(Y2, Y3); M(Y4, Y5); M(Y6, Y7); M(Y8, Y9); M(Y10, Y11)

TEXT ·dgemmAVX2(SB), NOSPLIT, $0-56
	MOVQ k+0(FP), CX
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DI
	MOVQ ldc+32(FP), BX
	SHLQ $3, BX

	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7
	VXORPD Y8, Y8, Y8
	VXORPD Y9, Y9, Y9
	VXORPD Y10, Y10, Y10
	VXORPD Y11, Y11, Y11

	// for p := 0; p+4 <= k; p += 4
	SUBQ $4, CX
	JL   tail

loop4:
	KSTEP(0)
	KSTEP(1)
	KSTEP(2)
	KSTEP(3)
	ADDQ $(4*48), SI
	ADDQ $(4*64), DI
	SUBQ $4, CX
	JGE  loop4

tail:
	// for ; p < k; p++
	ADDQ $4, CX
	JZ   done

loop1:
	KSTEP(0)
	ADDQ $48, SI
	ADDQ $64, DI
	DECQ CX
	JNZ  loop1

done:
	// acc *= alpha
	VBROADCASTSD alpha+40(FP), Y14
	ALLROWS(SCALE)

	// switch beta { case 0: c = acc; case 1: c += acc; default: c = acc + beta*c }
	MOVQ c+24(FP), DX
	MOVQ beta+48(FP), AX
	MOVQ AX, R8
	SHLQ $1, R8
	JZ   overwrite
	MOVQ $0x3ff0000000000000, R8
	CMPQ AX, R8
	JEQ  accumulate
	VBROADCASTSD beta+48(FP), Y15
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
