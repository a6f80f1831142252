//go:build !dlbd_noasm

#include "textflag.h"
#include "micro_avx512_amd64.h"

// func sgemmAVX512(k int, a, b, c *float32, ldc int, alpha, beta float32)
//
// The 14x32 micro-kernel for AVX-512.  Go equivalent (gemm.micro2x4 with
// MR=14, NR=32):
//
//	for p := 0; p < k; p++ {
//		for i := 0; i < 14; i++ {
//			for j := 0; j < 32; j++ {
//				acc[i][j] += a[p*14+i] * b[p*32+j]
//			}
//		}
//	}
//	c[i*ldc+j] = alpha*acc[i][j] + beta*c[i*ldc+j]  // c not read if beta == 0
//
// Registers:
//	SI      packed A: 14 floats (56 bytes) per k step
//	DI      packed B: 32 floats (128 bytes = 2 zmm) per k step
//	CX      k steps left
//	Z0..Z27 accumulators; row i lives in Z(2i) (cols 0..15), Z(2i+1) (16..31)
//	Z28,Z29 the current B row
//	Z30,Z31 broadcast A values (alternated so consecutive rows do not wait
//	        on each other)
//
// Each k step is 2 vector loads + 14 broadcast loads + 28 FMAs: the FMA
// ports (2 per cycle on Zen 5) are the bottleneck, not the loads.

// ROW: acc0, acc1 += A value (broadcast) * B row.
#define ROW(aoff, bc, acc0, acc1) \
	VBROADCASTSS (aoff)(SI), bc; \
	VFMADD231PS  bc, Z28, acc0; \
	VFMADD231PS  bc, Z29, acc1

// KSTEP: one rank-1 update of the 14x32 tile; s is the step within the
// unrolled loop body (offsets relative to SI/DI at the top of the body).
#define KSTEP(s) \
	VMOVUPS ((s)*128)(DI), Z28; \
	VMOVUPS ((s)*128+64)(DI), Z29; \
	ROW((s)*56+0, Z30, Z0, Z1); \
	ROW((s)*56+4, Z31, Z2, Z3); \
	ROW((s)*56+8, Z30, Z4, Z5); \
	ROW((s)*56+12, Z31, Z6, Z7); \
	ROW((s)*56+16, Z30, Z8, Z9); \
	ROW((s)*56+20, Z31, Z10, Z11); \
	ROW((s)*56+24, Z30, Z12, Z13); \
	ROW((s)*56+28, Z31, Z14, Z15); \
	ROW((s)*56+32, Z30, Z16, Z17); \
	ROW((s)*56+36, Z31, Z18, Z19); \
	ROW((s)*56+40, Z30, Z20, Z21); \
	ROW((s)*56+44, Z31, Z22, Z23); \
	ROW((s)*56+48, Z30, Z24, Z25); \
	ROW((s)*56+52, Z31, Z26, Z27)

TEXT ·sgemmAVX512(SB), NOSPLIT, $0-48
	MOVQ k+0(FP), CX
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DI
	MOVQ c+24(FP), DX
	MOVQ ldc+32(FP), BX
	SHLQ $2, BX

	PFROW; PFROW; PFROW; PFROW; PFROW; PFROW; PFROW
	PFROW; PFROW; PFROW; PFROW; PFROW; PFROW; PFROW

	ZEROACC

	// for p := 0; p+4 <= k; p += 4 (unrolled 4x to amortise the pointer
	// and counter updates)
	SUBQ $4, CX
	JL   tail

loop4:
	KSTEP(0)
	KSTEP(1)
	KSTEP(2)
	KSTEP(3)
	ADDQ $(4*56), SI
	ADDQ $(4*128), DI
	SUBQ $4, CX
	JGE  loop4

tail:
	// for ; p < k; p++
	ADDQ $4, CX
	JZ   done

loop1:
	KSTEP(0)
	ADDQ $56, SI
	ADDQ $128, DI
	DECQ CX
	JNZ  loop1

done:
	EPILOGUE
