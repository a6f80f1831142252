//go:build !dlbd_noasm

#include "textflag.h"
#include "micro_avx512_amd64.h"

// func sbgemmAVX512BF16(k int, a, b, c *float32, ldc int, alpha, beta float32)
//
// The 14x32 micro-kernel for bfloat16 operands with AVX512_BF16: each
// VDPBF16PS multiplies 16 pairs of bfloat16 values and adds both products
// to 16 float32 accumulators, twice the work of a float32 FMA in the same
// time.  a and b point to panels packed by packA512BF16/packB512BF16: for
// each pair of k steps, one 32-bit word per row of A (14 words) and per
// column of B (32 words), holding the values of steps 2p (low half) and
// 2p+1 (high half).  Go equivalent (sbgemmGo), with k rounded up to even:
//
//	for p := 0; p < (k+1)/2; p++ {
//		for i := 0; i < 14; i++ {
//			for j := 0; j < 32; j++ {
//				acc[i][j] = fma32(A(2p+1, i), B(2p+1, j), acc[i][j]) // odd step first,
//				acc[i][j] = fma32(A(2p, i), B(2p, j), acc[i][j])     // as the instruction does
//			}
//		}
//	}
//	c[i*ldc+j] = alpha*acc[i][j] + beta*c[i*ldc+j]  // c not read if beta == 0
//
// fma32 rounds once (the bfloat16 products are exact in float32).  The
// instruction treats subnormal inputs and results as zero (DAZ, FTZ).
//
// Registers as in sgemmAVX512: SI packed A (56 bytes per pair of steps),
// DI packed B (128 bytes), CX pairs left, Z0..Z27 accumulators, Z28, Z29
// the current B words, Z30, Z31 broadcast A words.  The Go assembler does
// not know VDPBF16PS (EVEX.512.F3.0F38.W0 52 /r), so it is spelled in
// bytes; the comment after each gives it in Go operand order.

// KSTEPBF(s): one pair of k steps of the 14x32 tile; s is the pair within
// the unrolled loop body.
#define KSTEPBF(s) \
	VMOVUPS ((s)*128)(DI), Z28; \
	VMOVUPS ((s)*128+64)(DI), Z29; \
	VBROADCASTSS ((s)*56+0)(SI), Z30; \
	BYTE $0x62; BYTE $0x92; BYTE $0x0E; BYTE $0x40; BYTE $0x52; BYTE $0xC4; /* VDPBF16PS Z28, Z30, Z0 */ \
	BYTE $0x62; BYTE $0x92; BYTE $0x0E; BYTE $0x40; BYTE $0x52; BYTE $0xCD; /* VDPBF16PS Z29, Z30, Z1 */ \
	VBROADCASTSS ((s)*56+4)(SI), Z31; \
	BYTE $0x62; BYTE $0x92; BYTE $0x06; BYTE $0x40; BYTE $0x52; BYTE $0xD4; /* VDPBF16PS Z28, Z31, Z2 */ \
	BYTE $0x62; BYTE $0x92; BYTE $0x06; BYTE $0x40; BYTE $0x52; BYTE $0xDD; /* VDPBF16PS Z29, Z31, Z3 */ \
	VBROADCASTSS ((s)*56+8)(SI), Z30; \
	BYTE $0x62; BYTE $0x92; BYTE $0x0E; BYTE $0x40; BYTE $0x52; BYTE $0xE4; /* VDPBF16PS Z28, Z30, Z4 */ \
	BYTE $0x62; BYTE $0x92; BYTE $0x0E; BYTE $0x40; BYTE $0x52; BYTE $0xED; /* VDPBF16PS Z29, Z30, Z5 */ \
	VBROADCASTSS ((s)*56+12)(SI), Z31; \
	BYTE $0x62; BYTE $0x92; BYTE $0x06; BYTE $0x40; BYTE $0x52; BYTE $0xF4; /* VDPBF16PS Z28, Z31, Z6 */ \
	BYTE $0x62; BYTE $0x92; BYTE $0x06; BYTE $0x40; BYTE $0x52; BYTE $0xFD; /* VDPBF16PS Z29, Z31, Z7 */ \
	VBROADCASTSS ((s)*56+16)(SI), Z30; \
	BYTE $0x62; BYTE $0x12; BYTE $0x0E; BYTE $0x40; BYTE $0x52; BYTE $0xC4; /* VDPBF16PS Z28, Z30, Z8 */ \
	BYTE $0x62; BYTE $0x12; BYTE $0x0E; BYTE $0x40; BYTE $0x52; BYTE $0xCD; /* VDPBF16PS Z29, Z30, Z9 */ \
	VBROADCASTSS ((s)*56+20)(SI), Z31; \
	BYTE $0x62; BYTE $0x12; BYTE $0x06; BYTE $0x40; BYTE $0x52; BYTE $0xD4; /* VDPBF16PS Z28, Z31, Z10 */ \
	BYTE $0x62; BYTE $0x12; BYTE $0x06; BYTE $0x40; BYTE $0x52; BYTE $0xDD; /* VDPBF16PS Z29, Z31, Z11 */ \
	VBROADCASTSS ((s)*56+24)(SI), Z30; \
	BYTE $0x62; BYTE $0x12; BYTE $0x0E; BYTE $0x40; BYTE $0x52; BYTE $0xE4; /* VDPBF16PS Z28, Z30, Z12 */ \
	BYTE $0x62; BYTE $0x12; BYTE $0x0E; BYTE $0x40; BYTE $0x52; BYTE $0xED; /* VDPBF16PS Z29, Z30, Z13 */ \
	VBROADCASTSS ((s)*56+28)(SI), Z31; \
	BYTE $0x62; BYTE $0x12; BYTE $0x06; BYTE $0x40; BYTE $0x52; BYTE $0xF4; /* VDPBF16PS Z28, Z31, Z14 */ \
	BYTE $0x62; BYTE $0x12; BYTE $0x06; BYTE $0x40; BYTE $0x52; BYTE $0xFD; /* VDPBF16PS Z29, Z31, Z15 */ \
	VBROADCASTSS ((s)*56+32)(SI), Z30; \
	BYTE $0x62; BYTE $0x82; BYTE $0x0E; BYTE $0x40; BYTE $0x52; BYTE $0xC4; /* VDPBF16PS Z28, Z30, Z16 */ \
	BYTE $0x62; BYTE $0x82; BYTE $0x0E; BYTE $0x40; BYTE $0x52; BYTE $0xCD; /* VDPBF16PS Z29, Z30, Z17 */ \
	VBROADCASTSS ((s)*56+36)(SI), Z31; \
	BYTE $0x62; BYTE $0x82; BYTE $0x06; BYTE $0x40; BYTE $0x52; BYTE $0xD4; /* VDPBF16PS Z28, Z31, Z18 */ \
	BYTE $0x62; BYTE $0x82; BYTE $0x06; BYTE $0x40; BYTE $0x52; BYTE $0xDD; /* VDPBF16PS Z29, Z31, Z19 */ \
	VBROADCASTSS ((s)*56+40)(SI), Z30; \
	BYTE $0x62; BYTE $0x82; BYTE $0x0E; BYTE $0x40; BYTE $0x52; BYTE $0xE4; /* VDPBF16PS Z28, Z30, Z20 */ \
	BYTE $0x62; BYTE $0x82; BYTE $0x0E; BYTE $0x40; BYTE $0x52; BYTE $0xED; /* VDPBF16PS Z29, Z30, Z21 */ \
	VBROADCASTSS ((s)*56+44)(SI), Z31; \
	BYTE $0x62; BYTE $0x82; BYTE $0x06; BYTE $0x40; BYTE $0x52; BYTE $0xF4; /* VDPBF16PS Z28, Z31, Z22 */ \
	BYTE $0x62; BYTE $0x82; BYTE $0x06; BYTE $0x40; BYTE $0x52; BYTE $0xFD; /* VDPBF16PS Z29, Z31, Z23 */ \
	VBROADCASTSS ((s)*56+48)(SI), Z30; \
	BYTE $0x62; BYTE $0x02; BYTE $0x0E; BYTE $0x40; BYTE $0x52; BYTE $0xC4; /* VDPBF16PS Z28, Z30, Z24 */ \
	BYTE $0x62; BYTE $0x02; BYTE $0x0E; BYTE $0x40; BYTE $0x52; BYTE $0xCD; /* VDPBF16PS Z29, Z30, Z25 */ \
	VBROADCASTSS ((s)*56+52)(SI), Z31; \
	BYTE $0x62; BYTE $0x02; BYTE $0x06; BYTE $0x40; BYTE $0x52; BYTE $0xD4; /* VDPBF16PS Z28, Z31, Z26 */ \
	BYTE $0x62; BYTE $0x02; BYTE $0x06; BYTE $0x40; BYTE $0x52; BYTE $0xDD; /* VDPBF16PS Z29, Z31, Z27 */

TEXT ·sbgemmAVX512BF16(SB), NOSPLIT, $0-48
	MOVQ k+0(FP), CX
	INCQ CX
	SHRQ $1, CX // pairs of k steps: (k+1)/2
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DI
	MOVQ c+24(FP), DX
	MOVQ ldc+32(FP), BX
	SHLQ $2, BX

	PFROW; PFROW; PFROW; PFROW; PFROW; PFROW; PFROW
	PFROW; PFROW; PFROW; PFROW; PFROW; PFROW; PFROW

	ZEROACC

	// for p := 0; p+4 <= pairs; p += 4
	SUBQ $4, CX
	JL   tail

loop4:
	KSTEPBF(0)
	KSTEPBF(1)
	KSTEPBF(2)
	KSTEPBF(3)
	ADDQ $(4*56), SI
	ADDQ $(4*128), DI
	SUBQ $4, CX
	JGE  loop4

tail:
	// for ; p < pairs; p++
	ADDQ $4, CX
	JZ   done

loop1:
	KSTEPBF(0)
	ADDQ $56, SI
	ADDQ $128, DI
	DECQ CX
	JNZ  loop1

done:
	EPILOGUE
