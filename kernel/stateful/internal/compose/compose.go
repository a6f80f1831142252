package compose

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"go/types"
	"runtime"
	"sort"
	"strings"
)

// ModulePath is the module of the session's cell packages.
const ModulePath = "dlbd.cells"

// Input is one cell to compose.
type Input struct {
	// Num is the cell's number in messages ("Cell [N]"): its execution count.
	Num int
	// Name is the package name, unique in the session, like "cell3"; the
	// import path is ModulePath/Name.
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
}

// Compose type-checks a cell against the history and returns the source of
// its package. It fails with an *Error when the cell does not compile.
func (h *History) Compose(in Input) (*Output, error) {
	u := &unit{h: h, in: in, file: fileName(in.Num)}
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

// parse builds the layout with the cell's imports and the ones it needs
// but does not write, and parses it.
func (u *unit) parse() error {
	first := build(u.in.Name, u.file, u.in.Decls, u.in.Body, u.in.BodyLine, u.in.HasBody, false, nil)
	f, err := parser.ParseFile(u.h.fset, u.file+".go", first.src, parser.ParseComments|parser.AllErrors)
	if err := u.syntaxErrors(err); err != nil {
		return err
	}
	callMain := false
	var imports []importSpec
	decls := []byte(u.in.Decls)
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.GenDecl:
			if d.Tok != token.IMPORT {
				continue
			}
			for _, s := range d.Specs {
				s := s.(*ast.ImportSpec)
				pos := u.h.fset.Position(s.Pos())
				spec := importSpec{path: strings.Trim(s.Path.Value, "`\""), line: pos.Line, col: pos.Column}
				if s.Name != nil {
					spec.name = s.Name.Name
				}
				imports = append(imports, spec)
			}
			// The imports move to the file's header; blanking them here
			// keeps the lines of what follows.
			start, end := first.offset(u.h.fset, d.Pos())-first.declStart, first.offset(u.h.fset, d.End())-first.declStart
			copy(decls[start:end], blanked(decls[start:end]))
		case *ast.FuncDecl:
			if d.Recv == nil && d.Name.Name == "main" && !u.in.HasBody {
				callMain = true
			}
		}
	}
	imports = append(imports, u.missingImports(f, imports)...)
	u.lay = build(u.in.Name, u.file, string(decls), u.in.Body, u.in.BodyLine, u.in.HasBody, callMain, imports)
	u.ast, err = parser.ParseFile(u.h.fset, u.file+".go", u.lay.src, parser.ParseComments|parser.AllErrors|parser.SkipObjectResolution)
	if err := u.syntaxErrors(err); err != nil {
		return err
	}
	for _, d := range u.ast.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.Name == RunFunc && u.h.fset.Position(fd.Pos()).Filename == generatedFile {
			u.body = fd
		}
	}
	return nil
}

// offset returns the byte offset of pos in l.src.
func (l *layout) offset(fset *token.FileSet, pos token.Pos) int { return fset.File(pos).Offset(pos) }

// syntaxErrors turns the parser's errors into problems, except the one
// about imports after declarations: a cell may import anywhere, the
// imports move to the top.
func (u *unit) syntaxErrors(err error) error {
	var list scanner.ErrorList
	if !errors.As(err, &list) {
		return nil
	}
	for _, e := range list {
		if strings.Contains(e.Msg, "imports must appear before other declarations") {
			continue
		}
		msg := e.Msg
		if strings.HasPrefix(msg, "expected declaration") && e.Pos.Filename == u.file {
			msg += " (statements go in the body, after a line %%)"
		}
		u.problem(e.Pos, msg)
	}
	if len(u.errs) == 0 {
		return nil
	}
	return u.fail()
}

// declaredNames returns the names the cell declares at package level.
func declaredNames(f *ast.File) map[string]bool {
	names := map[string]bool{}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil {
				names[d.Name.Name] = true
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.ValueSpec:
					for _, n := range s.Names {
						names[n.Name] = true
					}
				case *ast.TypeSpec:
					names[s.Name.Name] = true
				}
			}
		}
	}
	return names
}

// check type-checks the layout in a package whose scope holds the names of
// earlier cells that this cell does not declare or import anew.
func (u *unit) check() error {
	u.pkg = types.NewPackage(ModulePath+"/"+u.in.Name, u.in.Name)
	declared := declaredNames(u.ast)
	for name := range declared {
		if strings.HasPrefix(name, reservedPrefix) && name != RunFunc { // RunFunc: the body, which the kernel declares
			u.problem(token.Position{}, fmt.Sprintf("%s: names starting with %s are reserved by the kernel; choose another name", name, reservedPrefix))
		}
	}
	// A method on an earlier cell's type is Go's "cannot define new methods
	// on non-local type"; go/types cannot even get that far with an
	// injected type (it looks for the type's declaration in this package).
	for _, d := range u.ast.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Recv == nil || len(fd.Recv.List) == 0 {
			continue
		}
		base := receiverBase(fd.Recv.List[0].Type)
		if base == nil || declared[base.Name] {
			continue
		}
		if _, earlier := u.h.syms[base.Name]; earlier {
			u.problem(u.h.fset.Position(base.Pos()), fmt.Sprintf("cannot define new methods on non-local type %s", base.Name))
		}
	}
	if len(u.errs) > 0 {
		return u.fail()
	}
	imported := map[string]bool{}
	for _, s := range u.lay.headerImports {
		name := s.name
		if name == "" {
			if p, err := u.h.imp.Import(s.path); err == nil {
				name = p.Name()
			}
		}
		imported[name] = true
	}
	u.hist = map[types.Object]*Symbol{}
	for name, s := range u.h.syms {
		if declared[name] || imported[name] {
			continue // this cell declares or imports the name anew
		}
		u.pkg.Scope().Insert(s.obj)
		u.hist[s.obj] = s
	}
	u.info = &types.Info{
		Types:  map[ast.Expr]types.TypeAndValue{},
		Defs:   map[*ast.Ident]types.Object{},
		Uses:   map[*ast.Ident]types.Object{},
		Scopes: map[ast.Node]*types.Scope{},
	}
	var terrs []types.Error
	conf := types.Config{
		Importer: u.h.imp,
		Sizes:    types.SizesFor("gc", runtime.GOARCH),
		Error:    func(err error) { terrs = append(terrs, err.(types.Error)) },
	}
	types.NewChecker(&conf, u.h.fset, u.pkg, u.info).Files([]*ast.File{u.ast})
	if len(u.errs) > 0 {
		return u.fail()
	}
	lifted := u.bodyVarPositions()
	u.unused = map[int]bool{}
	for _, e := range terrs {
		if e.Soft && lifted[e.Pos] && strings.Contains(e.Msg, "declared and not used") {
			continue // it lives on: later cells may use it
		}
		if e.Soft && strings.Contains(e.Msg, "imported") && strings.HasSuffix(e.Msg, "not used") {
			if i := u.importAt(e.Pos); i >= 0 {
				u.unused[i] = true // dropped, as goimports would
				continue
			}
		}
		u.problem(u.h.fset.Position(e.Pos), e.Msg)
	}
	if len(u.errs) > 0 {
		return u.fail()
	}
	return nil
}

// importAt returns the index in the header of the cell's import at pos,
// or -1.
func (u *unit) importAt(pos token.Pos) int {
	p := u.h.fset.Position(pos)
	for i, s := range u.lay.headerImports {
		if s.line > 0 && p.Filename == u.file && s.line == p.Line {
			return i
		}
	}
	return -1
}

// receiverBase returns the type name of a method receiver (T in *T, T[P]).
func receiverBase(e ast.Expr) *ast.Ident {
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.ParenExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.Ident:
			return x
		default:
			return nil
		}
	}
}

// bodyScope returns the scope of the body's top level.
func (u *unit) bodyScope() *types.Scope { return u.info.Scopes[u.body.Type] }

// bodyVarPositions returns the positions of the variables the body
// declares at its top level.
func (u *unit) bodyVarPositions() map[token.Pos]bool {
	out := map[token.Pos]bool{}
	scope := u.bodyScope()
	if scope == nil {
		return out
	}
	for _, name := range scope.Names() {
		if v, ok := scope.Lookup(name).(*types.Var); ok {
			out[v.Pos()] = true
		}
	}
	return out
}
