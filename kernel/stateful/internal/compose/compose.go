package compose

import (
	"go/ast"
	"go/token"
	"go/types"
	"sort"

	"github.com/dlbd/dlbd/kernel/internal/cellpos"
)

// Input is one cell to compose.
type Input struct {
	// Num is the cell's number in messages ("Cell [N]"): its execution count.
	Num int
	// Name is the package name, unique in the session, like "cell3"; the
	// import path is cellpos.Package(Name).
	Name string
	// Decls and Body are the cell's Go parts (package kernel/cell), with
	// the cell's line numbers: Decls from line 1, Body from BodyLine.
	Decls, Body string
	// HasBody reports whether the cell has a "%%" line.
	HasBody bool
	// BodyLine is the cell line where Body starts.
	BodyLine int
}

// Output is a composed cell.
type Output struct {
	// Pkg is the cell's package.
	Pkg *CellPkg
	// Source is the package's only file.
	Source []byte
	// Defines are the names the cell declares, for [History.Commit].
	Defines []*Symbol
	// Notes tell the student about variables of the body that do not live
	// on (their type cannot be written outside the cell).
	Notes []string
}

// unit is the state of one Compose call.
type unit struct {
	h       *History
	in      Input
	file    string // the cell's file name in positions
	lay     *layout
	ast     *ast.File
	pkg     *types.Package
	info    *types.Info
	hist    map[types.Object]*Symbol // injected objects of earlier cells
	body    *ast.FuncDecl
	imports *fileImports
	ed      *editor
	errs    []Problem
	unused  map[int]bool // header imports the cell does not use
	last    *lastExpr    // the body's last expression, shown or discarded
}

// Compose type-checks a cell against the history and returns the source of
// its package. It fails with an *Error when the cell does not compile.
func (h *History) Compose(in Input) (*Output, error) {
	u := &unit{h: h, in: in, file: cellpos.File(in.Num)}
	if err := u.parse(); err != nil {
		return nil, err
	}
	if err := u.check(); err != nil {
		return nil, err
	}
	return u.generate()
}

// fail returns the problems collected so far as an *Error.
func (u *unit) fail() error {
	sort.SliceStable(u.errs, func(i, j int) bool {
		a, b := u.errs[i], u.errs[j]
		return a.Line < b.Line || a.Line == b.Line && a.Col < b.Col
	})
	return &Error{Cell: u.in.Num, Problems: u.errs}
}

// problem records msg at pos (a cell position, or none).
func (u *unit) problem(pos token.Position, msg string) {
	p := Problem{Msg: msg}
	if pos.Filename == u.file {
		p.Line, p.Col = pos.Line, pos.Column
	}
	if hint := u.h.hint(msg); hint != "" {
		p.Msg += " (" + hint + ")"
	}
	u.errs = append(u.errs, p)
}
