package compose

import (
	"go/ast"
	"strings"

	"github.com/dlbd/dlbd/kernel/stateful/internal/pkgindex"
)

// missingImports returns the imports a cell needs but does not write, as
// goimports finds them (pkgindex.Chooser.Missing), this module's packages
// before third-party ones of the same name. Names that earlier cells
// declared are not packages.
func (u *unit) missingImports(f *ast.File, have []importSpec) []importSpec {
	named := map[string]bool{}
	for _, s := range have {
		name := s.name
		if name == "" {
			name = s.path[strings.LastIndex(s.path, "/")+1:]
		}
		named[name] = true
	}
	known := func(name string) bool {
		_, earlier := u.h.syms[name]
		return named[name] || earlier
	}
	var out []importSpec
	// The same preference as completion's for a name that several packages
	// carry: this module's and the standard library's first.
	for _, path := range (pkgindex.Chooser{Source: u.h.imp, Prefer: pkgindex.OursFirst}).Missing(f, known) {
		out = append(out, importSpec{path: path})
	}
	return out
}
