package compose

import (
	"go/token"
	"go/types"
	"sort"
	"sync/atomic"

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
	// completed reports whether the cell ran to its end ([History.Completed]).
	completed bool
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

// Object returns the symbol's go/types object, declared in its cell's
// package; completion type-checks against it.
func (s *Symbol) Object() types.Object { return s.obj }

// TypeString returns the symbol's type as Go writes it, packages by name
// ("*nn.MLP", "func(x float64) float64").
func (s *Symbol) TypeString() string {
	return types.TypeString(s.obj.Type(), func(p *types.Package) string { return p.Name() })
}

// History is what the cells of one session have declared so far. The zero
// value is not usable; make one with [NewHistory]. It is not safe for
// concurrent use, except [History.Symbols], which completion calls while
// a cell composes and commits.
type History struct {
	fset *token.FileSet
	imp  Importer
	syms map[string]*Symbol
	// symbols is Symbols' answer, sorted, replaced (never changed) by
	// Commit.
	symbols atomic.Pointer[[]*Symbol]
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
	h := &History{fset: fset, imp: imp, syms: map[string]*Symbol{},
		owner: map[types.Object]*CellPkg{}, pkgs: map[*types.Package]*CellPkg{}}
	h.symbols.Store(&[]*Symbol{})
	return h
}

// Symbols returns the names that live on, sorted; the caller must not
// change the slice. It is safe to call while another goroutine commits a
// cell: it returns the names before or after that cell.
func (h *History) Symbols() []*Symbol { return *h.symbols.Load() }

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
	syms := make([]*Symbol, 0, len(h.syms))
	for _, s := range h.syms {
		syms = append(syms, s)
	}
	sort.Slice(syms, func(i, j int) bool { return syms[i].Name < syms[j].Name })
	h.symbols.Store(&syms)
}

// Completed records that o's cell, committed, ran to its end: no panic,
// no interrupt. Only such cells are worth running again after the
// session's values are lost; a cell that panicked would panic again.
func (h *History) Completed(o *Output) { o.Pkg.completed = true }

// Cells returns the numbers of the cells that ran to their end and whose
// names live on, sorted: the cells to run again after the session's
// values are lost.
func (h *History) Cells() []int {
	seen := map[int]bool{}
	var out []int
	for _, s := range h.syms {
		if s.Cell.completed && !seen[s.Cell.Num] {
			seen[s.Cell.Num] = true
			out = append(out, s.Cell.Num)
		}
	}
	sort.Ints(out)
	return out
}

// Unfinished returns the names that live on from cells that did not run
// to their end (a panic or an interrupt in the body), sorted: running
// [History.Cells] again does not bring them back.
func (h *History) Unfinished() []*Symbol {
	var out []*Symbol
	for _, s := range h.Symbols() {
		if !s.Cell.completed {
			out = append(out, s)
		}
	}
	return out
}
