package complete

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"runtime"
	"strconv"
	"strings"

	"github.com/dlbd/dlbd/kernel/internal/cellpos"
	"github.com/dlbd/dlbd/kernel/stateful/internal/pkgindex"
)

// checked is a cell cut at the cursor, parsed and type-checked.
type checked struct {
	fset *token.FileSet
	file *ast.File
	pkg  *types.Package
	info *types.Info
	at   token.Pos // the cut
	// session maps the objects the package's scope got from the
	// session to their symbols.
	session map[types.Object]Symbol
	// choose picks the package of a name that the cell does not import.
	choose pkgindex.Chooser
}

// checkPath is the import path of the package a cell is checked in: a
// cell package, whose names the qualifier writes without a package.
var checkPath = cellpos.Package("cell")

// check cuts sec at byte offset cut, writes tail there, parses it (see
// parseCut) and type-checks it, ignoring errors, in a package whose scope
// holds syms (but for the names the cell declares or imports anew),
// adding the imports the cell uses but does not write.
func (e *Engine) check(sec section, cut int, tail string, sc scanned, syms []Symbol) *checked {
	fset, f, at := parseCut(sec, cut, tail, sc)
	if f == nil {
		return nil
	}
	c := &checked{fset: fset, file: f, at: at, session: map[types.Object]Symbol{}, choose: e.chooser(syms)}
	session := map[string]bool{}
	for _, s := range syms {
		session[s.Name] = true
	}
	imported := e.importedNames(f)
	c.addMissingImports(func(name string) bool { return session[name] || imported[name] })
	c.pkg = types.NewPackage(checkPath, "cell")
	for _, s := range syms {
		if f.Scope.Lookup(s.Name) == nil && !imported[s.Name] {
			obj := packageLevel(s.Object)
			c.pkg.Scope().Insert(obj)
			c.session[obj] = s
		}
	}
	c.info = &types.Info{
		Types:      map[ast.Expr]types.TypeAndValue{},
		Defs:       map[*ast.Ident]types.Object{},
		Uses:       map[*ast.Ident]types.Object{},
		Scopes:     map[ast.Node]*types.Scope{},
		Selections: map[*ast.SelectorExpr]*types.Selection{},
	}
	conf := types.Config{
		Importer: importer{e.index},
		Sizes:    types.SizesFor("gc", runtime.GOARCH),
		Error:    func(error) {}, // a cell being written has errors: check on
	}
	types.NewChecker(&conf, fset, c.pkg, c.info).Files([]*ast.File{f})
	return c
}

// parseCut parses the Go file of sec cut at cut, with tail written there
// and the brackets closed as sc closes them, and returns the cut's
// position. Where that loses the cut (the parser drops "a, s._", which is
// no statement), it parses the file closed with sc.assigned instead.
func parseCut(sec section, cut int, tail string, sc scanned) (*token.FileSet, *ast.File, token.Pos) {
	parse := func(closers string) (*token.FileSet, *ast.File, token.Pos) {
		src, at := sec.source(cut, tail, closers)
		fset := token.NewFileSet()
		f, _ := parser.ParseFile(fset, "cell.go", src, parser.AllErrors)
		if f == nil || fset.File(f.FileStart) == nil {
			return nil, nil, token.NoPos
		}
		return fset, f, fset.File(f.FileStart).Pos(at)
	}
	fset, f, at := parse(sc.closers)
	if f != nil && sc.assigned != "" && !holds(f, at) {
		if fset2, f2, at2 := parse(sc.assigned); f2 != nil && holds(f2, at2) {
			return fset2, f2, at2
		}
	}
	return fset, f, at
}

// holds reports whether f has what completion and inspection look for at
// the cut, at: an identifier that starts or ends there, or a call whose
// parentheses hold it.
func holds(f *ast.File, at token.Pos) bool {
	found := false
	ast.Inspect(f, func(n ast.Node) bool {
		if found || n == nil || n.Pos() > at || n.End() < at {
			return false
		}
		switch n := n.(type) {
		case *ast.Ident:
			found = true
		case *ast.CallExpr:
			found = n.Lparen < at && at <= n.Rparen
		}
		return !found
	})
	return found
}

// packageLevel returns obj, or, for a name a cell's body declared (a
// local of the body's function that the kernel made live on), a copy of
// it declared at package level: go/types sees a local only after its
// position, and a local's position is in the session's files, not in the
// file checked here.
func packageLevel(obj types.Object) types.Object {
	if obj.Pkg() == nil || obj.Parent() == obj.Pkg().Scope() {
		return obj
	}
	switch o := obj.(type) {
	case *types.Var:
		return types.NewVar(token.NoPos, o.Pkg(), o.Name(), o.Type())
	case *types.Const:
		return types.NewConst(token.NoPos, o.Pkg(), o.Name(), o.Type(), o.Val())
	case *types.TypeName:
		return types.NewTypeName(token.NoPos, o.Pkg(), o.Name(), o.Type())
	}
	return obj
}

// importedNames returns the package names f's imports declare.
func (e *Engine) importedNames(f *ast.File) map[string]bool {
	names := map[string]bool{}
	for _, s := range f.Imports {
		path, _ := strconv.Unquote(s.Path.Value)
		switch {
		case s.Name != nil:
			names[s.Name.Name] = true
		case e.index != nil:
			if p, ok := e.index.Lookup(path); ok {
				names[p.Name] = true
				break
			}
			fallthrough
		default:
			names[path[strings.LastIndex(path, "/")+1:]] = true
		}
	}
	return names
}

// addMissingImports adds to c's file the imports the kernel would add to
// the cell (pkgindex.Chooser.Missing), but with c's preference (see
// Engine.chooser); known reports the names that are no package.
func (c *checked) addMissingImports(known func(name string) bool) {
	if c.choose.Source == nil {
		return
	}
	f := c.file
	for _, path := range c.choose.Missing(f, known) {
		spec := &ast.ImportSpec{Path: &ast.BasicLit{Kind: token.STRING, Value: strconv.Quote(path)}}
		f.Decls = append([]ast.Decl{&ast.GenDecl{Tok: token.IMPORT, Specs: []ast.Spec{spec}}}, f.Decls...)
		f.Imports = append(f.Imports, spec)
	}
}

// importer imports the packages of an index that the index already
// knows: listing one it does not (a path being typed) would take the go
// command's time at every key.
type importer struct{ index *pkgindex.Index }

func (im importer) Import(path string) (*types.Package, error) {
	if path == "unsafe" {
		return types.Unsafe, nil
	}
	if im.index == nil {
		return nil, fmt.Errorf("complete: no package index to import %s from", path)
	}
	if _, ok := im.index.Lookup(path); !ok {
		return nil, fmt.Errorf("complete: package %s is not in the index", path)
	}
	return im.index.Import(path)
}

// scopeAt returns the innermost scope at the cut, or the package's.
func (c *checked) scopeAt() *types.Scope {
	if s := c.pkg.Scope().Innermost(c.at); s != nil {
		return s
	}
	return c.pkg.Scope()
}

// typeOf returns the type and value of expression x as the checker saw
// it, or as it sees it alone at its position when the cell's errors kept
// the checker from it.
func (c *checked) typeOf(x ast.Expr) (types.TypeAndValue, bool) {
	if tv, ok := c.info.Types[x]; ok && tv.Type != nil && tv.Type != types.Typ[types.Invalid] {
		return tv, true
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}}
	if err := types.CheckExpr(c.fset, c.pkg, x.Pos(), x, info); err != nil {
		return types.TypeAndValue{}, false
	}
	tv, ok := info.Types[x]
	return tv, ok && tv.Type != nil
}

// enclosing returns the innermost node of type T (a pointer to an ast
// node) that contains the cut and satisfies ok.
func enclosing[T ast.Node](c *checked, ok func(T) bool) (found T) {
	ast.Inspect(c.file, func(n ast.Node) bool {
		if n == nil || n.Pos() > c.at || n.End() < c.at {
			return false
		}
		if t, is := n.(T); is && ok(t) {
			found = t
		}
		return true
	})
	return found
}
