package complete

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/dlbd/dlbd/kernel/internal/cellpos"
)

// inspect describes the name at byte offset off in code.
func (e *Engine) inspect(code string, off, detail int, syms []Symbol) Inspection {
	if in, ok := magicAt(code, off); ok {
		return in
	}
	sec, ok := locate(code, off)
	if !ok {
		return Inspection{}
	}
	start, end := identAround(sec.text, sec.off)
	sc := scan(sec.text[:end])
	if sc.inComment || sc.str >= 0 {
		return Inspection{}
	}
	c := e.check(sec, end, "", sc, syms)
	if c == nil {
		return Inspection{}
	}
	var obj types.Object
	if start < end {
		pos := c.at - token.Pos(end-start)
		if id := enclosing(c, func(id *ast.Ident) bool { return id.Pos() == pos }); id != nil {
			obj = c.objectOf(id)
			if obj == nil {
				obj = e.packageNamed(id.Name, c)
			}
		}
	} else if call := enclosing(c, func(call *ast.CallExpr) bool { return call.Lparen < c.at && c.at <= call.Rparen }); call != nil {
		switch fun := ast.Unparen(call.Fun).(type) {
		case *ast.Ident:
			obj = c.objectOf(fun)
		case *ast.SelectorExpr:
			obj = c.objectOf(fun.Sel)
		}
	}
	if obj == nil {
		return Inspection{}
	}
	return e.describe(obj, c, detail)
}

// objectOf returns the object id names: the checker's, or, where the
// cell's errors kept the checker from it, a package the kernel would
// import by that name.
func (c *checked) objectOf(id *ast.Ident) types.Object {
	if obj := c.info.Uses[id]; obj != nil {
		return obj
	}
	if obj := c.info.Defs[id]; obj != nil {
		return obj
	}
	if _, obj := c.scopeAt().LookupParent(id.Name, c.at); obj != nil {
		return obj
	}
	return nil
}

// packageNamed returns the package completion chooses for name (see
// Engine.chooser), as a package name in c, or nil.
func (e *Engine) packageNamed(name string, c *checked) types.Object {
	if e.index == nil {
		return nil
	}
	path := c.choose.Best(name, nil)
	if path == "" {
		return nil
	}
	p, err := (importer{e.index}).Import(path)
	if err != nil {
		return nil
	}
	return types.NewPkgName(token.NoPos, c.pkg, name, p)
}

// describe writes obj's declaration, its doc comment and, for a name of
// an earlier cell, that cell; a variable's documentation is its type's.
func (e *Engine) describe(obj types.Object, c *checked, detail int) Inspection {
	decl := declaration(obj, detail)
	var plain, md []string
	plain = append(plain, decl)
	md = append(md, "```go\n"+decl+"\n```")
	if sym, ok := c.session[obj]; ok {
		where := cellpos.Pos{Cell: sym.Cell}.String()
		plain = append(plain, fmt.Sprintf("%s, from %s.", sym.Name, where))
		md = append(md, fmt.Sprintf("`%s`, from %s.", sym.Name, where))
	}
	d, key := e.docFor(obj)
	text, src := "", ""
	if d != nil {
		if isPkgName(obj) {
			text = d.pkg
		} else if entry, ok := d.decls[key]; ok {
			text = entry.doc
			if detail > 0 {
				src = entry.source()
			}
			if obj.Pkg() == nil { // a builtin: its declaration is package builtin's
				plain[0], md[0], src = entry.source(), "```go\n"+entry.source()+"\n```", ""
			}
		}
	}
	if text != "" {
		p, m := d.render(text)
		plain, md = append(plain, p), append(md, m)
	}
	if v, ok := obj.(*types.Var); ok && text == "" {
		if tn := namedOf(v.Type()); tn != nil {
			if d, key := e.docFor(tn); d != nil && d.decls[key].doc != "" {
				p, m := d.render(d.decls[key].doc)
				plain = append(plain, "Type "+qualifiedName(tn)+": "+p)
				md = append(md, "Type `"+qualifiedName(tn)+"`: "+m)
			}
		}
	}
	if src != "" {
		plain = append(plain, "Source:\n"+src)
		md = append(md, "Source:\n\n```go\n"+src+"\n```")
	}
	return Inspection{Found: true, Text: strings.Join(plain, "\n\n"), Markdown: strings.Join(md, "\n\n")}
}

// namedOf returns the type name of t, *t or []t when t is a named type of
// a package (not of a cell, not a builtin).
func namedOf(t types.Type) *types.TypeName {
	for {
		switch x := types.Unalias(t).(type) {
		case *types.Pointer:
			t = x.Elem()
		case *types.Slice:
			t = x.Elem()
		case *types.Named:
			if qualify(x.Obj().Pkg()) == "" {
				return nil // a builtin's or a cell's
			}
			return x.Origin().Obj()
		default:
			return nil
		}
	}
}
