//go:build amd64 && !dlbd_noasm

#include "textflag.h"

// func getg() uintptr
//
// The goroutine descriptor g is kept in the thread-local slot that the
// TLS pseudo-register names (the linker picks the access sequence for
// static and position-independent builds).
TEXT ·getg(SB), NOSPLIT, $0-8
	MOVQ (TLS), AX
	MOVQ AX, ret+0(FP)
	RET
