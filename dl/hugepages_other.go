//go:build !linux

package dl

// adviseHugePages does nothing where the kernel has no madvise
// MADV_HUGEPAGE (see the Linux version).
func adviseHugePages([]byte) {}
