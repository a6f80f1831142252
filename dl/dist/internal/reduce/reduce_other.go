//go:build !amd64 || dlbd_noasm

package reduce

import "unsafe"

// hasAVX512 is false: this build has no assembly kernels.
const hasAVX512 = false

func fusedAsm[T Float](ptrs []unsafe.Pointer, off, cnt int, div T) {
	panic("reduce: no assembly kernels in this build")
}

func addAsm[T Float](dst, src unsafe.Pointer, cnt int, div T) {
	panic("reduce: no assembly kernels in this build")
}

const haveFlush = false

func flushAsm(p unsafe.Pointer, n int) { panic("reduce: no assembly kernels in this build") }
