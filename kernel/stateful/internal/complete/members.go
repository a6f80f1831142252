package complete

import (
	"go/ast"
	"go/types"
)

// selection returns the candidates after the selector at the cut: the
// members of a package, or the fields and methods of a value's type (the
// methods of a type's, for a method expression).
func (c *checked) selection() []candidate {
	sel := enclosing(c, func(s *ast.SelectorExpr) bool { return s.Sel.Pos() == c.at })
	if sel == nil {
		return nil
	}
	if id, ok := sel.X.(*ast.Ident); ok {
		// objectOf, not info.Uses: the checker skips what it cannot place,
		// such as a map literal's element without a key ("map[string]int{strings._").
		if pn, ok := c.objectOf(id).(*types.PkgName); ok {
			var cs []candidate
			scope := pn.Imported().Scope()
			for _, name := range scope.Names() {
				if obj := scope.Lookup(name); obj.Exported() {
					cs = append(cs, objCandidate(obj, rankName))
				}
			}
			return cs
		}
	}
	tv, ok := c.typeOf(sel.X)
	if !ok {
		return nil
	}
	var cs []candidate
	for _, obj := range members(tv.Type, c.pkg) {
		if _, isVar := obj.(*types.Var); !tv.IsType() || !isVar {
			cs = append(cs, objCandidate(obj, rankName))
		}
	}
	return cs
}

// members returns the fields and methods that package pkg may select on
// a value of type t (an addressable one: pointer methods included).
func members(t types.Type, pkg *types.Package) []types.Object {
	names := map[string]bool{}
	seen := map[types.Type]bool{}
	var walk func(t types.Type, depth int)
	walk = func(t types.Type, depth int) {
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		if seen[t] || depth > 8 {
			return
		}
		seen[t] = true
		if n, ok := types.Unalias(t).(*types.Named); ok {
			for i := range n.NumMethods() {
				names[n.Method(i).Name()] = true
			}
		}
		switch u := t.Underlying().(type) {
		case *types.Struct:
			for i := range u.NumFields() {
				names[u.Field(i).Name()] = true
				if u.Field(i).Embedded() {
					walk(u.Field(i).Type(), depth+1)
				}
			}
		case *types.Interface:
			for i := range u.NumMethods() {
				names[u.Method(i).Name()] = true
			}
		}
	}
	walk(t, 0)
	var out []types.Object
	for name := range names {
		if obj, _, _ := types.LookupFieldOrMethod(t, true, pkg, name); obj != nil {
			out = append(out, obj)
		}
	}
	return out
}

// literalFields returns the fields of the struct literal whose key is at
// the cut, but for those the literal already sets.
func (c *checked) literalFields() []candidate {
	lit := enclosing(c, func(l *ast.CompositeLit) bool { return l.Lbrace < c.at && c.at <= l.Rbrace })
	if lit == nil {
		return nil
	}
	set := map[string]bool{}
	for _, elt := range lit.Elts {
		kv, ok := elt.(*ast.KeyValueExpr)
		if !ok {
			if id, ok := elt.(*ast.Ident); elt.Pos() <= c.at && c.at <= elt.End() && (!ok || id.Pos() != c.at) {
				return nil // inside an element that is no key
			}
			continue
		}
		if kv.Value.Pos() <= c.at && c.at <= kv.Value.End() {
			return nil // a value, not a key
		}
		if id, ok := kv.Key.(*ast.Ident); ok && id.Pos() != c.at {
			set[id.Name] = true
		}
	}
	tv, ok := c.info.Types[lit]
	if !ok {
		return nil
	}
	t := tv.Type
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return nil
	}
	var cs []candidate
	for i := range st.NumFields() {
		f := st.Field(i)
		if !set[f.Name()] && (f.Exported() || f.Pkg() == c.pkg) {
			cs = append(cs, objCandidate(f, rankLiteralField))
		}
	}
	return cs
}
