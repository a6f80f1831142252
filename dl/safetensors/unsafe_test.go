package safetensors_test

import "unsafe"

// unsafePointer returns the address of b's first byte (tests of alignment only).
func unsafePointer(b []byte) unsafe.Pointer { return unsafe.Pointer(unsafe.SliceData(b)) }
