//go:build !dlbd_noasm

#include "textflag.h"

// func adamAVX512(p, grad, m, v *float32, n int, c *AdamCoeffs)
//
// adamGeneric on n elements, 16 at a time, each operation rounded as the
// Go loop rounds it: VMULPS and VADDPS separately (no VFMADD), VSQRTPS
// (correctly rounded, as float32(math.Sqrt(float64(x))) is), VDIVPS.
// The weight-decay mode (BX) is fixed before the loop: 1 AdamW's decay
// of p, 2 Adam's g + λp, 0 neither.
//
// AdamCoeffs' offsets: Beta1 0, Beta2 4, OneMinusB1 8, OneMinusB2 12,
// StepSize 16, BC2Sqrt 20, Eps 24, Decay 28, WeightDecay 32, Decoupled 36.
TEXT ·adamAVX512(SB), NOSPLIT, $0-48
	MOVQ p+0(FP), DI
	MOVQ grad+8(FP), SI
	MOVQ m+16(FP), R8
	MOVQ v+24(FP), R9
	MOVQ n+32(FP), CX
	MOVQ c+40(FP), AX
	VBROADCASTSS 0(AX), Z20  // β1
	VBROADCASTSS 4(AX), Z21  // β2
	VBROADCASTSS 8(AX), Z22  // 1 − β1
	VBROADCASTSS 12(AX), Z23 // 1 − β2
	VBROADCASTSS 16(AX), Z24 // step size
	VBROADCASTSS 20(AX), Z25 // √(1 − β2ᵗ)
	VBROADCASTSS 24(AX), Z26 // ε
	VBROADCASTSS 28(AX), Z27 // 1 − γλ
	VBROADCASTSS 32(AX), Z28 // λ
	MOVBLZX 36(AX), BX       // Decoupled: mode 1
	TESTL   BX, BX
	JNZ     adamloop
	MOVL    32(AX), DX
	ANDL    $0x7fffffff, DX  // λ ≠ 0 (−0 counts as 0, as in Go)
	JZ      adamloop
	MOVL    $2, BX

adamloop:
	VMOVUPS (DI), Z0 // p
	VMOVUPS (SI), Z1 // g
	CMPL    BX, $1
	JEQ     adamdecay
	CMPL    BX, $2
	JNE     adammoments
	VMULPS  Z28, Z0, Z2 // λ·p
	VADDPS  Z2, Z1, Z1  // g = g + λ·p
	JMP     adammoments

adamdecay:
	VMULPS Z27, Z0, Z0 // p = p·(1 − γλ)

adammoments:
	VMULPS  (R8), Z20, Z2 // β1·m
	VMULPS  Z22, Z1, Z3   // (1 − β1)·g
	VADDPS  Z3, Z2, Z2    // m
	VMULPS  (R9), Z21, Z4 // β2·v
	VMULPS  Z23, Z1, Z5   // (1 − β2)·g
	VMULPS  Z1, Z5, Z5    //   ·g
	VADDPS  Z5, Z4, Z4    // v
	VSQRTPS Z4, Z6        // √v
	VDIVPS  Z25, Z6, Z6   // √v / √(1 − β2ᵗ)
	VADDPS  Z26, Z6, Z6   //   + ε
	VDIVPS  Z6, Z2, Z7    // m / denom
	VMULPS  Z24, Z7, Z7   // step size · (m / denom)
	VSUBPS  Z7, Z0, Z0    // p − ...
	VMOVUPS Z0, (DI)
	VMOVUPS Z2, (R8)
	VMOVUPS Z4, (R9)
	ADDQ    $64, DI
	ADDQ    $64, SI
	ADDQ    $64, R8
	ADDQ    $64, R9
	SUBQ    $16, CX
	JNZ     adamloop
	VZEROUPPER
	RET

// func adamAVX2(p, grad, m, v *float32, n int, c *AdamCoeffs)
//
// adamAVX512 on 8 lanes (ymm) for AVX2 CPUs, n > 0 a multiple of 8: the
// same operations, rounded alike.
TEXT ·adamAVX2(SB), NOSPLIT, $0-48
	MOVQ p+0(FP), DI
	MOVQ grad+8(FP), SI
	MOVQ m+16(FP), R8
	MOVQ v+24(FP), R9
	MOVQ n+32(FP), CX
	MOVQ c+40(FP), AX
	VBROADCASTSS 0(AX), Y8  // β1
	VBROADCASTSS 4(AX), Y9  // β2
	VBROADCASTSS 8(AX), Y10  // 1 − β1
	VBROADCASTSS 12(AX), Y11 // 1 − β2
	VBROADCASTSS 16(AX), Y12 // step size
	VBROADCASTSS 20(AX), Y13 // √(1 − β2ᵗ)
	VBROADCASTSS 24(AX), Y14 // ε
	VBROADCASTSS 28(AX), Y15 // 1 − γλ
	VBROADCASTSS 32(AX), Y7 // λ
	MOVBLZX 36(AX), BX       // Decoupled: mode 1
	TESTL   BX, BX
	JNZ     adamloop2
	MOVL    32(AX), DX
	ANDL    $0x7fffffff, DX  // λ ≠ 0 (−0 counts as 0, as in Go)
	JZ      adamloop2
	MOVL    $2, BX

adamloop2:
	VMOVUPS (DI), Y0 // p
	VMOVUPS (SI), Y1 // g
	CMPL    BX, $1
	JEQ     adamdecay2
	CMPL    BX, $2
	JNE     adammoments2
	VMULPS  Y7, Y0, Y2 // λ·p
	VADDPS  Y2, Y1, Y1  // g = g + λ·p
	JMP     adammoments2

adamdecay2:
	VMULPS Y15, Y0, Y0 // p = p·(1 − γλ)

adammoments2:
	VMULPS  (R8), Y8, Y2 // β1·m
	VMULPS  Y10, Y1, Y3   // (1 − β1)·g
	VADDPS  Y3, Y2, Y2    // m
	VMULPS  (R9), Y9, Y4 // β2·v
	VMULPS  Y11, Y1, Y5   // (1 − β2)·g
	VMULPS  Y1, Y5, Y5    //   ·g
	VADDPS  Y5, Y4, Y4    // v
	VSQRTPS Y4, Y6        // √v
	VDIVPS  Y13, Y6, Y6   // √v / √(1 − β2ᵗ)
	VADDPS  Y14, Y6, Y6   //   + ε
	VDIVPS  Y6, Y2, Y3    // m / denom (in Y3: Y7 holds λ)
	VMULPS  Y12, Y3, Y3   // step size · (m / denom)
	VSUBPS  Y3, Y0, Y0    // p − ...
	VMOVUPS Y0, (DI)
	VMOVUPS Y2, (R8)
	VMOVUPS Y4, (R9)
	ADDQ    $32, DI
	ADDQ    $32, SI
	ADDQ    $32, R8
	ADDQ    $32, R9
	SUBQ    $8, CX
	JNZ     adamloop2
	VZEROUPPER
	RET
