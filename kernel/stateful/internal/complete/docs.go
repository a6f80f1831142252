package complete

import (
	"go/ast"
	"go/build"
	"go/doc/comment"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/dlbd/dlbd/kernel/stateful/internal/pkgindex"
)

// docCache keeps the doc comments of the packages inspected so far.
type docCache struct {
	mu   sync.Mutex
	pkgs map[string]*pkgDoc // by directory and export data file
}

// pkgDoc is one package's documentation, read from its source.
type pkgDoc struct {
	once  sync.Once
	path  string              // the package's import path
	pkg   string              // the package's doc comment
	decls map[string]docEntry // by "Name", "Type.Method", "Type.Field"
}

// docEntry is a declaration's doc comment and where its source is.
type docEntry struct {
	doc        string
	file       string
	start, end int // the declaration's bytes in file, its doc comment excluded
}

// load returns the documentation of package path in dir, reading it the
// first time; version changes when the package's source does.
func (c *docCache) load(path, dir, version string) *pkgDoc {
	c.mu.Lock()
	key := dir + "\x00" + version
	d := c.pkgs[key]
	if d == nil {
		d = &pkgDoc{path: path}
		c.pkgs[key] = d
	}
	c.mu.Unlock()
	d.once.Do(func() { d.read(dir) })
	return d
}

// read parses the package's files for this platform, comments included.
func (d *pkgDoc) read(dir string) {
	d.decls = map[string]docEntry{}
	bp, _ := build.ImportDir(dir, 0)
	if bp == nil {
		return
	}
	files := append(append([]string(nil), bp.GoFiles...), bp.CgoFiles...)
	if len(files) == 0 {
		files = bp.IgnoredGoFiles // package builtin: documentation only
	}
	fset := token.NewFileSet()
	for _, name := range files {
		path := filepath.Join(dir, name)
		f, _ := parser.ParseFile(fset, path, nil, parser.ParseComments|parser.SkipObjectResolution)
		if f == nil {
			continue
		}
		if f.Doc != nil && (d.pkg == "" || name == "doc.go") {
			d.pkg = f.Doc.Text()
		}
		tf := fset.File(f.Pos())
		entry := func(doc *ast.CommentGroup, n ast.Node) docEntry {
			return docEntry{doc: doc.Text(), file: path, start: tf.Offset(n.Pos()), end: tf.Offset(n.End())}
		}
		for _, decl := range f.Decls {
			switch decl := decl.(type) {
			case *ast.FuncDecl:
				d.decls[recvName(decl)+decl.Name.Name] = entry(decl.Doc, decl)
			case *ast.GenDecl:
				d.addGen(decl, entry)
			}
		}
	}
}

// addGen records the specs of a type, var or const declaration, and the
// fields and methods of its types.
func (d *pkgDoc) addGen(g *ast.GenDecl, entry func(*ast.CommentGroup, ast.Node) docEntry) {
	for _, spec := range g.Specs {
		var node ast.Node = spec
		if len(g.Specs) == 1 {
			node = g // "type T ...", "var x ..." with its keyword
		}
		switch s := spec.(type) {
		case *ast.TypeSpec:
			d.decls[s.Name.Name] = entry(firstDoc(s.Doc, s.Comment, g.Doc), node)
			var fields *ast.FieldList
			switch t := s.Type.(type) {
			case *ast.StructType:
				fields = t.Fields
			case *ast.InterfaceType:
				fields = t.Methods
			}
			for _, f := range fieldList(fields) {
				for _, name := range fieldNames(f) {
					d.decls[s.Name.Name+"."+name] = entry(firstDoc(f.Doc, f.Comment), f)
				}
			}
		case *ast.ValueSpec:
			for _, n := range s.Names {
				d.decls[n.Name] = entry(firstDoc(s.Doc, s.Comment, g.Doc), node)
			}
		}
	}
}

func fieldList(l *ast.FieldList) []*ast.Field {
	if l == nil {
		return nil
	}
	return l.List
}

// fieldNames returns a field's names, or an embedded field's type name.
func fieldNames(f *ast.Field) []string {
	var out []string
	for _, n := range f.Names {
		out = append(out, n.Name)
	}
	if len(out) == 0 {
		t := f.Type
		for {
			switch x := t.(type) {
			case *ast.StarExpr:
				t = x.X
				continue
			case *ast.SelectorExpr:
				return []string{x.Sel.Name}
			case *ast.Ident:
				return []string{x.Name}
			}
			return nil
		}
	}
	return out
}

// recvName returns "T." for a method of T (or *T, T[P]), "" for a func.
func recvName(f *ast.FuncDecl) string {
	if f.Recv == nil || len(f.Recv.List) == 0 {
		return ""
	}
	name := strings.TrimLeft(types.ExprString(f.Recv.List[0].Type), "(*")
	name, _, _ = strings.Cut(name, "[")
	return strings.TrimRight(name, ")") + "."
}

func firstDoc(groups ...*ast.CommentGroup) *ast.CommentGroup {
	for _, g := range groups {
		if g != nil {
			return g
		}
	}
	return nil
}

// source returns the declaration's source, or "".
func (d docEntry) source() string {
	b, err := os.ReadFile(d.file)
	if err != nil || d.end > len(b) || d.start >= d.end {
		return ""
	}
	return string(b[d.start:d.end])
}

// docFor returns the documentation of obj's package and obj's key in it
// ("Name", "Type.Method", "Type.Field"); d is nil when obj has none (a
// local, a cell's name, a package the index does not know).
func (e *Engine) docFor(obj types.Object) (d *pkgDoc, key string) {
	if obj.Pkg() == nil { // a builtin
		return e.docs.load("builtin", filepath.Join(build.Default.GOROOT, "src", "builtin"), ""), obj.Name()
	}
	if e.index == nil {
		return nil, ""
	}
	pkg := obj.Pkg()
	if pn, ok := obj.(*types.PkgName); ok {
		pkg = pn.Imported()
	}
	p, ok := e.index.Lookup(pkg.Path())
	if !ok || p.Dir == "" {
		return nil, ""
	}
	d = e.docs.load(p.Path, p.Dir, p.Export)
	switch o := obj.(type) {
	case *types.Func:
		if r := o.Origin().Signature().Recv(); r != nil {
			return d, typeName(r.Type()) + "." + o.Name()
		}
	case *types.Var:
		if o.IsField() {
			return d, fieldOwner(o) + "." + o.Name()
		}
	}
	if obj.Parent() != pkg.Scope() && !isPkgName(obj) {
		return nil, "" // a local
	}
	return d, obj.Name()
}

// typeName returns the name of the named type t or *t, or "".
func typeName(t types.Type) string {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := types.Unalias(t).(*types.Named); ok {
		return n.Origin().Obj().Name()
	}
	return ""
}

// fieldOwner returns the name of the package-level struct type that
// declares field f, or "".
func fieldOwner(f *types.Var) string {
	if f.Pkg() == nil {
		return ""
	}
	scope := f.Pkg().Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok {
			continue
		}
		if st, ok := tn.Type().Underlying().(*types.Struct); ok {
			for i := range st.NumFields() {
				if st.Field(i) == f || st.Field(i) == f.Origin() {
					return name
				}
			}
		}
	}
	return ""
}

// render turns a doc comment into plain text and Markdown
// (go/doc/comment); doc links ([Name], [pkg.Name]) into the standard
// library point at pkg.go.dev, others become plain names (this module's
// packages are not published there).
func (d *pkgDoc) render(text string) (plain, md string) {
	p := comment.Parser{LookupSym: func(recv, name string) bool {
		if recv != "" {
			name = recv + "." + name
		}
		_, ok := d.decls[name]
		return ok
	}}
	doc := p.Parse(text)
	pr := comment.Printer{DocLinkURL: func(l *comment.DocLink) string {
		path := l.ImportPath
		if path == "" {
			path = d.path
		}
		if !pkgindex.IsStd(path) {
			return ""
		}
		link := *l
		link.ImportPath = path
		return link.DefaultURL("https://pkg.go.dev")
	}}
	return strings.TrimSpace(string(pr.Text(doc))), strings.TrimSpace(string(pr.Markdown(doc)))
}
