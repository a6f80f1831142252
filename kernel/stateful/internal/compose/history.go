package compose

import (
	"go/token"
	"go/types"
	"sort"

	"github.com/dlbd/dlbd/kernel/internal/cellpos"
)

// Importer gives the type information of the packages cells import.
// Index lists, by package name, the import paths a cell may use without
// naming them in an import (the standard library and the module's
// packages), as goimports would add them.
type Importer interface {
	types.Importer
	// Candidates returns the import paths of the importable packages
	// named name.
	Candidates(name string) []string
}

// Kind is what a name declares.
type Kind string

// The kinds of names a cell declares.
const (
	Var   Kind = "var"
	Const Kind = "const"
	Type  Kind = "type"
	Func  Kind = "func"
)

// CellPkg is the package one cell became.
type CellPkg struct {
	// Num is the cell's number in "Cell [N]" (its execution count).
	Num int
	// Path is the package's import path, like "dlbd.cells/cell3"
	// (cellpos.Package), and Name its package name, like "cell3".
	Path, Name string
	// types is the package go/types checked the cell in.
	types *types.Package
	// refs maps each object the cell declares to the exported identifier
	// that reaches it from other packages.
	refs map[types.Object]string
}

// Where returns the cell as messages name it: "Cell [3]".
func (c *CellPkg) Where() cellpos.Pos { return cellpos.Pos{Cell: c.Num} }

// Symbol is a name that lives on in the session.
type Symbol struct {
	// Name is the name as the cell wrote it.
	Name string
	// Kind says what it declares.
	Kind Kind
	// Cell is the package of the cell that declared it last.
	Cell *CellPkg
	obj  types.Object
}

// TypeString returns the symbol's type as Go writes it, packages by name
// ("*nn.MLP", "func(x float64) float64").
func (s *Symbol) TypeString() string {
	return types.TypeString(s.obj.Type(), func(p *types.Package) string { return p.Name() })
}

// History is what the cells of one session have declared so far. The zero
// value is not usable; make one with [NewHistory]. It is not safe for
// concurrent use.
type History struct {
	fset *token.FileSet
	imp  Importer
	syms map[string]*Symbol
	// owner maps every object of every committed cell (latest or shadowed)
	// to its cell, for references that reach an earlier cell's object
	// through a later one's types.
	owner map[types.Object]*CellPkg
	// pkgs maps a cell package's go/types package to it.
	pkgs map[*types.Package]*CellPkg
}

// NewHistory returns an empty history whose cells import packages
// through imp, positions recorded in fset.
func NewHistory(fset *token.FileSet, imp Importer) *History {
	return &History{fset: fset, imp: imp, syms: map[string]*Symbol{},
		owner: map[types.Object]*CellPkg{}, pkgs: map[*types.Package]*CellPkg{}}
}

// Symbols returns the names that live on, sorted.
func (h *History) Symbols() []*Symbol {
	out := make([]*Symbol, 0, len(h.syms))
	for _, s := range h.syms {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Lookup returns the symbol a later cell would see under name.
func (h *History) Lookup(name string) (*Symbol, bool) {
	s, ok := h.syms[name]
	return s, ok
}

// Commit records what o's cell declared: its names shadow earlier ones of
// the same name for the cells that follow. Call it once the cell's package
// has loaded (its variables exist).
func (h *History) Commit(o *Output) {
	h.pkgs[o.Pkg.types] = o.Pkg
	for obj := range o.Pkg.refs {
		h.owner[obj] = o.Pkg
	}
	for _, s := range o.Defines {
		h.syms[s.Name] = s
	}
}

// Cells returns the numbers of the cells whose names live on, sorted: the
// cells to run again after the session's values are lost.
func (h *History) Cells() []int {
	seen := map[int]bool{}
	var out []int
	for _, s := range h.syms {
		if !seen[s.Cell.Num] {
			seen[s.Cell.Num] = true
			out = append(out, s.Cell.Num)
		}
	}
	sort.Ints(out)
	return out
}
