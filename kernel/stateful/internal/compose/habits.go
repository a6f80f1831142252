package compose

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// habitHint returns, in Spanish (the course's language), what to write
// instead when a type checker error e comes from a habit of Python that a
// rule of Go rejects, as " (pista: ...)", or "". Go's message stays as it is.
//
//   - A variable that is never used is an error in Go; a loop variable
//     that is not needed is left out (for range N).
//   - An expression on a line of its own is an error in Go, except on the
//     cell's last line, whose value the cell shows.
func (u *unit) habitHint(e types.Error) string {
	var hint string
	switch {
	case strings.HasPrefix(e.Msg, "declared and not used: "):
		hint = u.unusedVarHint(e.Pos, strings.TrimPrefix(e.Msg, "declared and not used: "))
	case strings.HasSuffix(e.Msg, " is not used"):
		hint = u.unusedValueHint(e.Pos)
	}
	if hint == "" {
		return ""
	}
	return " (pista: " + hint + ")"
}

// unusedVarHint explains "declared and not used" for the variable name
// declared at pos.
func (u *unit) unusedVarHint(pos token.Pos, name string) string {
	var hint string
	ast.Inspect(u.ast, func(n ast.Node) bool {
		rs, ok := n.(*ast.RangeStmt)
		if !ok || hint != "" || rs.Tok != token.DEFINE {
			return hint == ""
		}
		over := u.text(rs.X)
		switch {
		case rs.Key != nil && rs.Key.Pos() == pos && rs.Value == nil:
			hint = fmt.Sprintf("si el bucle no usa %s, escribe for range %s: repite sin variable", name, over)
		case rs.Key != nil && rs.Key.Pos() == pos:
			hint = fmt.Sprintf("si no usas el índice, escribe _ en su lugar: for _, %s := range %s", u.text(rs.Value), over)
		case rs.Value != nil && rs.Value.Pos() == pos:
			hint = fmt.Sprintf("si no usas el valor, quítalo: for %s := range %s", u.text(rs.Key), over)
		}
		return hint == ""
	})
	if hint == "" {
		hint = fmt.Sprintf("Go no admite variables sin usar: usa %s (por ejemplo, fmt.Println(%s)), bórrala o escribe _ en lugar de su nombre", name, name)
	}
	return hint
}

// unusedValueHint explains "is not used" for the expression statement at
// pos, which is not the cell's last line.
func (u *unit) unusedValueHint(pos token.Pos) string {
	var x ast.Expr
	top := false
	ast.Inspect(u.ast, func(n ast.Node) bool {
		if st, ok := n.(*ast.ExprStmt); ok && st.X.Pos() == pos {
			x = st.X
		}
		return x == nil
	})
	if x == nil {
		return ""
	}
	if u.body != nil && !u.lay.synthesizedBody {
		for _, st := range u.body.Body.List {
			if es, ok := st.(*ast.ExprStmt); ok && es.X == x {
				top = true
			}
		}
	}
	show := "fmt.Println(" + u.text(x) + ")"
	if len(show) > 40 {
		show = "fmt.Println(...)"
	}
	if top {
		return "Go no admite un valor suelto en una línea; para verlo, imprímelo con " + show + " o ponlo en la última línea de la celda, que muestra su valor"
	}
	return "Go no admite un valor suelto en una línea; para verlo, imprímelo con " + show
}

// text returns the cell's source of n.
func (u *unit) text(n ast.Node) string {
	return string(u.lay.src[u.lay.offset(u.h.fset, n.Pos()):u.lay.offset(u.h.fset, n.End())])
}

// statementsHint explains "expected declaration" (the compiler's
// "non-declaration statement outside function body") in a cell's
// declarations: Go accepts only declarations outside a function, and the
// statements of a cell go in its body, after a line %%.
func statementsHint(hasBody bool) string {
	if hasBody {
		return " (pista: fuera de una función Go solo admite declaraciones; las sentencias, como x := 1, van después de la línea %%)"
	}
	return " (pista: fuera de una función Go solo admite declaraciones; escribe una línea %% antes de las sentencias, como x := 1: lo que sigue a %% es el cuerpo de la celda)"
}
