package pkgindex

import (
	"go/ast"
	"go/types"
	"sort"
	"strings"

	"github.com/dlbd/dlbd/internal/checkout"
)

// Source is what [Best] needs of an index: *Index is one.
type Source interface {
	// Import returns the types of the package at path.
	Import(path string) (*types.Package, error)
	// Candidates returns the import paths of the importable packages
	// named name.
	Candidates(name string) []string
}

// Chooser picks among the importable packages of a name as [Best] and
// [Missing] do, trying first the ones its caller prefers: completion
// prefers a package that an earlier cell imported.
type Chooser struct {
	// Source is the index of the packages.
	Source Source
	// Prefer ranks an import path: lower ranks are tried first, and Best's
	// order within a rank. Nil ranks every path alike.
	Prefer func(path string) int
}

// Best returns the import path that goimports would add for a package a
// cell uses as name.Sel, for every Sel in sels, without importing it: the
// importable package named name that exports all of sels, by ch's
// preference first, then preferring the standard library, then the
// shortest path (math/rand before crypto/rand). It returns "" when no
// package fits. With no sels it imports nothing and returns the preferred
// package named name.
func (ch Chooser) Best(name string, sels map[string]bool) string {
	src := ch.Source
	paths := src.Candidates(name)
	sort.Slice(paths, func(i, j int) bool {
		if ch.Prefer != nil {
			if ri, rj := ch.Prefer(paths[i]), ch.Prefer(paths[j]); ri != rj {
				return ri < rj
			}
		}
		return better(paths[i], paths[j])
	})
	for _, path := range paths {
		if len(sels) == 0 {
			return path
		}
		p, err := src.Import(path)
		if err != nil {
			continue
		}
		all := true
		for sel := range sels {
			if obj := p.Scope().Lookup(sel); obj == nil || !obj.Exported() {
				all = false
				break
			}
		}
		if all {
			return path
		}
	}
	return ""
}

// Missing returns the import paths that file f needs but does not import,
// sorted by package name, as goimports finds them: for every identifier x
// that the parser left unresolved (f parsed without SkipObjectResolution)
// and that f uses as x.Sel, the package [Chooser.Best] chooses for x and its
// selectors. known reports the names that are no package (f's imports,
// names declared in earlier cells); predeclared names are none either. A
// blank selector (x._, completion's placeholder) selects nothing.
func (ch Chooser) Missing(f *ast.File, known func(name string) bool) []string {
	unresolved := map[string]bool{}
	for _, id := range f.Unresolved {
		unresolved[id.Name] = true
	}
	sels := map[string]map[string]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		se, ok := n.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		x, ok := se.X.(*ast.Ident)
		if !ok || x.Obj != nil || !unresolved[x.Name] || types.Universe.Lookup(x.Name) != nil || known(x.Name) {
			return true
		}
		if sels[x.Name] == nil {
			sels[x.Name] = map[string]bool{}
		}
		if se.Sel.Name != "_" {
			sels[x.Name][se.Sel.Name] = true
		}
		return true
	})
	names := make([]string, 0, len(sels))
	for name := range sels {
		names = append(names, name)
	}
	sort.Strings(names)
	var out []string
	for _, name := range names {
		if path := ch.Best(name, sels[name]); path != "" {
			out = append(out, path)
		}
	}
	return out
}

// better reports whether import path a is a better guess than b: the
// standard library first (a path without a dot in its first element),
// then fewer path elements, then math/rand before crypto/rand.
func better(a, b string) bool {
	stdA, stdB := IsStd(a), IsStd(b)
	if stdA != stdB {
		return stdA
	}
	if na, nb := strings.Count(a, "/"), strings.Count(b, "/"); na != nb {
		return na < nb
	}
	if strings.HasPrefix(a, "crypto/") != strings.HasPrefix(b, "crypto/") {
		return !strings.HasPrefix(a, "crypto/")
	}
	return a < b
}

// IsStd reports whether path is a standard-library import path: one
// without a dot in its first element.
func IsStd(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".")
}

// OursFirst is a [Chooser.Prefer] that ranks the standard library and this
// module's packages (a student's course packages) before third-party ones
// of the same name: bigdata/spark before Spark Connect's own spark.
func OursFirst(path string) int {
	if IsStd(path) || path == checkout.ModulePath || strings.HasPrefix(path, checkout.ModulePath+"/") {
		return 0
	}
	return 1
}
