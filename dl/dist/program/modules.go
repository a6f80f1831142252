package program

import (
	"strings"
	"sync"
)

// modules maps an import path prefix to the root of the Go module (or
// workspace) that Run builds programs in for its packages (RegisterModule).
// It is global because the student's call (Run(ctx, Train, cfg)) cannot
// know where the notebook keeps its cells; the process that loads them
// does, and says so once.
var modules = struct {
	sync.Mutex
	dirs map[string]string
}{dirs: map[string]string{}}

// RegisterModule tells Run where to build the program for a function of a
// package whose import path is prefix or starts with prefix + "/": in a
// new directory inside dir, the root of a Go module or workspace that can
// import those packages. Without a registration Run builds in the module
// of the current directory (go env GOMOD), which cannot import packages
// that live elsewhere, like a notebook kernel's cells. A kernel whose
// cells are packages of a module of its own registers that module when
// its process starts. A later call for the same prefix replaces the
// earlier one; an empty dir removes it. It is safe for concurrent use.
func RegisterModule(prefix, dir string) {
	modules.Lock()
	defer modules.Unlock()
	if dir == "" {
		delete(modules.dirs, prefix)
		return
	}
	modules.dirs[prefix] = dir
}

// moduleDir returns the directory registered for pkg, the one of the
// longest prefix that matches; ok is false when none does.
func moduleDir(pkg string) (dir string, ok bool) {
	modules.Lock()
	defer modules.Unlock()
	best := ""
	for prefix, d := range modules.dirs {
		if (pkg == prefix || strings.HasPrefix(pkg, prefix+"/")) && len(prefix) >= len(best) {
			best, dir, ok = prefix, d, true
		}
	}
	return dir, ok
}
