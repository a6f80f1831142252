//go:build !dlbd_noasm && !linux

package f32

// requestAMX reports false: only Linux is asked for the AMX tile state
// here, so other systems use the AVX-512 kernels.
func requestAMX() bool { return false }
