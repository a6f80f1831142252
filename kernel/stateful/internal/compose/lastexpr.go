package compose

import (
	"go/ast"
	"go/scanner"
	"go/token"
	"go/types"
	"strings"
)

// kernelPath is the package of kernel.ShowResult, which the host program
// links: a cell that shows its last expression costs nothing more to load.
const kernelPath = "github.com/dlbd/dlbd/kernel"

// lastExpr is the body's last statement when it is an expression that the
// cell shows or, ended by ";", discards. Go accepts a call or a receive as
// a statement and rejects any other expression ("x is not used"); in a
// notebook the last line's value is the cell's result, as in IPython.
type lastExpr struct {
	x ast.Expr
	// show: the statement becomes kernel.ShowResult(x); otherwise _ = x.
	show bool
}

// findLastExpr returns the body's last statement as a lastExpr, or nil
// when the cell has nothing to show or discard there:
//
//   - a call with no result, or with several (fmt.Println returns two,
//     and a cell that ends with it shows nothing more), stays as it is;
//   - a receive (<-done, a wait) stays as it is;
//   - a type, or a builtin that is not called, keeps Go's error;
//   - any other value is shown, or discarded when the line ends with ";"
//     (a call that Go accepts as a statement then stays as it is).
//
// unused holds the positions of the type checker's "is not used" errors.
func (u *unit) findLastExpr(unused map[token.Pos]bool) *lastExpr {
	if u.body == nil || u.lay.synthesizedBody || len(u.body.Body.List) == 0 {
		return nil
	}
	st, ok := u.body.Body.List[len(u.body.Body.List)-1].(*ast.ExprStmt)
	if !ok {
		return nil
	}
	if r, ok := ast.Unparen(st.X).(*ast.UnaryExpr); ok && r.Op == token.ARROW {
		return nil
	}
	tv, ok := u.info.Types[st.X]
	if !ok || !tv.IsValue() {
		return nil
	}
	if _, multi := tv.Type.(*types.Tuple); multi {
		return nil
	}
	if u.endsWithSemicolon(st.X) {
		if !unused[st.X.Pos()] {
			return nil // a call: Go runs it and drops its result
		}
		return &lastExpr{x: st.X}
	}
	return &lastExpr{x: st.X, show: true}
}

// endsWithSemicolon reports whether an explicit ";" follows x (IPython's
// way to keep a cell's last value from showing).
func (u *unit) endsWithSemicolon(x ast.Expr) bool {
	start := u.lay.offset(u.h.fset, x.End())
	src := u.lay.src[start:u.lay.bodyEnd]
	var s scanner.Scanner
	file := token.NewFileSet().AddFile("", -1, len(src))
	s.Init(file, src, nil, 0)
	_, tok, lit := s.Scan()
	return tok == token.SEMICOLON && lit == ";"
}

// renderBody returns the body with the edits applied and the last
// expression shown or discarded.
func (u *unit) renderBody() string {
	if u.last == nil {
		return u.ed.render(u.lay.bodyStart, u.lay.bodyEnd)
	}
	start, end := u.lay.offset(u.h.fset, u.last.x.Pos()), u.lay.offset(u.h.fset, u.last.x.End())
	var b strings.Builder
	b.WriteString(u.ed.render(u.lay.bodyStart, start))
	if u.last.show {
		b.WriteString(u.imports.name(kernelPath, "kernel") + ".ShowResult(")
		b.WriteString(u.ed.render(start, end))
		b.WriteString(")")
	} else {
		b.WriteString("_ = ")
		b.WriteString(u.ed.render(start, end))
	}
	b.WriteString(u.ed.render(end, u.lay.bodyEnd))
	return b.String()
}
