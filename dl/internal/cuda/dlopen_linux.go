//go:build linux && (amd64 || arm64)

package cuda

import "github.com/ebitengine/purego"

// dlopen opens a shared library by soname (system loader search) or path.
// RTLD_NOW resolves everything at once, so a broken install fails here and
// not at some later call; RTLD_LOCAL keeps the library's symbols out of
// the global namespace (we look them up through the handle).
func dlopen(path string) (uintptr, error) {
	return purego.Dlopen(path, purego.RTLD_NOW|purego.RTLD_LOCAL)
}

// dlsym looks a symbol up in one library.
func dlsym(h uintptr, name string) (uintptr, bool) {
	addr, err := purego.Dlsym(h, name)
	return addr, err == nil && addr != 0
}

// register turns the C function at addr into the Go function *fptr.
// purego builds the call with reflection, which makes every pointer
// argument escape to the heap for the duration of the call.
func register(fptr any, addr uintptr) { purego.RegisterFunc(fptr, addr) }
