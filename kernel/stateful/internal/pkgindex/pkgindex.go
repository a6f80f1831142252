// Package pkgindex gives the stateful kernel the type information of the
// packages that cells import, from the export data the go command keeps in
// its build cache, and the index of package names that lets a cell use a
// package without importing it (as goimports does).
//
// # Overview
//
// [Load] runs `go list -export -deps` once for the standard library and
// the given patterns (this module's packages) and records each package's
// name, source directory and export data file. [Index.Import] reads a
// package's types from that file (go/importer, gc export data); a package
// outside the index is listed on first use. [Index.Candidates] returns the
// importable packages of a name, and [Best] picks the one goimports would
// add ([Chooser] tries a caller's preference first, as completion does).
// [Index.Lookup] and [Index.Importable] say what the index knows, for
// completion (import paths, a package's documentation in its Dir).
//
// # Errors
//
// Load fails when the go command fails (no Go, or a broken module);
// Import fails for a path the go command does not know, naming it.
//
// # Concepts
//
//   - Export data: what the compiler writes of a package for the packages
//     that import it (its types and declarations), kept in GOCACHE; the
//     same file a build uses, so types here are the build's types.
package pkgindex

import (
	"bytes"
	"fmt"
	"go/importer"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"sort"
	"strings"
	"sync"
)

// Index is a set of packages with their export data. It is safe for
// concurrent use.
type Index struct {
	dir      string
	env      []string
	fset     *token.FileSet
	patterns []string

	impMu sync.Mutex // serialises imp

	mu     sync.Mutex          // guards pkgs and byName
	pkgs   map[string]Package  // import path -> package
	byName map[string][]string // package name -> importable paths
	imp    types.ImporterFrom
}

// Package is what the index knows of one package.
type Package struct {
	// Path is its import path and Name its package name.
	Path, Name string
	// Dir is the directory of its source files.
	Dir string
	// Export is its export data file, in the build cache: a new file when
	// the package's source changes.
	Export string
}

// Load lists the standard library and patterns with their dependencies,
// running the go command in dir with env (nil: the current environment).
// Types are read into fset.
func Load(fset *token.FileSet, dir string, env []string, patterns ...string) (*Index, error) {
	x := &Index{dir: dir, env: env, fset: fset, patterns: append([]string{"std"}, patterns...), pkgs: map[string]Package{}, byName: map[string][]string{}}
	if err := x.list(x.patterns...); err != nil {
		return nil, err
	}
	x.imp = importer.ForCompiler(fset, "gc", x.lookup).(types.ImporterFrom)
	return x, nil
}

// list runs go list -export -deps on patterns and records what it prints.
func (x *Index) list(patterns ...string) error {
	args := append([]string{"list", "-e", "-export", "-deps", "-f", "{{.ImportPath}}\t{{.Name}}\t{{.Export}}\t{{.Dir}}\t{{if .Error}}{{.Error.Err}}{{end}}"}, patterns...)
	cmd := exec.Command("go", args...)
	cmd.Dir, cmd.Env = x.dir, x.env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("pkgindex: go list %s: %v: %s", strings.Join(patterns, " "), err, strings.TrimSpace(stderr.String()))
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	var firstErr error
	// Not TrimSpace: the last line ends in the tab before its empty error.
	for _, line := range strings.Split(strings.TrimRight(string(out), "\n"), "\n") {
		f := strings.SplitN(line, "\t", 5)
		if len(f) < 5 {
			continue
		}
		path, name, export, dir, perr := f[0], f[1], f[2], f[3], f[4]
		if perr != "" {
			if firstErr == nil {
				firstErr = fmt.Errorf("pkgindex: package %s: %s", path, perr)
			}
			continue
		}
		if export == "" || name == "main" {
			continue
		}
		if _, seen := x.pkgs[path]; !seen && importable(path) {
			x.byName[name] = append(x.byName[name], path)
		}
		x.pkgs[path] = Package{Path: path, Name: name, Dir: dir, Export: export}
	}
	if len(patterns) == 1 && firstErr != nil {
		if _, ok := x.pkgs[patterns[0]]; !ok {
			return firstErr
		}
	}
	return nil
}

// importable reports whether a cell may import path: not internal, not
// vendored, not a command's.
func importable(path string) bool {
	for _, elem := range strings.Split(path, "/") {
		if elem == "internal" || elem == "vendor" {
			return false
		}
	}
	return !strings.HasPrefix(path, "cmd/")
}

// lookup opens the export data of path, listing it first if the index
// does not have it.
func (x *Index) lookup(path string) (io.ReadCloser, error) {
	p, ok := x.Lookup(path)
	if !ok {
		if err := x.list(path); err != nil {
			return nil, err
		}
		if p, ok = x.Lookup(path); !ok {
			return nil, fmt.Errorf("pkgindex: package %s is not in the standard library or in this module's dependencies", path)
		}
	}
	return os.Open(p.Export)
}

// Import returns the types of the package at path.
func (x *Index) Import(path string) (*types.Package, error) {
	x.impMu.Lock() // go/importer's importers are not safe for concurrent use
	defer x.impMu.Unlock()
	return x.imp.ImportFrom(path, x.dir, 0)
}

// Candidates returns the importable packages named name, in no order.
func (x *Index) Candidates(name string) []string {
	x.mu.Lock()
	defer x.mu.Unlock()
	return append([]string(nil), x.byName[name]...)
}

// Lookup returns the package at path if the index knows it, without
// listing it (Import lists a package the index does not know).
func (x *Index) Lookup(path string) (Package, bool) {
	x.mu.Lock()
	defer x.mu.Unlock()
	p, ok := x.pkgs[path]
	return p, ok
}

// Importable returns the packages a cell may import that the index knows,
// sorted by import path.
func (x *Index) Importable() []Package {
	x.mu.Lock()
	out := make([]Package, 0, len(x.pkgs))
	for _, paths := range x.byName {
		for _, path := range paths {
			out = append(out, x.pkgs[path])
		}
	}
	x.mu.Unlock()
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// Len returns how many packages the index knows.
func (x *Index) Len() int {
	x.mu.Lock()
	defer x.mu.Unlock()
	return len(x.pkgs)
}

// Reset forgets every package read so far, for when the module's source
// changed: the next imports read the export data again (listing it anew).
func (x *Index) Reset() {
	x.mu.Lock()
	x.pkgs = map[string]Package{}
	x.byName = map[string][]string{}
	x.mu.Unlock()
	x.impMu.Lock()
	x.imp = importer.ForCompiler(x.fset, "gc", x.lookup).(types.ImporterFrom)
	x.impMu.Unlock()
	x.list(x.patterns...)
}
