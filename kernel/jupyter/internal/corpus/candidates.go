package corpus

import (
	"go/ast"
	"go/scanner"
	"go/token"
	"strconv"
	"strings"

	"github.com/dlbd/dlbd/kernel/cell"
)

// candidate is a position where the notebook writes a name that Tab
// could have completed.
type candidate struct {
	kind     string
	notebook string
	cell     *codeCell
	at       int    // byte offset in the cell where the name starts
	name     string // what follows: the expected match
	// typed are how many bytes of name a student may have typed; the
	// generator takes one, in turn.
	typed []int
	key   string // candidates with the same key are one position
	// quote: the name is inside a string, whose closing quote the front
	// end has inserted.
	quote bool
}

// finder collects the candidates of one notebook.
type finder struct {
	notebook string
	scope    *scope
	out      []candidate
}

// add records a candidate; typed are capped at len(name)-1 (a student
// presses Tab before the name is complete) and deduplicated.
func (f *finder) add(c candidate) {
	var typed []int
	for _, n := range c.typed {
		n = min(n, len(c.name)-1)
		if n >= 0 && (len(typed) == 0 || typed[len(typed)-1] != n) {
			typed = append(typed, n)
		}
	}
	c.typed, c.notebook = typed, f.notebook
	f.out = append(f.out, c)
}

// collect records the candidates of cc.
func (f *finder) collect(cc *codeCell) {
	f.magics(cc)
	for _, file := range cc.files() {
		f.imports(cc, file)
		f.keywords(cc, file)
		declaring := declaringIdents(file)
		ast.Inspect(file, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.SelectorExpr:
				f.selector(cc, n)
			case *ast.CompositeLit:
				f.literal(cc, n)
			case *ast.Ident:
				if !declaring[n] && len(n.Name) >= 3 && f.visible(cc, n) {
					f.add(candidate{kind: KindName, cell: cc, at: cc.offset(n.Pos()), name: n.Name, typed: []int{2, 3},
						key: f.notebook + "|" + n.Name})
				}
			}
			return true
		})
	}
}

// selector records x.Sel: a package member or a value's field or method.
func (f *finder) selector(cc *codeCell, n *ast.SelectorExpr) {
	if id, ok := n.X.(*ast.Ident); ok {
		if !f.visible(cc, id) {
			return
		}
		if f.isPackage(cc, id) {
			f.add(candidate{kind: KindPackageMember, cell: cc, at: cc.offset(n.Sel.Pos()), name: n.Sel.Name,
				typed: []int{0, 1, 2}, key: id.Name + "." + n.Sel.Name})
			return
		}
	}
	recv := cc.text(n.X)
	f.add(candidate{kind: KindValueMember, cell: cc, at: cc.offset(n.Sel.Pos()), name: n.Sel.Name,
		typed: []int{0, 1, 2}, key: f.notebook + "|" + recv + "." + n.Sel.Name})
}

// literal records the keys of a struct literal.
func (f *finder) literal(cc *codeCell, n *ast.CompositeLit) {
	typ := "{}" // elided: an element of a slice or map literal
	switch t := n.Type.(type) {
	case *ast.MapType, *ast.ArrayType:
		return
	case *ast.Ident:
		if !f.visible(cc, t) {
			return
		}
		typ = t.Name
	case nil:
	default:
		typ = cc.text(t)
	}
	for _, e := range n.Elts {
		if kv, ok := e.(*ast.KeyValueExpr); ok {
			if k, ok := kv.Key.(*ast.Ident); ok {
				f.add(candidate{kind: KindStructField, cell: cc, at: cc.offset(k.Pos()), name: k.Name,
					typed: []int{0, 1, 2}, key: typ + "{" + k.Name})
			}
		}
	}
}

// imports records the paths of file's imports: typed up to the last "/"
// and a letter or two of the last element.
func (f *finder) imports(cc *codeCell, file *ast.File) {
	for _, im := range file.Imports {
		p, _ := strconv.Unquote(im.Path.Value)
		slash := strings.LastIndexByte(p, '/') + 1
		f.add(candidate{kind: KindImportPath, cell: cc, at: cc.offset(im.Path.Pos()) + 1, name: p,
			typed: []int{slash + 1, slash + 2}, key: p, quote: true})
	}
}

// keywords records the keywords of file of three letters or more.
func (f *finder) keywords(cc *codeCell, file *ast.File) {
	tf := cc.fset.File(file.Pos())
	src, head := declsHead+cc.cell.Decls, 1 // lines before the cell's
	if tf.Name() == "body.go" {
		src, head = bodyHead+cc.cell.Body+"\n}", 2
	}
	var s scanner.Scanner
	sf := token.NewFileSet().AddFile(tf.Name(), -1, len(src))
	s.Init(sf, []byte(src), nil, 0)
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			return
		}
		if p := sf.Position(pos); tok.IsKeyword() && len(lit) >= 3 && p.Line > head {
			f.add(candidate{kind: KindKeyword, cell: cc, at: cc.offsetOf(p), name: lit, typed: []int{2}, key: lit})
		}
	}
}

// magics records the magic lines of cc: the magic's name after "%" and
// a letter, and its argument after a letter.
func (f *finder) magics(cc *codeCell) {
	for _, m := range cc.cell.Commands {
		if m.Kind != cell.Magic {
			continue
		}
		at := cc.lines[m.Line-1] + 1 // after "%"
		f.add(candidate{kind: KindMagic, cell: cc, at: at - 1, name: "%" + m.Name(), typed: []int{2}, key: "%" + m.Name()})
		for _, a := range m.Args() {
			i := strings.Index(cc.src[at:], " "+a) + 1
			f.add(candidate{kind: KindMagic, cell: cc, at: at + i, name: a, typed: []int{1}, key: "%" + m.Name() + " " + a})
		}
	}
}

// isPackage reports whether id names a package: it is no name of the
// cell, of an earlier cell or of the language, and the notebook's code
// compiles, so it is an import (of this cell, or one the kernel adds by
// the package's name).
func (f *finder) isPackage(cc *codeCell, id *ast.Ident) bool {
	if id.Obj != nil || cc.decls != nil && cc.decls.Scope.Lookup(id.Name) != nil || builtins[id.Name] {
		return false
	}
	_, decl := f.scope.decls[id.Name]
	_, made := f.scope.bodyVars[id.Name]
	return !decl && !made
}

// visible reports whether id's declaration, when it is in the same file,
// comes before id: a student typing the cell from the top has written it.
func (f *finder) visible(cc *codeCell, id *ast.Ident) bool {
	if id.Obj == nil {
		return true
	}
	d, ok := id.Obj.Decl.(ast.Node)
	return !ok || d.Pos() <= id.Pos()
}

// declaringIdents returns the identifiers of file that declare a name,
// name a field, a label or an import, or follow a dot: the others are
// uses of a name.
func declaringIdents(file *ast.File) map[*ast.Ident]bool {
	decl := map[*ast.Ident]bool{file.Name: true}
	mark := func(ids ...*ast.Ident) {
		for _, id := range ids {
			decl[id] = true
		}
	}
	ast.Inspect(file, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncDecl:
			mark(n.Name)
		case *ast.Field:
			mark(n.Names...)
		case *ast.ValueSpec:
			mark(n.Names...)
		case *ast.TypeSpec:
			mark(n.Name)
		case *ast.ImportSpec:
			if n.Name != nil {
				mark(n.Name)
			}
		case *ast.AssignStmt:
			if n.Tok == token.DEFINE {
				for _, e := range n.Lhs {
					if id, ok := e.(*ast.Ident); ok {
						mark(id)
					}
				}
			}
		case *ast.RangeStmt:
			if n.Tok == token.DEFINE {
				for _, e := range []ast.Expr{n.Key, n.Value} {
					if id, ok := e.(*ast.Ident); ok {
						mark(id)
					}
				}
			}
		case *ast.SelectorExpr:
			mark(n.Sel)
		case *ast.KeyValueExpr:
			if id, ok := n.Key.(*ast.Ident); ok {
				mark(id)
			}
		case *ast.LabeledStmt:
			mark(n.Label)
		case *ast.BranchStmt:
			if n.Label != nil {
				mark(n.Label)
			}
		}
		return true
	})
	return decl
}
