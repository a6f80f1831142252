package program

import (
	"os"
	"path/filepath"
	"testing"
)

func TestRegisterModule(t *testing.T) {
	t.Cleanup(func() { RegisterModule("example.cells", ""); RegisterModule("example.cells/deep", "") })
	RegisterModule("example.cells", "/session")
	RegisterModule("example.cells/deep", "/deep")
	tests := []struct {
		pkg, want string
		ok        bool
	}{
		{pkg: "example.cells/cell5", want: "/session", ok: true},
		{pkg: "example.cells", want: "/session", ok: true},
		{pkg: "example.cells/deep/x", want: "/deep", ok: true}, // the longest prefix
		{pkg: "example.cellsX/cell5"},
		{pkg: "github.com/dlbd/dlbd/dl/dist/program/ddptrain"},
		{pkg: "main"},
	}
	for _, tt := range tests {
		if got, ok := moduleDir(tt.pkg); got != tt.want || ok != tt.ok {
			t.Errorf("moduleDir(%q) = %q, %v; want %q, %v", tt.pkg, got, ok, tt.want, tt.ok)
		}
	}
	RegisterModule("example.cells", "")
	if got, ok := moduleDir("example.cells/cell5"); ok {
		t.Errorf("moduleDir after RegisterModule(prefix, \"\") = %q, true; want none", got)
	}
}

// TestProgDir: a registered package's program is built inside the
// registered module; others in the current directory's module.
func TestProgDir(t *testing.T) {
	root := t.TempDir()
	RegisterModule("example.cells", root)
	t.Cleanup(func() { RegisterModule("example.cells", "") })
	dir, err := progDir("example.cells/cell5")
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Dir(dir) != root {
		t.Errorf("progDir(registered) = %s; want a directory in %s", dir, root)
	}
	dir, err = progDir("github.com/dlbd/dlbd/dl/dist/program/ddptrain")
	if err != nil {
		t.Skipf("no module here: %v", err)
	}
	defer os.RemoveAll(dir)
	if _, err := os.Stat(filepath.Join(filepath.Dir(dir), "go.mod")); err != nil {
		t.Errorf("progDir(unregistered) = %s; want a directory beside the module's go.mod: %v", dir, err)
	}
}
