// Macros shared by the 14x32 AVX-512 micro-kernels (sgemm_avx512_amd64.s,
// sbgemm_avx512_amd64.s): the accumulators live in Z0..Z27 (row i in
// Z(2i), Z(2i+1)), and the epilogue writes c = alpha*acc + beta*c.

// SCALE: r0, r1 *= alpha (Z30).
#define SCALE(r0, r1) \
	VMULPS Z30, r0, r0; \
	VMULPS Z30, r1, r1

// Epilogue rows; DX walks the C rows, BX = ldc in bytes.
// STROW:  c = acc                      (beta == 0: c is not read)
#define STROW(r0, r1) \
	VMOVUPS r0, (DX); \
	VMOVUPS r1, 64(DX); \
	ADDQ    BX, DX

// ADDROW: c = acc + c                  (beta == 1)
#define ADDROW(r0, r1) \
	VADDPS  (DX), r0, r0; \
	VADDPS  64(DX), r1, r1; \
	STROW(r0, r1)

// FMAROW: c = acc + beta*c             (beta in Z31)
#define FMAROW(r0, r1) \
	VFMADD231PS (DX), Z31, r0; \
	VFMADD231PS 64(DX), Z31, r1; \
	STROW(r0, r1)

// PFROW: pull a C row towards L1 while the k loop runs.
#define PFROW \
	PREFETCHT0 (DX); \
	PREFETCHT0 127(DX); \
	ADDQ       BX, DX

#define ALLROWS(M) \
	M(Z0, Z1); M(Z2, Z3); M(Z4, Z5); M(Z6, Z7); M(Z8, Z9); M(Z10, Z11); M(Z12, Z13); \
	M(Z14, Z15); M(Z16, Z17); M(Z18, Z19); M(Z20, Z21); M(Z22, Z23); M(Z24, Z25); M(Z26, Z27)

// ZEROACC clears the accumulators Z0..Z27.
#define ZEROACC \
	VPXORD Z0, Z0, Z0; \
	VPXORD Z1, Z1, Z1; \
	VPXORD Z2, Z2, Z2; \
	VPXORD Z3, Z3, Z3; \
	VPXORD Z4, Z4, Z4; \
	VPXORD Z5, Z5, Z5; \
	VPXORD Z6, Z6, Z6; \
	VPXORD Z7, Z7, Z7; \
	VPXORD Z8, Z8, Z8; \
	VPXORD Z9, Z9, Z9; \
	VPXORD Z10, Z10, Z10; \
	VPXORD Z11, Z11, Z11; \
	VPXORD Z12, Z12, Z12; \
	VPXORD Z13, Z13, Z13; \
	VPXORD Z14, Z14, Z14; \
	VPXORD Z15, Z15, Z15; \
	VPXORD Z16, Z16, Z16; \
	VPXORD Z17, Z17, Z17; \
	VPXORD Z18, Z18, Z18; \
	VPXORD Z19, Z19, Z19; \
	VPXORD Z20, Z20, Z20; \
	VPXORD Z21, Z21, Z21; \
	VPXORD Z22, Z22, Z22; \
	VPXORD Z23, Z23, Z23; \
	VPXORD Z24, Z24, Z24; \
	VPXORD Z25, Z25, Z25; \
	VPXORD Z26, Z26, Z26; \
	VPXORD Z27, Z27, Z27

// EPILOGUE: acc *= alpha; then, by beta, c = acc (beta == 0: c is not
// read), c += acc (beta == 1) or c = acc + beta*c; and return.  It reads
// c+24(FP), alpha+40(FP) and beta+44(FP) of the kernels' common signature.
#define EPILOGUE \
	/* acc *= alpha */ \
	VBROADCASTSS alpha+40(FP), Z30; \
	ALLROWS(SCALE); \
	/* switch beta { case 0: c = acc; case 1: c += acc; default: c = acc + beta*c } */ \
	MOVQ c+24(FP), DX; \
	MOVL beta+44(FP), AX; \
	TESTL $0x7fffffff, AX; /* +0 or -0 */ \
	JZ    overwrite; \
	CMPL  AX, $0x3f800000; /* 1.0 */ \
	JEQ   accumulate; \
	VBROADCASTSS beta+44(FP), Z31; \
	ALLROWS(FMAROW); \
	VZEROUPPER; \
	RET; \
accumulate:; \
	ALLROWS(ADDROW); \
	VZEROUPPER; \
	RET; \
overwrite:; \
	ALLROWS(STROW); \
	VZEROUPPER; \
	RET
