package compose

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"runtime"
	"strings"

	"github.com/dlbd/dlbd/kernel/internal/cellpos"
)

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
	u.pkg = types.NewPackage(cellpos.Package(u.in.Name), u.in.Name)
	declared := declaredNames(u.ast)
	for name := range declared {
		if strings.HasPrefix(name, reservedPrefix) && name != cellpos.RunFunc { // RunFunc: the body, which the kernel declares
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
	notUsed := map[token.Pos]bool{}
	for _, e := range terrs {
		if strings.HasSuffix(e.Msg, " is not used") {
			notUsed[e.Pos] = true
		}
	}
	u.last = u.findLastExpr(notUsed)
	u.unused = map[int]bool{}
	for _, e := range terrs {
		if e.Soft && lifted[e.Pos] && strings.Contains(e.Msg, "declared and not used") {
			continue // it lives on: later cells may use it
		}
		if u.last != nil && e.Pos == u.last.x.Pos() && strings.HasSuffix(e.Msg, " is not used") {
			continue // the cell's result: shown, or discarded after ";"
		}
		if e.Soft && strings.Contains(e.Msg, "imported") && strings.HasSuffix(e.Msg, "not used") {
			if i := u.importAt(e.Pos); i >= 0 {
				u.unused[i] = true // dropped, as goimports would
				continue
			}
		}
		u.problem(u.h.fset.Position(e.Pos), e.Msg+u.habitHint(e))
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
