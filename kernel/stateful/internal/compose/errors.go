package compose

import (
	"fmt"
	"strings"

	"github.com/dlbd/dlbd/kernel/internal/cellpos"
)

// Problem is one error in a cell, at a cell line (0 when it has none).
type Problem struct {
	// Line and Col locate the problem in the cell (1-based).
	Line, Col int
	// Msg is what is wrong, in the Go type checker's words, with a hint
	// appended where the stateful model is the cause.
	Msg string
}

// Error is a cell that does not compile.
type Error struct {
	// Cell is the cell's number (its execution count).
	Cell int
	// Problems are the errors, in the order of the cell's lines.
	Problems []Problem
}

// Error returns the problems one per line: "Cell [3] Line 2:5: undefined: x".
func (e *Error) Error() string {
	var b strings.Builder
	for i, p := range e.Problems {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Location(p))
		b.WriteString(": ")
		b.WriteString(p.Msg)
	}
	return b.String()
}

// Location names where p is: "Cell [3] Line 2:5", or "Cell [3]" when p
// has no line.
func (e *Error) Location(p Problem) string {
	return cellpos.Pos{Cell: e.Cell, Line: p.Line, Col: p.Col}.String()
}

// hint returns the explanation added to a type checker message msg when
// the stateful model causes it, or "".
func (h *History) hint(msg string) string {
	switch {
	case strings.Contains(msg, "cannot define new methods on non-local type"):
		name := msg[strings.LastIndex(msg, " ")+1:]
		where := "an earlier cell"
		if s := h.syms[strings.TrimPrefix(name, "*")]; s != nil {
			where = s.Cell.Where().String()
		}
		return fmt.Sprintf("each cell is its own Go package, and Go lets only the package that declares a type add methods to it: %s was declared in %s. Put the method in that cell and run it again (then the cells after it that use the type), or declare the type again in this cell", name, where)
	case strings.Contains(msg, "unexported field") || strings.Contains(msg, "unexported method") ||
		strings.Contains(msg, "cannot refer to unexported"):
		return "each cell is its own Go package, so a later cell sees only the exported (capitalised) fields and methods of an earlier cell's types: rename the field or method with a capital letter in the cell that declares it"
	}
	return ""
}
