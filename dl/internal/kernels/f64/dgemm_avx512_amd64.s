//go:build !dlbd_noasm

#include "textflag.h"

// func dgemmAVX512(k int, a, b, c *float64, ldc int, alpha, beta float64)
//
// The 14x16 float64 micro-kernel for AVX-512.  Go equivalent (gemm.micro2x4
// with MR=14, NR=16):
//
//	for p := 0; p < k; p++ {
//		for i := 0; i < 14; i++ {
//			for j := 0; j < 16; j++ {
//				acc[i][j] += a[p*14+i] * b[p*16+j]
//			}
//		}
//	}
//	c[i*ldc+j] = alpha*acc[i][j] + beta*c[i*ldc+j]  // c not read if beta == 0
//
// Registers:
//	SI      packed A: 14 doubles (112 bytes) per k step
//	DI      packed B: 16 doubles (128 bytes = 2 zmm) per k step
//	CX      k steps left
//	Z0..Z27 accumulators; row i lives in Z(2i) (cols 0..7), Z(2i+1) (8..15)
//	Z28,Z29 the current B row
//	Z30,Z31 broadcast A values

// ROW: acc0, acc1 += A value (broadcast) * B row.
#define ROW(aoff, bc, acc0, acc1) \
	VBROADCASTSD (aoff)(SI), bc; \
	VFMADD231PD  bc, Z28, acc0; \
	VFMADD231PD  bc, Z29, acc1

// KSTEP: one rank-1 update of the 14x16 tile.
#define KSTEP(s) \
	VMOVUPD ((s)*128)(DI), Z28; \
	VMOVUPD ((s)*128+64)(DI), Z29; \
	ROW((s)*112+0, Z30, Z0, Z1); \
	ROW((s)*112+8, Z31, Z2, Z3); \
	ROW((s)*112+16, Z30, Z4, Z5); \
	ROW((s)*112+24, Z31, Z6, Z7); \
	ROW((s)*112+32, Z30, Z8, Z9); \
	ROW((s)*112+40, Z31, Z10, Z11); \
	ROW((s)*112+48, Z30, Z12, Z13); \
	ROW((s)*112+56, Z31, Z14, Z15); \
	ROW((s)*112+64, Z30, Z16, Z17); \
	ROW((s)*112+72, Z31, Z18, Z19); \
	ROW((s)*112+80, Z30, Z20, Z21); \
	ROW((s)*112+88, Z31, Z22, Z23); \
	ROW((s)*112+96, Z30, Z24, Z25); \
	ROW((s)*112+104, Z31, Z26, Z27)

// SCALE: r0, r1 *= alpha (Z30).
#define SCALE(r0, r1) \
	VMULPD Z30, r0, r0; \
	VMULPD Z30, r1, r1

// STROW:  c = acc                (beta == 0: c is not read)
#define STROW(r0, r1) \
	VMOVUPD r0, (DX); \
	VMOVUPD r1, 64(DX); \
	ADDQ    BX, DX

// ADDROW: c = acc + c            (beta == 1)
#define ADDROW(r0, r1) \
	VADDPD  (DX), r0, r0; \
	VADDPD  64(DX), r1, r1; \
	STROW(r0, r1)

// FMAROW: c = acc + beta*c       (beta in Z31)
#define FMAROW(r0, r1) \
	VFMADD231PD (DX), Z31, r0; \
	VFMADD231PD 64(DX), Z31, r1; \
	STROW(r0, r1)

// PFROW: pull a C row towards L1 while the k loop runs.
#define PFROW \
	PREFETCHT0 (DX); \
	PREFETCHT0 127(DX); \
	ADDQ       BX, DX

#define ALLROWS(M) \
	M(Z0, Z1); M(Z2, Z3); M(Z4, Z5); M(Z6, Z7); M(Z8, Z9); M(Z10, Z11); M(Z12, Z13); \
	M(Z14, Z15); M(Z16, Z17); M(Z18, Z19); M(Z20, Z21); M(Z22, Z23); M(Z24, Z25); M(Z26, Z27)

TEXT ·dgemmAVX512(SB), NOSPLIT, $0-56
	MOVQ k+0(FP), CX
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DI
	MOVQ c+24(FP), DX
	MOVQ ldc+32(FP), BX
	SHLQ $3, BX

	PFROW; PFROW; PFROW; PFROW; PFROW; PFROW; PFROW
	PFROW; PFROW; PFROW; PFROW; PFROW; PFROW; PFROW

	VPXORQ Z0, Z0, Z0
	VPXORQ Z1, Z1, Z1
	VPXORQ Z2, Z2, Z2
	VPXORQ Z3, Z3, Z3
	VPXORQ Z4, Z4, Z4
	VPXORQ Z5, Z5, Z5
	VPXORQ Z6, Z6, Z6
	VPXORQ Z7, Z7, Z7
	VPXORQ Z8, Z8, Z8
	VPXORQ Z9, Z9, Z9
	VPXORQ Z10, Z10, Z10
	VPXORQ Z11, Z11, Z11
	VPXORQ Z12, Z12, Z12
	VPXORQ Z13, Z13, Z13
	VPXORQ Z14, Z14, Z14
	VPXORQ Z15, Z15, Z15
	VPXORQ Z16, Z16, Z16
	VPXORQ Z17, Z17, Z17
	VPXORQ Z18, Z18, Z18
	VPXORQ Z19, Z19, Z19
	VPXORQ Z20, Z20, Z20
	VPXORQ Z21, Z21, Z21
	VPXORQ Z22, Z22, Z22
	VPXORQ Z23, Z23, Z23
	VPXORQ Z24, Z24, Z24
	VPXORQ Z25, Z25, Z25
	VPXORQ Z26, Z26, Z26
	VPXORQ Z27, Z27, Z27

	// for p := 0; p+4 <= k; p += 4
	SUBQ $4, CX
	JL   tail

loop4:
	KSTEP(0)
	KSTEP(1)
	KSTEP(2)
	KSTEP(3)
	ADDQ $(4*112), SI
	ADDQ $(4*128), DI
	SUBQ $4, CX
	JGE  loop4

tail:
	// for ; p < k; p++
	ADDQ $4, CX
	JZ   done

loop1:
	KSTEP(0)
	ADDQ $112, SI
	ADDQ $128, DI
	DECQ CX
	JNZ  loop1

done:
	// acc *= alpha
	VBROADCASTSD alpha+40(FP), Z30
	ALLROWS(SCALE)

	// switch beta { case 0: c = acc; case 1: c += acc; default: c = acc + beta*c }
	MOVQ c+24(FP), DX
	MOVQ beta+48(FP), AX
	MOVQ AX, R8
	SHLQ $1, R8           // drop the sign: +0 and -0 both give 0
	JZ   overwrite
	MOVQ $0x3ff0000000000000, R8 // 1.0
	CMPQ AX, R8
	JEQ  accumulate
	VBROADCASTSD beta+48(FP), Z31
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
