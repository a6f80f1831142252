//go:build !dlbd_noasm

#include "textflag.h"

// func fused32AVX512(ptrs *unsafe.Pointer, n int, off uintptr, cnt int, div float32)
//
// Go equivalent (FusedGo with op Sum), one 256-byte stripe per iteration:
//
//	for ; off < end; off += 256 {
//		Z0..Z3 := load(ptrs[0]+off)             // 4 x 64 bytes
//		for k := 1; k < n; k++ { Z0..Z3 += load(ptrs[k]+off) }
//		if div != 0 { Z0..Z3 /= div }
//		for k := 0; k < n; k++ { store(ptrs[k]+off, Z0..Z3) }
//	}
//
// The stores hit lines loaded a moment before (L1), so they cost no extra
// memory read. No software prefetch: on the Zen 4 machine this was tuned on,
// PREFETCHT0 1 KiB ahead made every configuration slower and T1/T2 did not
// help (the hardware prefetchers keep up with n <= 8 streams).
TEXT ·fused32AVX512(SB), NOSPLIT, $0-36
	MOVQ ptrs+0(FP), SI
	MOVQ n+8(FP), CX
	MOVQ off+16(FP), DX
	MOVQ cnt+24(FP), BX
	MOVL div+32(FP), R9
	VBROADCASTSS div+32(FP), Z8
	SHLQ $2, BX  // cnt elements -> bytes
	ADDQ DX, BX                       // BX = end offset in bytes
	CMPQ DX, BX
	JAE  fused32AVX512_done

fused32AVX512_stripe:
	MOVQ (SI), AX                     // Z0..Z3 = ptrs[0][off:off+256]
	VMOVUPS 0(AX)(DX*1), Z0
	VMOVUPS 64(AX)(DX*1), Z1
	VMOVUPS 128(AX)(DX*1), Z2
	VMOVUPS 192(AX)(DX*1), Z3
	MOVQ $1, R8
	CMPQ R8, CX
	JAE  fused32AVX512_div

fused32AVX512_add:                          // for k := 1; k < n; k++ { Z += ptrs[k][...] }
	MOVQ (SI)(R8*8), AX
	VADDPS 0(AX)(DX*1), Z0, Z0
	VADDPS 64(AX)(DX*1), Z1, Z1
	VADDPS 128(AX)(DX*1), Z2, Z2
	VADDPS 192(AX)(DX*1), Z3, Z3
	INCQ R8
	CMPQ R8, CX
	JB   fused32AVX512_add

fused32AVX512_div:                          // if div != 0 { Z /= div }
	TESTL R9, R9
	JZ    fused32AVX512_store
	VDIVPS Z8, Z0, Z0
	VDIVPS Z8, Z1, Z1
	VDIVPS Z8, Z2, Z2
	VDIVPS Z8, Z3, Z3

fused32AVX512_store:                        // for k := 0; k < n; k++ { ptrs[k][...] = Z }
	XORQ R8, R8

fused32AVX512_st:
	MOVQ (SI)(R8*8), AX
	VMOVUPS Z0, 0(AX)(DX*1)
	VMOVUPS Z1, 64(AX)(DX*1)
	VMOVUPS Z2, 128(AX)(DX*1)
	VMOVUPS Z3, 192(AX)(DX*1)
	INCQ R8
	CMPQ R8, CX
	JB   fused32AVX512_st

	ADDQ $256, DX
	CMPQ DX, BX
	JB   fused32AVX512_stripe

fused32AVX512_done:
	VZEROUPPER
	RET

// func fused64AVX512(ptrs *unsafe.Pointer, n int, off uintptr, cnt int, div float64)
//
// Go equivalent (FusedGo with op Sum), one 256-byte stripe per iteration:
//
//	for ; off < end; off += 256 {
//		Z0..Z3 := load(ptrs[0]+off)             // 4 x 64 bytes
//		for k := 1; k < n; k++ { Z0..Z3 += load(ptrs[k]+off) }
//		if div != 0 { Z0..Z3 /= div }
//		for k := 0; k < n; k++ { store(ptrs[k]+off, Z0..Z3) }
//	}
//
// The stores hit lines loaded a moment before (L1), so they cost no extra
// memory read. No software prefetch: on the Zen 4 machine this was tuned on,
// PREFETCHT0 1 KiB ahead made every configuration slower and T1/T2 did not
// help (the hardware prefetchers keep up with n <= 8 streams).
TEXT ·fused64AVX512(SB), NOSPLIT, $0-40
	MOVQ ptrs+0(FP), SI
	MOVQ n+8(FP), CX
	MOVQ off+16(FP), DX
	MOVQ cnt+24(FP), BX
	MOVQ div+32(FP), R9
	VBROADCASTSD div+32(FP), Z8
	SHLQ $3, BX  // cnt elements -> bytes
	ADDQ DX, BX                       // BX = end offset in bytes
	CMPQ DX, BX
	JAE  fused64AVX512_done

fused64AVX512_stripe:
	MOVQ (SI), AX                     // Z0..Z3 = ptrs[0][off:off+256]
	VMOVUPD 0(AX)(DX*1), Z0
	VMOVUPD 64(AX)(DX*1), Z1
	VMOVUPD 128(AX)(DX*1), Z2
	VMOVUPD 192(AX)(DX*1), Z3
	MOVQ $1, R8
	CMPQ R8, CX
	JAE  fused64AVX512_div

fused64AVX512_add:                          // for k := 1; k < n; k++ { Z += ptrs[k][...] }
	MOVQ (SI)(R8*8), AX
	VADDPD 0(AX)(DX*1), Z0, Z0
	VADDPD 64(AX)(DX*1), Z1, Z1
	VADDPD 128(AX)(DX*1), Z2, Z2
	VADDPD 192(AX)(DX*1), Z3, Z3
	INCQ R8
	CMPQ R8, CX
	JB   fused64AVX512_add

fused64AVX512_div:                          // if div != 0 { Z /= div }
	TESTQ R9, R9
	JZ    fused64AVX512_store
	VDIVPD Z8, Z0, Z0
	VDIVPD Z8, Z1, Z1
	VDIVPD Z8, Z2, Z2
	VDIVPD Z8, Z3, Z3

fused64AVX512_store:                        // for k := 0; k < n; k++ { ptrs[k][...] = Z }
	XORQ R8, R8

fused64AVX512_st:
	MOVQ (SI)(R8*8), AX
	VMOVUPD Z0, 0(AX)(DX*1)
	VMOVUPD Z1, 64(AX)(DX*1)
	VMOVUPD Z2, 128(AX)(DX*1)
	VMOVUPD Z3, 192(AX)(DX*1)
	INCQ R8
	CMPQ R8, CX
	JB   fused64AVX512_st

	ADDQ $256, DX
	CMPQ DX, BX
	JB   fused64AVX512_stripe

fused64AVX512_done:
	VZEROUPPER
	RET

// func add32AVX512(dst, src unsafe.Pointer, cnt int, div float32)
//
// Go equivalent (CombineGo with op Sum), 256 bytes per iteration:
//
//	for i := 0; i < cnt; i++ { dst[i] += src[i]; if div != 0 { dst[i] /= div } }
TEXT ·add32AVX512(SB), NOSPLIT, $0-28
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ cnt+16(FP), BX
	MOVL div+24(FP), R9
	VBROADCASTSS div+24(FP), Z8
	SHLQ $2, BX  // cnt elements -> bytes
	XORQ DX, DX
	TESTQ BX, BX
	JZ   add32AVX512_done

add32AVX512_loop:
	VMOVUPS 0(DI)(DX*1), Z0
	VMOVUPS 64(DI)(DX*1), Z1
	VMOVUPS 128(DI)(DX*1), Z2
	VMOVUPS 192(DI)(DX*1), Z3
	VADDPS 0(SI)(DX*1), Z0, Z0
	VADDPS 64(SI)(DX*1), Z1, Z1
	VADDPS 128(SI)(DX*1), Z2, Z2
	VADDPS 192(SI)(DX*1), Z3, Z3
	TESTL R9, R9
	JZ    add32AVX512_store
	VDIVPS Z8, Z0, Z0
	VDIVPS Z8, Z1, Z1
	VDIVPS Z8, Z2, Z2
	VDIVPS Z8, Z3, Z3

add32AVX512_store:
	VMOVUPS Z0, 0(DI)(DX*1)
	VMOVUPS Z1, 64(DI)(DX*1)
	VMOVUPS Z2, 128(DI)(DX*1)
	VMOVUPS Z3, 192(DI)(DX*1)
	ADDQ $256, DX
	CMPQ DX, BX
	JB   add32AVX512_loop

add32AVX512_done:
	VZEROUPPER
	RET

// func add64AVX512(dst, src unsafe.Pointer, cnt int, div float64)
//
// Go equivalent (CombineGo with op Sum), 256 bytes per iteration:
//
//	for i := 0; i < cnt; i++ { dst[i] += src[i]; if div != 0 { dst[i] /= div } }
TEXT ·add64AVX512(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ cnt+16(FP), BX
	MOVQ div+24(FP), R9
	VBROADCASTSD div+24(FP), Z8
	SHLQ $3, BX  // cnt elements -> bytes
	XORQ DX, DX
	TESTQ BX, BX
	JZ   add64AVX512_done

add64AVX512_loop:
	VMOVUPD 0(DI)(DX*1), Z0
	VMOVUPD 64(DI)(DX*1), Z1
	VMOVUPD 128(DI)(DX*1), Z2
	VMOVUPD 192(DI)(DX*1), Z3
	VADDPD 0(SI)(DX*1), Z0, Z0
	VADDPD 64(SI)(DX*1), Z1, Z1
	VADDPD 128(SI)(DX*1), Z2, Z2
	VADDPD 192(SI)(DX*1), Z3, Z3
	TESTQ R9, R9
	JZ    add64AVX512_store
	VDIVPD Z8, Z0, Z0
	VDIVPD Z8, Z1, Z1
	VDIVPD Z8, Z2, Z2
	VDIVPD Z8, Z3, Z3

add64AVX512_store:
	VMOVUPD Z0, 0(DI)(DX*1)
	VMOVUPD Z1, 64(DI)(DX*1)
	VMOVUPD Z2, 128(DI)(DX*1)
	VMOVUPD Z3, 192(DI)(DX*1)
	ADDQ $256, DX
	CMPQ DX, BX
	JB   add64AVX512_loop

add64AVX512_done:
	VZEROUPPER
	RET

// func flushAsm(p unsafe.Pointer, n int)
//
// CLFLUSHOPT every 64-byte line of [p, p+n): the line leaves every cache
// level (written back first if dirty). SFENCE orders the flushes.
TEXT ·flushAsm(SB), NOSPLIT, $0-16
	MOVQ p+0(FP), SI
	MOVQ n+8(FP), BX
	ADDQ SI, BX
	ANDQ $-64, SI

flush_loop:
	CMPQ SI, BX
	JAE  flush_done
	CLFLUSHOPT (SI)
	ADDQ $64, SI
	JMP  flush_loop

flush_done:
	SFENCE
	RET

// func cpuid7ebx() uint32
TEXT ·cpuid7ebx(SB), NOSPLIT, $0-4
	MOVL $7, AX
	MOVL $0, CX
	CPUID
	MOVL BX, ret+0(FP)
	RET
