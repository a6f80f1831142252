package compose

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"github.com/dlbd/dlbd/kernel/internal/cellpos"
)

// lift makes the body's top-level names live on. Type and const
// declarations move to package level (returned in moved); variables
// declared with := or var become package-level variables (lifted), their
// statements assignments. A variable whose type cannot be written outside
// the cell stays local, with a note; keep lists the names the body must
// then use once, so that Go does not reject them as unused.
func (u *unit) lift() (moved []ast.Node, lifted []*types.Var, keep, notes []string) {
	if u.body == nil || u.lay.synthesizedBody || u.bodyScope() == nil {
		return nil, nil, nil, nil
	}
	// Types and consts move first: variables may have their types.
	for _, st := range u.body.Body.List {
		if ds, ok := st.(*ast.DeclStmt); ok {
			if gd := ds.Decl.(*ast.GenDecl); gd.Tok == token.TYPE || gd.Tok == token.CONST {
				moved = append(moved, ds)
				u.ed.blank(u.lay.offset(u.h.fset, ds.Pos()), u.lay.offset(u.h.fset, ds.End()))
			}
		}
	}
	w := u.writer(nil)
	liftable := func(ids []*ast.Ident) (vars []*types.Var, ok bool) {
		ok = true
		for _, id := range ids {
			v, isVar := u.info.Defs[id].(*types.Var)
			if !isVar || id.Name == "_" {
				continue // _ or a variable declared earlier in the body
			}
			vars = append(vars, v)
			if _, err := w.write(v.Type()); err != nil {
				ok = false
				notes = append(notes, fmt.Sprintf("%s stays local to %v and is gone after it: its type cannot be named outside the cell (%v)", v.Name(), cellpos.Pos{Cell: u.in.Num}, err))
			}
		}
		return vars, ok
	}
	for _, st := range u.body.Body.List {
		switch st := st.(type) {
		case *ast.AssignStmt:
			if st.Tok != token.DEFINE {
				continue
			}
			vars, ok := liftable(exprs(st.Lhs).identList())
			if !ok {
				keep = append(keep, names(vars)...)
				continue
			}
			at := u.lay.offset(u.h.fset, st.TokPos)
			u.ed.replace(at, at+2, "= ")
			lifted = append(lifted, vars...)
		case *ast.DeclStmt:
			gd := st.Decl.(*ast.GenDecl)
			if gd.Tok != token.VAR {
				continue
			}
			var ids []*ast.Ident
			for _, s := range gd.Specs {
				ids = append(ids, s.(*ast.ValueSpec).Names...)
			}
			vars, ok := liftable(ids)
			if !ok {
				keep = append(keep, names(vars)...)
				continue
			}
			u.varToAssignments(gd)
			lifted = append(lifted, vars...)
		}
	}
	return moved, lifted, keep, notes
}

// varToAssignments rewrites a body's var declaration into the
// assignments of its initial values: "var x T = v" becomes "x = v" and
// "var y T" disappears (y is declared at package level, zero).
func (u *unit) varToAssignments(gd *ast.GenDecl) {
	off := func(p token.Pos) int { return u.lay.offset(u.h.fset, p) }
	u.ed.blank(off(gd.TokPos), off(gd.TokPos)+len("var"))
	if gd.Lparen.IsValid() {
		u.ed.blank(off(gd.Lparen), off(gd.Lparen)+1)
		u.ed.blank(off(gd.Rparen), off(gd.Rparen)+1)
	}
	for _, s := range gd.Specs {
		vs := s.(*ast.ValueSpec)
		switch {
		case len(vs.Values) == 0:
			u.ed.blank(off(vs.Pos()), off(vs.End()))
		case vs.Type != nil:
			u.ed.blank(off(vs.Type.Pos()), off(vs.Type.End()))
			// "x T = v" → "x   = v": the = is already there.
		}
	}
	// A single spec without parentheses or values leaves the statement
	// empty, which is still a valid (empty) line.
}

// exprs is a list of expressions that may be identifiers.
type exprs []ast.Expr

func (l exprs) identList() []*ast.Ident {
	var out []*ast.Ident
	for _, e := range l {
		if id, ok := e.(*ast.Ident); ok {
			out = append(out, id)
		}
	}
	return out
}

func names(vars []*types.Var) []string {
	out := make([]string, len(vars))
	for i, v := range vars {
		out[i] = v.Name()
	}
	return out
}
