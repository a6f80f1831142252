package complete

import (
	"go/token"
	"go/types"
	"sort"
	"strings"

	"github.com/dlbd/dlbd/kernel/internal/cellpos"
	"github.com/dlbd/dlbd/kernel/stateful/internal/pkgindex"
)

// names returns the names in scope at the cut: the cell's locals and
// declarations, the session's names, the imported packages, the builtins.
func (c *checked) names() []candidate {
	inner := c.scopeAt()
	var cs []candidate
	seen := map[string]bool{}
	for s := inner; s != nil; s = s.Parent() {
		for _, name := range s.Names() {
			obj := s.Lookup(name)
			if seen[name] || name == cellpos.RunFunc {
				continue
			}
			if _, visible := inner.LookupParent(name, c.at); visible != obj {
				continue // declared after the cursor, or shadowed
			}
			seen[name] = true
			rank := rankName
			switch {
			case s == types.Universe:
				rank = rankBuiltin
			case isPkgName(obj):
				rank = rankPackage
			}
			cs = append(cs, objCandidate(obj, rank))
		}
	}
	return cs
}

func isPkgName(obj types.Object) bool { _, ok := obj.(*types.PkgName); return ok }

// packageNames returns the packages the kernel would import by name that
// start with typed (none for nothing typed: they are hundreds), but for
// the names in scope at the cut.
func (e *Engine) packageNames(typed string, c *checked) []candidate {
	if e.index == nil || typed == "" {
		return nil
	}
	var cs []candidate
	seen := map[string]bool{}
	for _, p := range e.index.Importable() {
		if seen[p.Name] || !hasPrefixFold(p.Name, typed) {
			continue
		}
		seen[p.Name] = true
		if _, obj := c.scopeAt().LookupParent(p.Name, c.at); obj != nil {
			continue
		}
		cs = append(cs, candidate{text: p.Name, kind: KindPackage, sig: c.choose.Best(p.Name, nil), rank: rankPackage})
	}
	return cs
}

// chooser returns how completion picks the package of a name that the
// cell uses without importing it: first a package that an earlier cell
// imported (the latest cell's first), as the student most likely means
// the same one; then the standard library and this module's packages
// before others ("spark" is the course's bigdata/spark, not Spark's Go
// client), each in pkgindex.Best's order. Only the selectors the cell
// writes decide among them, not the one being typed ("spark._").
//
// Simplification: an earlier cell is known by the names it left (syms),
// so the imports of a cell that declared nothing are not.
//
// The kernel compiles with pkgindex.OursFirst alone, without the session's
// imports: where both packages export what a cell selects ("rand.Read"
// after a cell that imported crypto/rand), it imports another package than
// the one completion showed.
func (e *Engine) chooser(syms []Symbol) pkgindex.Chooser {
	if e.index == nil {
		return pkgindex.Chooser{}
	}
	latest := map[string]int{} // import path -> the latest cell that imported it
	seen := map[*types.Package]bool{}
	for _, s := range syms {
		p := s.Object.Pkg()
		if p == nil || seen[p] {
			continue
		}
		seen[p] = true
		for _, imp := range p.Imports() {
			latest[imp.Path()] = max(latest[imp.Path()], s.Cell)
		}
	}
	return pkgindex.Chooser{Source: e.index, Prefer: func(path string) int {
		if cell, ok := latest[path]; ok {
			return -1 - cell
		}
		return pkgindex.OursFirst(path)
	}}
}

// keywords returns Go's keywords.
func keywords() []candidate {
	var cs []candidate
	for t := token.Token(0); t < 128; t++ { // token's keywords lie in this range
		if t.IsKeyword() {
			cs = append(cs, candidate{text: t.String(), kind: KindKeyword, rank: rankKeyword})
		}
	}
	return cs
}

// importPaths returns the import paths that start with typed, or whose
// last element does.
func (e *Engine) importPaths(typed string) []Match {
	if e.index == nil {
		return nil
	}
	var cs []candidate
	for _, p := range e.index.Importable() {
		rank := 0
		switch last := p.Path[strings.LastIndex(p.Path, "/")+1:]; {
		case strings.HasPrefix(p.Path, typed):
		case !strings.Contains(typed, "/") && strings.HasPrefix(last, typed):
			rank = 1
		default:
			continue
		}
		if !pkgindex.IsStd(p.Path) {
			rank += 2
		}
		cs = append(cs, candidate{text: p.Path, kind: KindPackage, sig: p.Name, rank: rank})
	}
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].rank < cs[j].rank })
	return matches(cs)
}
