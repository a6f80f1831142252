//go:build !dlbd_noasm

#include "textflag.h"
#include "lanes_amd64.h"

// TapRows's loop.  Rows run in segments of 32 floats, two vectors whose
// lanes past the row are masked off (K1, K2: a segment of n floats has
// mask 2ⁿ − 1, its low and high 16 bits), so nothing past a row is read
// or written.  A segment's accumulators start from y, take one fused
// multiply-add per tap (the weight broadcast, x read at the tap's offset
// under the mask) and go back to y.  Four rows go together while four
// are left: eight independent sums hide the multiply-add's latency (one
// row's two sums of nine taps wait on it: a 3×3 layer ran at half the
// speed), and a tap's weight and offset are loaded once for them.
//
// Registers: DI y's row, SI x's row, R8/R9 ldy/ldx in bytes, R10 rows
// left, R11 cols, R14 taps, BX the segment's first column, AX x's
// segment, R15/DX the cursors in offs and w, CX taps left, R12/R13 the
// tap's rows (and y's rows around the tap loop).

// SEGMASKS: K1, K2 the masks of the segment at column BX.  Uses AX, CX.
#define SEGMASKS \
	MOVQ  R11, CX; \
	SUBQ  BX, CX; \
	CMPQ  CX, $32; \
	JLE   2(PC); \
	MOVQ  $32, CX; \
	MOVQ  $1, AX; \
	SHLQ  CX, AX; \
	DECQ  AX; \
	KMOVW AX, K1; \
	SHRQ  $16, AX; \
	KMOVW AX, K2

// TAPSTART: the tap cursors at the first tap, AX x's segment.
#define TAPSTART \
	LEAQ (SI)(BX*4), AX; \
	MOVQ offs+48(FP), R15; \
	MOVQ w+56(FP), DX; \
	MOVQ R14, CX

// TAPNEXT: the cursors at the next tap; loops while taps are left.
#define TAPNEXT(label) \
	ADDQ $8, R15; \
	ADDQ $4, DX; \
	DECQ CX; \
	JNZ  label

// NEXTSEG: on to the row's next segment (label) while columns are left.
#define NEXTSEG(label) \
	ADDQ $32, BX; \
	CMPQ BX, R11; \
	JLT  label

// NEXTROWS4 / NEXTROW: four rows, or one, further in both slices; back
// to label.
#define NEXTROWS4(label) \
	LEAQ (DI)(R8*4), DI; \
	LEAQ (SI)(R9*4), SI; \
	SUBQ $4, R10; \
	JMP  label

#define NEXTROW(label) \
	ADDQ R8, DI; \
	ADDQ R9, SI; \
	DECQ R10; \
	JMP  label

// FIRSTSEG: to done when no row is left, else BX at the first column.
#define FIRSTSEG(done) \
	TESTQ R10, R10; \
	JZ    done; \
	XORQ  BX, BX

// func tapRowsAVX512(y *float32, ldy int, x *float32, ldx, rows, cols int, offs *int, w *float32, taps int)
TEXT ·tapRowsAVX512(SB), NOSPLIT, $0-72
	MOVQ y+0(FP), DI
	MOVQ ldy+8(FP), R8
	SHLQ $2, R8
	MOVQ x+16(FP), SI
	MOVQ ldx+24(FP), R9
	SHLQ $2, R9
	MOVQ rows+32(FP), R10
	MOVQ cols+40(FP), R11
	MOVQ taps+64(FP), R14

rows4:
	CMPQ R10, $4
	JLT  row1
	XORQ BX, BX

seg4:
	SEGMASKS
	LEAQ      (DI)(BX*4), R13
	VMOVUPS.Z (R13), K1, Z0
	VMOVUPS.Z 64(R13), K2, Z1
	VMOVUPS.Z (R13)(R8*1), K1, Z2
	VMOVUPS.Z 64(R13)(R8*1), K2, Z3
	LEAQ      (R13)(R8*2), R13
	VMOVUPS.Z (R13), K1, Z4
	VMOVUPS.Z 64(R13), K2, Z5
	VMOVUPS.Z (R13)(R8*1), K1, Z6
	VMOVUPS.Z 64(R13)(R8*1), K2, Z7
	TAPSTART

tap4:
	MOVQ         (R15), R12
	LEAQ         (AX)(R12*4), R12
	LEAQ         (R12)(R9*2), R13
	VBROADCASTSS (DX), Z8
	VFMADD231PS  (R12), Z8, K1, Z0
	VFMADD231PS  64(R12), Z8, K2, Z1
	VFMADD231PS  (R12)(R9*1), Z8, K1, Z2
	VFMADD231PS  64(R12)(R9*1), Z8, K2, Z3
	VFMADD231PS  (R13), Z8, K1, Z4
	VFMADD231PS  64(R13), Z8, K2, Z5
	VFMADD231PS  (R13)(R9*1), Z8, K1, Z6
	VFMADD231PS  64(R13)(R9*1), Z8, K2, Z7
	TAPNEXT(tap4)

	LEAQ    (DI)(BX*4), R13
	VMOVUPS Z0, K1, (R13)
	VMOVUPS Z1, K2, 64(R13)
	VMOVUPS Z2, K1, (R13)(R8*1)
	VMOVUPS Z3, K2, 64(R13)(R8*1)
	LEAQ    (R13)(R8*2), R13
	VMOVUPS Z4, K1, (R13)
	VMOVUPS Z5, K2, 64(R13)
	VMOVUPS Z6, K1, (R13)(R8*1)
	VMOVUPS Z7, K2, 64(R13)(R8*1)
	NEXTSEG(seg4)

	NEXTROWS4(rows4)

row1:
	FIRSTSEG(done)

seg1:
	SEGMASKS
	VMOVUPS.Z (DI)(BX*4), K1, Z0
	VMOVUPS.Z 64(DI)(BX*4), K2, Z1
	TAPSTART

tap1:
	MOVQ         (R15), R12
	VBROADCASTSS (DX), Z8
	VFMADD231PS  (AX)(R12*4), Z8, K1, Z0
	VFMADD231PS  64(AX)(R12*4), Z8, K2, Z1
	TAPNEXT(tap1)

	VMOVUPS Z0, K1, (DI)(BX*4)
	VMOVUPS Z1, K2, 64(DI)(BX*4)
	NEXTSEG(seg1)

	NEXTROW(row1)

done:
	VZEROUPPER
	RET

// TapDots's loop: for each tap, the products of g and x at the tap's
// offset, segment by segment (masked as TapRows's), summed in float32
// over up to four rows (two pairs of accumulators, so that no sum waits
// on the one before), then widened and added in float64 (Z14, Z15), and
// Z14 + Z15's lanes added to acc[t].
//
// Registers: R12 acc's cursor, DX offs's, R14 taps left, DI g's row, SI
// x's row at the tap's offset, R8/R9 ldg/ldx in bytes, R10 rows left,
// R11 cols, BX the segment's first column, R13/AX g's and x's rows in
// the segment.

// WIDEN(z, y): Z14, Z15 += the low and high 8 lanes of z, in float64.
#define WIDEN(z, y) \
	VCVTPS2PD     y, Z4; \
	VADDPD        Z4, Z14, Z14; \
	VEXTRACTF64X4 $1, z, Y5; \
	VCVTPS2PD     Y5, Z5; \
	VADDPD        Z5, Z15, Z15

// DSEGSTART: the segment's masks, R13/AX at its first row of g and x,
// and Z0, Z1 that row's products.
#define DSEGSTART \
	SEGMASKS; \
	LEAQ      (DI)(BX*4), R13; \
	LEAQ      (SI)(BX*4), AX; \
	VMOVUPS.Z (R13), K1, Z2; \
	VMOVUPS.Z 64(R13), K2, Z3; \
	VMULPS.Z  (AX), Z2, K1, Z0; \
	VMULPS.Z  64(AX), Z3, K2, Z1

// func tapDotsAVX512(acc *float64, grad *float32, ldg int, x *float32, ldx, rows, cols int, offs *int, taps int)
TEXT ·tapDotsAVX512(SB), NOSPLIT, $0-72
	MOVQ acc+0(FP), R12
	MOVQ ldg+16(FP), R8
	SHLQ $2, R8
	MOVQ ldx+32(FP), R9
	SHLQ $2, R9
	MOVQ cols+48(FP), R11
	MOVQ offs+56(FP), DX
	MOVQ taps+64(FP), R14

dtap:
	MOVQ   grad+8(FP), DI
	MOVQ   x+24(FP), SI
	MOVQ   (DX), AX
	LEAQ   (SI)(AX*4), SI
	MOVQ   rows+40(FP), R10
	VXORPD Z14, Z14, Z14
	VXORPD Z15, Z15, Z15

dgroup4:
	CMPQ R10, $4
	JLT  dgroup1
	XORQ BX, BX

dseg4:
	DSEGSTART
	VMOVUPS.Z   (R13)(R8*1), K1, Z2
	VMOVUPS.Z   64(R13)(R8*1), K2, Z3
	VMULPS.Z    (AX)(R9*1), Z2, K1, Z6
	VMULPS.Z    64(AX)(R9*1), Z3, K2, Z7
	LEAQ        (R13)(R8*2), R13
	LEAQ        (AX)(R9*2), AX
	VMOVUPS.Z   (R13), K1, Z2
	VMOVUPS.Z   64(R13), K2, Z3
	VFMADD231PS (AX), Z2, K1, Z0
	VFMADD231PS 64(AX), Z3, K2, Z1
	VMOVUPS.Z   (R13)(R8*1), K1, Z2
	VMOVUPS.Z   64(R13)(R8*1), K2, Z3
	VFMADD231PS (AX)(R9*1), Z2, K1, Z6
	VFMADD231PS 64(AX)(R9*1), Z3, K2, Z7
	VADDPS      Z6, Z0, Z0
	VADDPS      Z7, Z1, Z1
	WIDEN(Z0, Y0)
	WIDEN(Z1, Y1)
	NEXTSEG(dseg4)

	NEXTROWS4(dgroup4)

dgroup1:
	FIRSTSEG(dtapdone)

dseg1:
	DSEGSTART
	WIDEN(Z0, Y0)
	WIDEN(Z1, Y1)
	NEXTSEG(dseg1)

	NEXTROW(dgroup1)

dtapdone:
	SUMLANES(Z14, Z15, Y14, Y15, X14, X15)
	VADDSD (R12), X14, X14
	VMOVSD X14, (R12)
	ADDQ   $8, R12
	ADDQ   $8, DX
	DECQ   R14
	JNZ    dtap
	VZEROUPPER
	RET

// TapRows's loop on AVX2 CPUs: tapRowsAVX512's, with segments of 16
// floats (two ymm vectors) and the masks as vectors (Y14, Y15, from
// lanemask: VMASKMOVPS reads and writes only the lanes of the row), so
// nothing past a row is read or written here either.  Four rows go
// together (eight sums), as there.

// The masks come from lanemask (vec_avx2_amd64.s).

// SEGMASKS16: Y14, Y15 the masks of the segment at column BX, the
// min(16, cols − BX) columns left.  Uses AX, CX.
#define SEGMASKS16 \
	MOVQ    R11, CX; \
	SUBQ    BX, CX; \
	CMPQ    CX, $16; \
	JLE     2(PC); \
	MOVQ    $16, CX; \
	NEGQ    CX; \
	LEAQ    ·lanemask+64(SB), AX; \
	VMOVDQU (AX)(CX*4), Y14; \
	VMOVDQU 32(AX)(CX*4), Y15

// MFMA: acc += Y8 · the lanes of mask at addr.
#define MFMA(addr, mask, acc) \
	VMASKMOVPS  addr, mask, Y9; \
	VFMADD231PS Y9, Y8, acc

#define NEXTSEG16(label) \
	ADDQ $16, BX; \
	CMPQ BX, R11; \
	JLT  label

// Rows of at least 16 floats run without masks (VMASKMOVPS is slow on
// some CPUs: on AMD's Zen 3 the masked loop ran at half the speed).  A
// row's last segment, when fewer than 16 columns are left, starts 16
// before the row's end instead, over columns already done: it reads
// only the row, and where the segments overlap it stores what the last
// segment stored there, kept by a blend.

// TAILSEG16: BX moved back to cols − 16 when fewer than 16 columns are
// left, so that the segment ends at the row's end.  Uses CX.
#define TAILSEG16 \
	MOVQ R11, CX; \
	SUBQ BX, CX; \
	CMPQ CX, $16; \
	JGE  2(PC); \
	LEAQ -16(R11), BX

// KEEPDONE(label): to label for a whole segment (BX a multiple of 16),
// else Y14, Y15 the lanes already done, 16 − cols%16 of them, the first
// of the segment (lanemask from lane cols%16).  Uses CX, DX.
#define KEEPDONE(label) \
	MOVQ    BX, CX; \
	ANDQ    $15, CX; \
	JZ      label; \
	LEAQ    ·lanemask(SB), DX; \
	VMOVDQU (DX)(CX*4), Y14; \
	VMOVDQU 32(DX)(CX*4), Y15

// KEEP(addr, a, b): the lanes of a, b that KEEPDONE's masks name
// replaced by what addr (and addr + 32) already holds.
#define KEEP(addr, a, b) \
	VBLENDVPS Y14, addr, a, a; \
	VBLENDVPS Y15, 32 addr, b, b

// func tapRowsAVX2(y *float32, ldy int, x *float32, ldx, rows, cols int, offs *int, w *float32, taps int)
TEXT ·tapRowsAVX2(SB), NOSPLIT, $0-72
	MOVQ y+0(FP), DI
	MOVQ ldy+8(FP), R8
	SHLQ $2, R8
	MOVQ x+16(FP), SI
	MOVQ ldx+24(FP), R9
	SHLQ $2, R9
	MOVQ rows+32(FP), R10
	MOVQ cols+40(FP), R11
	MOVQ taps+64(FP), R14
	CMPQ R11, $16
	JLT  arows4

urows4:
	CMPQ R10, $4
	JLT  urow1
	XORQ BX, BX

useg4:
	TAILSEG16
	LEAQ    (DI)(BX*4), R13
	VMOVUPS (R13), Y0
	VMOVUPS 32(R13), Y1
	VMOVUPS (R13)(R8*1), Y2
	VMOVUPS 32(R13)(R8*1), Y3
	LEAQ    (R13)(R8*2), R13
	VMOVUPS (R13), Y4
	VMOVUPS 32(R13), Y5
	VMOVUPS (R13)(R8*1), Y6
	VMOVUPS 32(R13)(R8*1), Y7
	TAPSTART

utap4:
	MOVQ         (R15), R12
	LEAQ         (AX)(R12*4), R12
	LEAQ         (R12)(R9*2), R13
	VBROADCASTSS (DX), Y8
	VFMADD231PS  (R12), Y8, Y0
	VFMADD231PS  32(R12), Y8, Y1
	VFMADD231PS  (R12)(R9*1), Y8, Y2
	VFMADD231PS  32(R12)(R9*1), Y8, Y3
	VFMADD231PS  (R13), Y8, Y4
	VFMADD231PS  32(R13), Y8, Y5
	VFMADD231PS  (R13)(R9*1), Y8, Y6
	VFMADD231PS  32(R13)(R9*1), Y8, Y7
	TAPNEXT(utap4)

	LEAQ (DI)(BX*4), R13
	KEEPDONE(ustore4)
	KEEP((R13), Y0, Y1)
	KEEP((R13)(R8*1), Y2, Y3)
	LEAQ (R13)(R8*2), R12
	KEEP((R12), Y4, Y5)
	KEEP((R12)(R8*1), Y6, Y7)

ustore4:
	VMOVUPS Y0, (R13)
	VMOVUPS Y1, 32(R13)
	VMOVUPS Y2, (R13)(R8*1)
	VMOVUPS Y3, 32(R13)(R8*1)
	LEAQ    (R13)(R8*2), R13
	VMOVUPS Y4, (R13)
	VMOVUPS Y5, 32(R13)
	VMOVUPS Y6, (R13)(R8*1)
	VMOVUPS Y7, 32(R13)(R8*1)
	NEXTSEG16(useg4)

	NEXTROWS4(urows4)

urow1:
	FIRSTSEG(adone)

useg1:
	TAILSEG16
	VMOVUPS (DI)(BX*4), Y0
	VMOVUPS 32(DI)(BX*4), Y1
	TAPSTART

utap1:
	MOVQ         (R15), R12
	VBROADCASTSS (DX), Y8
	VFMADD231PS  (AX)(R12*4), Y8, Y0
	VFMADD231PS  32(AX)(R12*4), Y8, Y1
	TAPNEXT(utap1)

	LEAQ (DI)(BX*4), R13
	KEEPDONE(ustore1)
	KEEP((R13), Y0, Y1)

ustore1:
	VMOVUPS Y0, (R13)
	VMOVUPS Y1, 32(R13)
	NEXTSEG16(useg1)

	NEXTROW(urow1)

arows4:
	CMPQ R10, $4
	JLT  arow1
	XORQ BX, BX

aseg4:
	SEGMASKS16
	LEAQ       (DI)(BX*4), R13
	VMASKMOVPS (R13), Y14, Y0
	VMASKMOVPS 32(R13), Y15, Y1
	VMASKMOVPS (R13)(R8*1), Y14, Y2
	VMASKMOVPS 32(R13)(R8*1), Y15, Y3
	LEAQ       (R13)(R8*2), R13
	VMASKMOVPS (R13), Y14, Y4
	VMASKMOVPS 32(R13), Y15, Y5
	VMASKMOVPS (R13)(R8*1), Y14, Y6
	VMASKMOVPS 32(R13)(R8*1), Y15, Y7
	TAPSTART

atap4:
	MOVQ         (R15), R12
	LEAQ         (AX)(R12*4), R12
	LEAQ         (R12)(R9*2), R13
	VBROADCASTSS (DX), Y8
	MFMA((R12), Y14, Y0)
	MFMA(32(R12), Y15, Y1)
	MFMA((R12)(R9*1), Y14, Y2)
	MFMA(32(R12)(R9*1), Y15, Y3)
	MFMA((R13), Y14, Y4)
	MFMA(32(R13), Y15, Y5)
	MFMA((R13)(R9*1), Y14, Y6)
	MFMA(32(R13)(R9*1), Y15, Y7)
	TAPNEXT(atap4)

	LEAQ       (DI)(BX*4), R13
	VMASKMOVPS Y0, Y14, (R13)
	VMASKMOVPS Y1, Y15, 32(R13)
	VMASKMOVPS Y2, Y14, (R13)(R8*1)
	VMASKMOVPS Y3, Y15, 32(R13)(R8*1)
	LEAQ       (R13)(R8*2), R13
	VMASKMOVPS Y4, Y14, (R13)
	VMASKMOVPS Y5, Y15, 32(R13)
	VMASKMOVPS Y6, Y14, (R13)(R8*1)
	VMASKMOVPS Y7, Y15, 32(R13)(R8*1)
	NEXTSEG16(aseg4)

	NEXTROWS4(arows4)

arow1:
	FIRSTSEG(adone)

aseg1:
	SEGMASKS16
	VMASKMOVPS (DI)(BX*4), Y14, Y0
	VMASKMOVPS 32(DI)(BX*4), Y15, Y1
	TAPSTART

atap1:
	MOVQ         (R15), R12
	VBROADCASTSS (DX), Y8
	MFMA((AX)(R12*4), Y14, Y0)
	MFMA(32(AX)(R12*4), Y15, Y1)
	TAPNEXT(atap1)

	VMASKMOVPS Y0, Y14, (DI)(BX*4)
	VMASKMOVPS Y1, Y15, 32(DI)(BX*4)
	NEXTSEG16(aseg1)

	NEXTROW(arow1)

adone:
	VZEROUPPER
	RET

// TapDots's loop on AVX2 CPUs: tapDotsAVX512's, with 16-float segments
// masked as tapRowsAVX2's (VMASKMOVPS reads zeros past a row, so the
// products there are zeros), a row group's products summed in float32 in
// Y0, Y1, then widened and added in float64 to Y10..Y13.

// WIDEN4(y, x): Y10, Y11 (or the pair given) += the low and high 4 lanes
// of y, in float64.
#define WIDEN4(y, x, lo, hi) \
	VCVTPS2PD    x, Y8; \
	VADDPD       Y8, lo, lo; \
	VEXTRACTF128 $1, y, X9; \
	VCVTPS2PD    X9, Y9; \
	VADDPD       Y9, hi, hi

// ASEGSTART: the segment's masks, R13/AX at its first row of g and x,
// and Y0, Y1 that row's products.
#define ASEGSTART \
	SEGMASKS16; \
	LEAQ       (DI)(BX*4), R13; \
	LEAQ       (SI)(BX*4), AX; \
	VMASKMOVPS (R13), Y14, Y2; \
	VMASKMOVPS 32(R13), Y15, Y3; \
	VMASKMOVPS (AX), Y14, Y4; \
	VMASKMOVPS 32(AX), Y15, Y5; \
	VMULPS     Y4, Y2, Y0; \
	VMULPS     Y5, Y3, Y1

// AROWFMA(gaddr, xaddr, acc0, acc1): acc0, acc1 += g · x of one row's
// segment.
#define AROWFMA(goff, gbase, xoff, xbase, acc0, acc1) \
	VMASKMOVPS  goff gbase, Y14, Y2; \
	VMASKMOVPS  32+goff gbase, Y15, Y3; \
	VMASKMOVPS  xoff xbase, Y14, Y4; \
	VMASKMOVPS  32+xoff xbase, Y15, Y5; \
	VFMADD231PS Y4, Y2, acc0; \
	VFMADD231PS Y5, Y3, acc1

// WIDENSEG: a segment's float32 sums Y0, Y1 added to Y10..Y13 in float64.
#define WIDENSEG \
	WIDEN4(Y0, X0, Y10, Y11); \
	WIDEN4(Y1, X1, Y12, Y13)

// USEGSTART: ASEGSTART without masks (rows of at least 16 floats, the
// segment moved back by TAILSEG16 at a row's end).
#define USEGSTART \
	TAILSEG16; \
	LEAQ    (DI)(BX*4), R13; \
	LEAQ    (SI)(BX*4), AX; \
	VMOVUPS (R13), Y2; \
	VMOVUPS 32(R13), Y3; \
	VMULPS  (AX), Y2, Y0; \
	VMULPS  32(AX), Y3, Y1

// UROWFMA(goff, gbase, xoff, xbase, acc0, acc1): AROWFMA without masks
// (rows of at least 16 floats, see TAILSEG16).
#define UROWFMA(goff, gbase, xoff, xbase, acc0, acc1) \
	VMOVUPS     goff gbase, Y2; \
	VMOVUPS     32+goff gbase, Y3; \
	VFMADD231PS xoff xbase, Y2, acc0; \
	VFMADD231PS 32+xoff xbase, Y3, acc1

// DROPDONE(label): to label for a whole segment (BX a multiple of 16),
// else the lanes of Y0, Y1 over columns already done (TAILSEG16) set to
// zero.  Uses CX, R15, Y14, Y15.
#define DROPDONE(label) \
	MOVQ    BX, CX; \
	ANDQ    $15, CX; \
	JZ      label; \
	LEAQ    ·lanemask(SB), R15; \
	VMOVDQU (R15)(CX*4), Y14; \
	VMOVDQU 32(R15)(CX*4), Y15; \
	VANDNPS Y0, Y14, Y0; \
	VANDNPS Y1, Y15, Y1

// func tapDotsAVX2(acc *float64, grad *float32, ldg int, x *float32, ldx, rows, cols int, offs *int, taps int)
TEXT ·tapDotsAVX2(SB), NOSPLIT, $0-72
	MOVQ acc+0(FP), R12
	MOVQ ldg+16(FP), R8
	SHLQ $2, R8
	MOVQ ldx+32(FP), R9
	SHLQ $2, R9
	MOVQ cols+48(FP), R11
	MOVQ offs+56(FP), DX
	MOVQ taps+64(FP), R14

atdtap:
	MOVQ   grad+8(FP), DI
	MOVQ   x+24(FP), SI
	MOVQ   (DX), AX
	LEAQ   (SI)(AX*4), SI
	MOVQ   rows+40(FP), R10
	VXORPD Y10, Y10, Y10
	VXORPD Y11, Y11, Y11
	VXORPD Y12, Y12, Y12
	VXORPD Y13, Y13, Y13
	CMPQ   R11, $16
	JGE    utdgroup4

atdgroup4:
	CMPQ R10, $4
	JLT  atdgroup1
	XORQ BX, BX

atdseg4:
	ASEGSTART
	VMASKMOVPS (R13)(R8*1), Y14, Y2
	VMASKMOVPS 32(R13)(R8*1), Y15, Y3
	VMASKMOVPS (AX)(R9*1), Y14, Y4
	VMASKMOVPS 32(AX)(R9*1), Y15, Y5
	VMULPS     Y4, Y2, Y6
	VMULPS     Y5, Y3, Y7
	LEAQ       (R13)(R8*2), R13
	LEAQ       (AX)(R9*2), AX
	AROWFMA(0, (R13), 0, (AX), Y0, Y1)
	AROWFMA(0, (R13)(R8*1), 0, (AX)(R9*1), Y6, Y7)
	VADDPS     Y6, Y0, Y0
	VADDPS     Y7, Y1, Y1
	WIDENSEG
	NEXTSEG16(atdseg4)

	NEXTROWS4(atdgroup4)

atdgroup1:
	FIRSTSEG(atdtapdone)

atdseg1:
	ASEGSTART
	WIDENSEG
	NEXTSEG16(atdseg1)

	NEXTROW(atdgroup1)

utdgroup4:
	CMPQ R10, $4
	JLT  utdgroup1
	XORQ BX, BX

utdseg4:
	USEGSTART
	VMOVUPS (R13)(R8*1), Y2
	VMOVUPS 32(R13)(R8*1), Y3
	VMULPS  (AX)(R9*1), Y2, Y6
	VMULPS  32(AX)(R9*1), Y3, Y7
	LEAQ    (R13)(R8*2), R13
	LEAQ    (AX)(R9*2), AX
	UROWFMA(0, (R13), 0, (AX), Y0, Y1)
	UROWFMA(0, (R13)(R8*1), 0, (AX)(R9*1), Y6, Y7)
	VADDPS  Y6, Y0, Y0
	VADDPS  Y7, Y1, Y1
	DROPDONE(utdwiden4)

utdwiden4:
	WIDENSEG
	NEXTSEG16(utdseg4)

	NEXTROWS4(utdgroup4)

utdgroup1:
	FIRSTSEG(atdtapdone)

utdseg1:
	USEGSTART
	DROPDONE(utdwiden1)

utdwiden1:
	WIDENSEG
	NEXTSEG16(utdseg1)

	NEXTROW(utdgroup1)

atdtapdone:
	VADDPD       Y11, Y10, Y10
	VADDPD       Y13, Y12, Y12
	VADDPD       Y12, Y10, Y10
	VEXTRACTF128 $1, Y10, X11
	VADDPD       X11, X10, X10
	VPERMILPD    $1, X10, X11
	VADDSD       X11, X10, X10
	VADDSD       (R12), X10, X10
	VMOVSD       X10, (R12)
	ADDQ         $8, R12
	ADDQ         $8, DX
	DECQ         R14
	JNZ          atdtap
	VZEROUPPER
	RET
