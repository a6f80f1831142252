// Macros shared by pack_amd64.s and pack_half_amd64.s: the register
// transpose of 16 rows of 16 floats and the masked store of its columns.

// Stage 1: t = interleave 32-bit elements of rows (a, b), per 128-bit lane.
#define S1(a, b, lo, hi) \
	VUNPCKLPS b, a, lo; \
	VUNPCKHPS b, a, hi

// Stage 2: interleave 64-bit pairs of two stage-1 results.
#define S2(a, b, lo, hi) \
	VUNPCKLPD b, a, lo; \
	VUNPCKHPD b, a, hi

// Stage 3 and 4: combine 128-bit lanes: lanes {0,1} / {2,3} of a and b,
// then lanes {0,2} / {1,3}.
#define S3(a, b, lo, hi) \
	VSHUFF32X4 $0x44, b, a, lo; \
	VSHUFF32X4 $0xEE, b, a, hi

#define S4(a, b, lo, hi) \
	VSHUFF32X4 $0x88, b, a, lo; \
	VSHUFF32X4 $0xDD, b, a, hi

// TRANSPOSE16: rows in Z0..Z15 -> column j in Z(j), through Z16..Z31.
#define TRANSPOSE16 \
	/* t(2g), t(2g+1) = unpack rows 2g, 2g+1      -> Z16..Z31 */ \
	S1(Z0, Z1, Z16, Z17); \
	S1(Z2, Z3, Z18, Z19); \
	S1(Z4, Z5, Z20, Z21); \
	S1(Z6, Z7, Z22, Z23); \
	S1(Z8, Z9, Z24, Z25); \
	S1(Z10, Z11, Z26, Z27); \
	S1(Z12, Z13, Z28, Z29); \
	S1(Z14, Z15, Z30, Z31); \
	/* u(4g+c): lane L holds column 4L+c of rows 4g..4g+3  -> Z0..Z15 */ \
	S2(Z16, Z18, Z0, Z1); \
	S2(Z17, Z19, Z2, Z3); \
	S2(Z20, Z22, Z4, Z5); \
	S2(Z21, Z23, Z6, Z7); \
	S2(Z24, Z26, Z8, Z9); \
	S2(Z25, Z27, Z10, Z11); \
	S2(Z28, Z30, Z12, Z13); \
	S2(Z29, Z31, Z14, Z15); \
	/* v, w for each c from u(c), u(4+c) and u(8+c), u(12+c) -> Z16..Z31 */ \
	S3(Z0, Z4, Z16, Z17); \
	S3(Z8, Z12, Z18, Z19); \
	S3(Z1, Z5, Z20, Z21); \
	S3(Z9, Z13, Z22, Z23); \
	S3(Z2, Z6, Z24, Z25); \
	S3(Z10, Z14, Z26, Z27); \
	S3(Z3, Z7, Z28, Z29); \
	S3(Z11, Z15, Z30, Z31); \
	/* out(4L+c): column 4L+c of all 16 rows -> Z0..Z15 (Z(j) = column j) */ \
	S4(Z16, Z18, Z0, Z4); \
	S4(Z17, Z19, Z8, Z12); \
	S4(Z20, Z22, Z1, Z5); \
	S4(Z21, Z23, Z9, Z13); \
	S4(Z24, Z26, Z2, Z6); \
	S4(Z25, Z27, Z10, Z14); \
	S4(Z28, Z30, Z3, Z7); \
	S4(Z29, Z31, Z11, Z15)

// STORE16: store column j (Z(j)) at DI + j*DX (R10 = 3*DX), the lanes of
// K1; clobbers R11 and leaves DI 16 columns further.
#define STORE16 \
	MOVQ    DI, R11; \
	VMOVUPS Z0, K1, (R11); \
	VMOVUPS Z1, K1, (R11)(DX*1); \
	VMOVUPS Z2, K1, (R11)(DX*2); \
	VMOVUPS Z3, K1, (R11)(R10*1); \
	LEAQ    (R11)(DX*4), R11; \
	VMOVUPS Z4, K1, (R11); \
	VMOVUPS Z5, K1, (R11)(DX*1); \
	VMOVUPS Z6, K1, (R11)(DX*2); \
	VMOVUPS Z7, K1, (R11)(R10*1); \
	LEAQ    (R11)(DX*4), R11; \
	VMOVUPS Z8, K1, (R11); \
	VMOVUPS Z9, K1, (R11)(DX*1); \
	VMOVUPS Z10, K1, (R11)(DX*2); \
	VMOVUPS Z11, K1, (R11)(R10*1); \
	LEAQ    (R11)(DX*4), R11; \
	VMOVUPS Z12, K1, (R11); \
	VMOVUPS Z13, K1, (R11)(DX*1); \
	VMOVUPS Z14, K1, (R11)(DX*2); \
	VMOVUPS Z15, K1, (R11)(R10*1); \
	LEAQ    (R11)(DX*4), DI
