//go:build !dlbd_noasm

#include "textflag.h"

// The AMX bfloat16 micro-kernel: a 32x32 tile of C in the accumulator
// tiles tmm0..tmm3 (16x16 float32 each), two 16-row tiles of A (tmm4,
// tmm5) and two 16-column tiles of B (tmm6, tmm7) per 32 steps of k.
// Go's assembler has no AMX mnemonics, so the instructions are spelled
// out as bytes (VEX.128.0F38.W0; only AX..DI as base and index, which
// keeps VEX.R/X/B at 1): each is preceded by its mnemonic.

// amxcfg is the tile configuration: palette 1, eight tiles of 16 rows
// of 64 bytes.
DATA amxcfg<>+0(SB)/8, $0x0000000000000001
DATA amxcfg<>+8(SB)/8, $0
DATA amxcfg<>+16(SB)/8, $0x0040004000400040
DATA amxcfg<>+24(SB)/8, $0x0040004000400040
DATA amxcfg<>+32(SB)/8, $0
DATA amxcfg<>+40(SB)/8, $0
DATA amxcfg<>+48(SB)/8, $0x1010101010101010
DATA amxcfg<>+56(SB)/8, $0
GLOBL amxcfg<>(SB), RODATA|NOPTR, $64

// func sbgemmAMXTile(chunks int, a, b, c *float32, ldc int, load bool)
TEXT ·sbgemmAMXTile(SB), NOSPLIT, $0-41
	MOVQ chunks+0(FP), CX
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DX
	MOVQ c+24(FP), BX
	LEAQ amxcfg<>(SB), DI
	// LDTILECFG (DI)
	BYTE $0xC4; BYTE $0xE2; BYTE $0x78; BYTE $0x49; BYTE $0x07
	MOVQ ldc+32(FP), AX
	SHLQ $2, AX // row stride of C in bytes
	MOVQ AX, DI
	SHLQ $4, DI
	ADDQ BX, DI // row 16 of C
	CMPB load+40(FP), $0
	JEQ  zero
	// TILELOADD tmm0, (BX)(AX*1)
	BYTE $0xC4; BYTE $0xE2; BYTE $0x7B; BYTE $0x4B; BYTE $0x04; BYTE $0x03
	// TILELOADD tmm1, 64(BX)(AX*1)
	BYTE $0xC4; BYTE $0xE2; BYTE $0x7B; BYTE $0x4B; BYTE $0x4C; BYTE $0x03; BYTE $0x40
	// TILELOADD tmm2, (DI)(AX*1)
	BYTE $0xC4; BYTE $0xE2; BYTE $0x7B; BYTE $0x4B; BYTE $0x14; BYTE $0x07
	// TILELOADD tmm3, 64(DI)(AX*1)
	BYTE $0xC4; BYTE $0xE2; BYTE $0x7B; BYTE $0x4B; BYTE $0x5C; BYTE $0x07; BYTE $0x40
	JMP  start

zero:
	// TILEZERO tmm0; tmm1; tmm2; tmm3
	BYTE $0xC4; BYTE $0xE2; BYTE $0x7B; BYTE $0x49; BYTE $0xC0
	BYTE $0xC4; BYTE $0xE2; BYTE $0x7B; BYTE $0x49; BYTE $0xC8
	BYTE $0xC4; BYTE $0xE2; BYTE $0x7B; BYTE $0x49; BYTE $0xD0
	BYTE $0xC4; BYTE $0xE2; BYTE $0x7B; BYTE $0x49; BYTE $0xD8

start:
	TESTQ CX, CX
	JZ    store
	MOVQ  $64, AX  // row stride of a packed A tile
	MOVQ  $128, DI // row (pair) stride of a packed B panel

loop:
	// TILELOADD tmm4, (SI)(AX*1): rows 0..15 of A, 16 pairs
	BYTE $0xC4; BYTE $0xE2; BYTE $0x7B; BYTE $0x4B; BYTE $0x24; BYTE $0x06
	// TILELOADD tmm5, 1024(SI)(AX*1): rows 16..31
	BYTE $0xC4; BYTE $0xE2; BYTE $0x7B; BYTE $0x4B; BYTE $0xAC; BYTE $0x06; BYTE $0x00; BYTE $0x04; BYTE $0x00; BYTE $0x00
	// TILELOADD tmm6, (DX)(DI*1): 16 pairs of columns 0..15 of B
	BYTE $0xC4; BYTE $0xE2; BYTE $0x7B; BYTE $0x4B; BYTE $0x34; BYTE $0x3A
	// TILELOADD tmm7, 64(DX)(DI*1): columns 16..31
	BYTE $0xC4; BYTE $0xE2; BYTE $0x7B; BYTE $0x4B; BYTE $0x7C; BYTE $0x3A; BYTE $0x40
	// TDPBF16PS tmm0, tmm4, tmm6
	BYTE $0xC4; BYTE $0xE2; BYTE $0x4A; BYTE $0x5C; BYTE $0xC4
	// TDPBF16PS tmm1, tmm4, tmm7
	BYTE $0xC4; BYTE $0xE2; BYTE $0x42; BYTE $0x5C; BYTE $0xCC
	// TDPBF16PS tmm2, tmm5, tmm6
	BYTE $0xC4; BYTE $0xE2; BYTE $0x4A; BYTE $0x5C; BYTE $0xD5
	// TDPBF16PS tmm3, tmm5, tmm7
	BYTE $0xC4; BYTE $0xE2; BYTE $0x42; BYTE $0x5C; BYTE $0xDD
	ADDQ $2048, SI
	ADDQ $2048, DX
	DECQ CX
	JNZ  loop

store:
	MOVQ ldc+32(FP), AX
	SHLQ $2, AX
	MOVQ AX, DI
	SHLQ $4, DI
	ADDQ BX, DI
	// TILESTORED (BX)(AX*1), tmm0
	BYTE $0xC4; BYTE $0xE2; BYTE $0x7A; BYTE $0x4B; BYTE $0x04; BYTE $0x03
	// TILESTORED 64(BX)(AX*1), tmm1
	BYTE $0xC4; BYTE $0xE2; BYTE $0x7A; BYTE $0x4B; BYTE $0x4C; BYTE $0x03; BYTE $0x40
	// TILESTORED (DI)(AX*1), tmm2
	BYTE $0xC4; BYTE $0xE2; BYTE $0x7A; BYTE $0x4B; BYTE $0x14; BYTE $0x07
	// TILESTORED 64(DI)(AX*1), tmm3
	BYTE $0xC4; BYTE $0xE2; BYTE $0x7A; BYTE $0x4B; BYTE $0x5C; BYTE $0x07; BYTE $0x40
	// TILERELEASE: back to the init state, which the OS saves cheaply
	BYTE $0xC4; BYTE $0xE2; BYTE $0x78; BYTE $0x49; BYTE $0xC0
	RET
