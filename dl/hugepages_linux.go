package dl

import (
	"syscall"
	"unsafe"
)

// hugePage is the size of a transparent huge page on x86-64 (and on arm64
// with 4 KiB base pages).
const hugePage = 2 << 20

// adviseHugePages asks Linux to back buf, a host buffer of at least one
// huge page, with transparent huge pages (madvise MADV_HUGEPAGE).  Most
// distributions ship THP in "madvise" mode, where memory gets huge pages
// only when its owner asks, and the Go runtime does not ask for its heap;
// with 4 KiB pages a Transformer step's 180 MiB of activations, weights
// and moments miss the TLB in every strided GEMM packing and elementwise
// pass.  The range is rounded out to whole huge pages (a hint about the
// neighbouring heap memory changes no data), and the pages the runtime
// has already touched (a reused span it zeroed) stay small: the advice
// takes effect at first touch.  It is a hint: errors (a kernel without
// THP, "never" mode) are ignored.  NumPy advises the same for arrays of
// 4 MiB or more; PyTorch (from 2.2) for buffers of 2 MiB or more when
// THP_MEM_ALLOC_ENABLE is set.
func adviseHugePages(buf []byte) {
	if len(buf) < hugePage {
		return
	}
	p := uintptr(unsafe.Pointer(unsafe.SliceData(buf)))
	start := p &^ (hugePage - 1)
	end := (p + uintptr(len(buf)) + hugePage - 1) &^ (hugePage - 1)
	syscall.Syscall(syscall.SYS_MADVISE, start, end-start, syscall.MADV_HUGEPAGE)
}
