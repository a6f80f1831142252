//go:build !dlbd_noasm

package f32

import "syscall"

// requestAMX asks Linux for the AMX tile data state (arch_prctl
// ARCH_REQ_XCOMP_PERM for XFEATURE_XTILEDATA, Linux >= 5.16), without
// which the first tile instruction kills the process with SIGILL.  The
// permission is the process's, for all its threads.  It reports whether
// it was granted.
func requestAMX() bool {
	const archReqXcompPerm, xfeatureXTileData = 0x1023, 18
	_, _, errno := syscall.RawSyscall(syscall.SYS_ARCH_PRCTL, archReqXcompPerm, xfeatureXTileData, 0)
	return errno == 0
}
