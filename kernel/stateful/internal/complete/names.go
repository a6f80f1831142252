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
		cs = append(cs, candidate{text: p.Name, kind: KindPackage, sig: pkgindex.Best(e.index, p.Name, nil), rank: rankPackage})
	}
	return cs
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
