package cellpos

import (
	"fmt"
	"strconv"
	"strings"
)

// Module is the module path of a session's cell packages.
const Module = "dlbd.cells"

// RunFunc is the function of a cell's package that holds the cell's body
// (its lines after %%); the plugin calls it. The kernel's own names start
// with "Dlbd", so that no name of a cell collides with them.
const RunFunc = "DlbdRun"

// GeneratedFile is the file name that positions of the code the kernel
// writes around a cell carry (the package clause, the body's function,
// the imports it adds): an error there is the kernel's bug, not the cell's.
const GeneratedFile = "dlbd-generated"

// filePrefix starts the file name of every cell's positions.
const filePrefix = "dlbd-cell-"

// File returns the file name that positions in cell n carry in generated
// code (through //line directives), so that compiler errors and stack
// traces name the cell: "dlbd-cell-3".
func File(n int) string { return filePrefix + strconv.Itoa(n) }

// Package returns the import path of the cell package called name:
// "dlbd.cells/cell3" for "cell3".
func Package(name string) string { return Module + "/" + name }

// Pos is a place in a cell.
type Pos struct {
	// Cell is the cell's number (its execution count).
	Cell int
	// Line and Col are 1-based; 0 means the position has none.
	Line, Col int
}

// String returns the location as the notebook shows it: "Cell [3] Line
// 2:5", "Cell [3] Line 2" without a column, "Cell [3]" without a line.
func (p Pos) String() string {
	switch {
	case p.Line == 0:
		return fmt.Sprintf("Cell [%d]", p.Cell)
	case p.Col == 0:
		return fmt.Sprintf("Cell [%d] Line %d", p.Cell, p.Line)
	}
	return fmt.Sprintf("Cell [%d] Line %d:%d", p.Cell, p.Line, p.Col)
}

// At returns msg followed by where it happened: "boom (Cell [2] Line 3)".
func At(msg string, p Pos) string { return msg + " (" + p.String() + ")" }

// TraceLine returns the traceback line of a frame in cell code, fn being
// the function as the notebook names it:
// "\tcell2.f(...) [[ Cell [2] Line 3 ]]".
func TraceLine(fn string, p Pos) string { return "\t" + fn + " [[ " + p.String() + " ]]" }

// Parse reads the cell position that starts s, as the go command and the
// runtime write it: "dlbd-cell-3:2:5" (cell, line, column) or
// "dlbd-cell-3:2". It returns the position and what follows it in s
// (": undefined: x", " +0x1d"); ok is false when s does not start with a
// cell position.
func Parse(s string) (p Pos, rest string, ok bool) {
	rest, ok = strings.CutPrefix(s, filePrefix)
	if !ok {
		return Pos{}, s, false
	}
	var found bool
	if p.Cell, rest, found = number(rest); !found {
		return Pos{}, s, false
	}
	if rest, found = strings.CutPrefix(rest, ":"); !found {
		return Pos{}, s, false
	}
	if p.Line, rest, found = number(rest); !found {
		return Pos{}, s, false
	}
	if after, found := strings.CutPrefix(rest, ":"); found {
		if col, after, found := number(after); found {
			p.Col, rest = col, after
		}
	}
	return p, rest, true
}

// number reads the decimal number that starts s.
func number(s string) (n int, rest string, ok bool) {
	i := 0
	for i < len(s) && '0' <= s[i] && s[i] <= '9' {
		i++
	}
	n, err := strconv.Atoi(s[:i])
	if err != nil { // no digits, or too many
		return 0, s, false
	}
	return n, s[i:], true
}
