package compose

import (
	"go/ast"
	"go/types"
	"sort"
	"strings"
)

// missingImports returns the imports a cell needs but does not write, as
// goimports finds them: for every unresolved identifier x used as x.Sel,
// the importable package named x that has all the selected names
// (preferring the standard library, then the shortest path). Names that
// earlier cells declared are not packages.
func (u *unit) missingImports(f *ast.File, have []importSpec) []importSpec {
	unresolved := map[string]bool{}
	for _, id := range f.Unresolved {
		unresolved[id.Name] = true
	}
	named := map[string]bool{}
	for _, s := range have {
		name := s.name
		if name == "" {
			name = s.path[strings.LastIndex(s.path, "/")+1:]
		}
		named[name] = true
	}
	sels := map[string]map[string]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		se, ok := n.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		x, ok := se.X.(*ast.Ident)
		if !ok || x.Obj != nil || !unresolved[x.Name] || named[x.Name] || types.Universe.Lookup(x.Name) != nil {
			return true
		}
		if _, earlier := u.h.syms[x.Name]; earlier {
			return true
		}
		if sels[x.Name] == nil {
			sels[x.Name] = map[string]bool{}
		}
		sels[x.Name][se.Sel.Name] = true
		return true
	})
	names := make([]string, 0, len(sels))
	for name := range sels {
		names = append(names, name)
	}
	sort.Strings(names)
	var out []importSpec
	for _, name := range names {
		if path := u.bestCandidate(name, sels[name]); path != "" {
			out = append(out, importSpec{path: path})
		}
	}
	return out
}

// bestCandidate returns the import path of the package named name that
// exports every name in want, or "" when none does.
func (u *unit) bestCandidate(name string, want map[string]bool) string {
	var best string
	for _, path := range u.h.imp.Candidates(name) {
		p, err := u.h.imp.Import(path)
		if err != nil {
			continue
		}
		all := true
		for sel := range want {
			if obj := p.Scope().Lookup(sel); obj == nil || !obj.Exported() {
				all = false
				break
			}
		}
		if all && (best == "" || better(path, best)) {
			best = path
		}
	}
	return best
}

// better reports whether import path a is a better guess than b: the
// standard library first (a path without a dot in its first element),
// then fewer path elements, then math/rand before crypto/rand.
func better(a, b string) bool {
	stdA, stdB := !strings.Contains(strings.Split(a, "/")[0], "."), !strings.Contains(strings.Split(b, "/")[0], ".")
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
