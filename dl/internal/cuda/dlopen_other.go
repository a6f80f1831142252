//go:build !linux || !(amd64 || arm64)

package cuda

import (
	"errors"
	"runtime"
)

// errPlatform explains why nothing loads here: NVIDIA ships the CUDA
// libraries this package binds for 64-bit Linux only, and size_t is
// declared as uint64 throughout.
var errPlatform = errors.New("cuda: this binding supports linux/amd64 and linux/arm64, not " +
	runtime.GOOS + "/" + runtime.GOARCH)

func dlopen(string) (uintptr, error)        { return 0, errPlatform }
func dlsym(uintptr, string) (uintptr, bool) { return 0, false }
func register(any, uintptr)                 {}
