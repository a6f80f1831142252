//go:build amd64 && !dlbd_noasm

package gls

// getg returns the address of the calling goroutine's runtime descriptor
// (goid_amd64.s).
func getg() uintptr

// goid returns a key naming the calling goroutine among the live ones:
// its descriptor's address (see the package doc).
func goid() int64 { return int64(getg()) }
