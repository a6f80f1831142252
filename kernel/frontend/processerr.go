package frontend

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"regexp"
	"strconv"
	"strings"

	"github.com/dlbd/dlbd/kernel/cell"
	"github.com/dlbd/dlbd/kernel/internal/cellpos"
	"github.com/dlbd/dlbd/kernel/protocol"
)

// GoNB v0.11.4, started with --raw_error (package kernel/kernelspec),
// reports a cell that does not build in one error message (IOPub error and
// execute_reply alike), with no stream or HTML output:
//
//   - ename is "ERROR";
//   - evalue is what failed said, one error a line: the output of go build
//     ("# gonb_9f1d48d0\n./main.go:11:30: undefined: res\n"), of goimports,
//     or the go/parser error of GoNB's own parse of the program
//     ("/tmp/…/gonb_9f1d48d0/main.go:7:1: expected operand, found '}'");
//   - traceback has one entry per line of evalue: the line itself when it
//     names no place in main.go, else "Cell[12]: Line 2" (the cell and
//     its line; absent when the line of main.go is one GoNB wrote, like
//     the closing brace of main), a few lines of main.go around the error
//     with a caret under its column, and the message (red when the
//     terminal library thinks it may).
//
// The front end rewrites such an error as the stateful mode writes its
// compile errors: "Cell [12] Line 2:30: undefined: res", one error a line,
// without the program around the cell (see [execute.compileError]).

// gonbError is the ename of GoNB's errors.
const gonbError = "ERROR"

// mainGoLine matches a line of evalue that names a place in GoNB's program:
// the indentation (go build indents the notes of an error, like "other
// declaration of x"), the path (relative for go build, absolute, in GoNB's
// directory, for the parser), line, column and message.
var mainGoLine = regexp.MustCompile(`^(\s*)(?:\./|/.*/gonb_\w+/)?main(?:_test)?\.go:(\d+):(\d+): (.*)$`)

// gonbCellLine matches the first line of a traceback entry that GoNB
// mapped to a cell: "Cell[12]: Line 2" ("Cell Line 2" when it does not
// know the cell, which the front end takes as not mapped).
var gonbCellLine = regexp.MustCompile(`^Cell\[(\d+)\]: Line (\d+)$`)

// gonbPackageLine matches the line go build writes before the errors of
// GoNB's program, whose package is named after GoNB's temporary
// directory: "# gonb_9f1d48d0".
var gonbPackageLine = regexp.MustCompile(`^# gonb_\w+$`)

// gonbLine is one line of a GoNB compile error.
type gonbLine struct {
	// Placed reports whether the line names a place in GoNB's program;
	// Text is the line when it does not.
	Placed bool
	Text   string
	// Indent is the blanks before the place, when the line names one.
	Indent string
	// Msg is the error's message, when it does; Col its column in main.go
	// (the cell's column when GoNB copied the cell's line unchanged).
	Msg string
	Col int
	// Cell and Line are GoNB's cell number and the cell's line, when GoNB
	// mapped the line of main.go to one; 0 when it did not.
	Cell, Line int
	// Context is the part of main.go GoNB showed around the error, one
	// string a line, with the caret line under the error's line.
	Context []string
}

// parseGoNBError reads a compile error GoNB reported; ok is false when e
// is not one (another ename, or no line names a place in main.go: a panic,
// an exit status, a failed go get).
func parseGoNBError(e protocol.ErrorContent) (lines []gonbLine, ok bool) {
	if e.EName != gonbError {
		return nil, false
	}
	values := strings.Split(e.EValue, "\n")
	aligned := len(e.Traceback) == len(values)
	for i, v := range values {
		m := mainGoLine.FindStringSubmatch(v)
		if m == nil {
			lines = append(lines, gonbLine{Text: v})
			continue
		}
		ok = true
		col, _ := strconv.Atoi(m[3]) // \d+ of a sane size
		l := gonbLine{Placed: true, Indent: m[1], Msg: m[4], Col: col}
		if aligned {
			entry := strings.Split(ansiEscape.ReplaceAllString(e.Traceback[i], ""), "\n")
			if c := gonbCellLine.FindStringSubmatch(entry[0]); c != nil && len(entry) >= 2 {
				l.Cell, _ = strconv.Atoi(c[1])
				l.Line, _ = strconv.Atoi(c[2])
				l.Context = entry[1 : len(entry)-1] // the last line is the message
			}
		}
		lines = append(lines, l)
	}
	return lines, ok
}

// gonbCell is a cell GoNB ran: the front end's execution count for it and
// its code.
type gonbCell struct {
	count int
	code  string
}

// compileError returns the error fields GoNB's compile error old for the
// execute request id is rewritten to, in GoNB's cell numbers (renumber
// turns them into the front end's), or nil to leave it as it is. Each error
// reads "Cell [4] Line 2:13: message", as in the stateful mode: the cell
// line comes from GoNB's mapping, the column when GoNB copied the cell's
// line unchanged into its program. An error GoNB could not map (a syntax
// error found at the closing brace GoNB writes after the cell) is placed
// by parsing the cell the way GoNB does, or names the cell alone. The
// "# gonb_…" line and the program around the cell are left out. An
// "undefined: name" whose name an earlier cell made in its body gets a hint
// in Spanish: values do not live on in the process mode.
func (e *execute) compileError(id string, old protocol.ErrorContent) *protocol.ErrorContent {
	lines, ok := parseGoNBError(old)
	if !ok {
		return nil
	}
	e.mu.Lock()
	f := e.fwd[id]
	var code string
	var gonbNum int
	if f != nil {
		code, gonbNum = f.code, f.gonbCount
	}
	codes := map[int]string{} // the code of the cells the lines name, by GoNB's number
	for _, l := range lines {
		if c, ok := e.gonbCells[l.Cell]; ok {
			codes[l.Cell] = c.code
		}
	}
	made := make(map[string]int, len(e.bodyNames))
	for k, v := range e.bodyNames {
		made[k] = v
	}
	e.mu.Unlock()
	if f == nil || gonbNum == 0 {
		return nil // no GoNB number for the cell: its errors could not be told from earlier cells'
	}
	var out []string
	hinted := map[string]bool{}
	add := func(indent string, p cellpos.Pos, msg string) {
		out = append(out, indent+p.String()+": "+msg)
		name, undefined := strings.CutPrefix(msg, "undefined: ")
		if n, ok := made[name]; ok && undefined && !hinted[name] {
			hinted[name] = true
			out = append(out, e.valuesHint(name, n))
		}
	}
	ownSyntax := false // the cell's own syntax errors replaced GoNB's unplaced ones
	for _, l := range lines {
		switch {
		case !l.Placed:
			if t := strings.TrimSpace(l.Text); t != "" && !gonbPackageLine.MatchString(t) && !exitStatus.MatchString(t) {
				out = append(out, l.Text)
			}
		case l.Cell != 0:
			p := cellpos.Pos{Cell: l.Cell, Line: l.Line}
			if c, ok := codes[l.Cell]; ok && columnHolds(c, l) {
				p.Col = l.Col
			}
			add(l.Indent, p, l.Msg)
		case ownSyntax && l.Indent == "":
		case l.Indent != "": // a note of the error before
			add(l.Indent, cellpos.Pos{Cell: gonbNum}, l.Msg)
		default:
			if errs := syntaxErrors(code); len(errs) > 0 {
				ownSyntax = true
				for _, se := range errs {
					se.pos.Cell = gonbNum
					add("", se.pos, se.msg)
				}
				continue
			}
			add("", cellpos.Pos{Cell: gonbNum}, l.Msg)
		}
	}
	if len(out) == 0 {
		return nil
	}
	evalue := out[0]
	if len(out) > 1 && strings.HasPrefix(out[1], hintPrefix) {
		evalue += "\n" + out[1]
	}
	fields := protocol.NewError("compile", evalue, out)
	return &fields
}

// columnHolds reports whether the column of l, a column of GoNB's
// program, is also the column in the cell's line: GoNB showed that line of
// code, unchanged, with the caret under the column.
func columnHolds(code string, l gonbLine) bool {
	cellLines := strings.Split(code, "\n")
	if l.Col < 1 || l.Line < 1 || l.Line > len(cellLines) {
		return false
	}
	caret := strings.Repeat(" ", l.Col-1) + "^"
	for i := 0; i+1 < len(l.Context); i++ {
		if l.Context[i] == cellLines[l.Line-1] && l.Context[i+1] == caret {
			return true
		}
	}
	return false
}

// hintPrefix starts the hint added to an error.
const hintPrefix = "pista: "

// valuesHint explains, in Spanish, why name is undefined although cell
// made (the front end's count) made it: in the process mode a value that
// a cell's run makes (in its body, after %%, or in its func main) ends
// with its program. It names cells as "celda [3]", which renumber leaves
// as it is (the count is already the front end's).
func (e *execute) valuesHint(name string, made int) string {
	h := fmt.Sprintf("%s%s es un valor que creó la celda [%d] al ejecutarse. En el modo %s cada celda es un programa aparte: sus valores no pasan a las celdas siguientes (solo sus declaraciones de fuera del cuerpo: func, var, const y type antes de %%%%).",
		hintPrefix, name, made, ModeProcess)
	if e.ex == nil {
		return h + fmt.Sprintf(" Este kernel no tiene el modo %s: crea %s en esta misma celda.", ModeStateful, name)
	}
	return h + fmt.Sprintf(" Para que los valores pasen de una celda a otra, vuelve al modo %s con una celda que solo diga %%mode %s y ejecuta otra vez la celda [%d]; después, esta.",
		ModeStateful, ModeStateful, made)
}

// syntaxError is a syntax error of a cell, at a place in the cell (Cell
// unset).
type syntaxError struct {
	pos cellpos.Pos
	msg string
}

// syntaxErrors parses the cell code as GoNB composes it (its declarations
// at the top of a file, its body, after %%, inside func main) and returns
// its syntax errors at the cell's lines, one a line, at most ten (go/parser
// without AllErrors). An error on a line GoNB writes (a body or a function
// left open meets the brace or the func main that follows) is put on the
// cell's last line with code, without a column, when it is the first; later
// ones follow from an error already shown and are left out.
func syntaxErrors(code string) []syntaxError {
	c, err := cell.Parse(code)
	if err != nil {
		return nil
	}
	const file = "cell"
	var src strings.Builder
	src.WriteString("package main\n//line " + file + ":1:1\n" + c.Decls + "\n")
	if c.HasBody {
		fmt.Fprintf(&src, "func main() {\n//line %s:%d:1\n%s\n}\n", file, c.BodyLine, c.Body)
	}
	_, err = parser.ParseFile(token.NewFileSet(), "", src.String(), parser.SkipObjectResolution)
	list, ok := err.(scanner.ErrorList)
	if !ok {
		return nil
	}
	cellLines := strings.Split(code, "\n")
	last := len(cellLines)
	for last > 1 && strings.TrimSpace(cellLines[last-1]) == "" {
		last--
	}
	var out []syntaxError
	for _, se := range list {
		if se.Pos.Filename != file || strings.Contains(se.Msg, "imports must appear before other declarations") {
			continue // a cell may import anywhere: GoNB moves the imports up
		}
		p := cellpos.Pos{Line: se.Pos.Line, Col: se.Pos.Column}
		if p.Line > last || c.HasBody && p.Line == c.BodyLine-1 { // GoNB's lines: the end, func main
			if len(out) > 0 {
				continue // what follows an error the cell's lines show
			}
			p = cellpos.Pos{Line: last}
		}
		if n := len(out); n > 0 && out[n-1].pos.Line == p.Line {
			continue
		}
		out = append(out, syntaxError{pos: p, msg: se.Msg})
	}
	return out
}

// bodyNames returns the names that the run part of a cell run by GoNB
// declares at its top level: in its body (after %%) or in a func main of
// its declarations, with := or var, const and type. They live as long as
// the cell's program, unlike the declarations outside, which GoNB keeps
// for the next cells. A cell that does not parse gives what parsed.
func bodyNames(code string) []string {
	c, err := cell.Parse(code)
	if err != nil {
		return nil
	}
	var stmts []ast.Stmt
	fset := token.NewFileSet()
	if c.HasBody {
		if f, _ := parser.ParseFile(fset, "", "package p\nfunc _() {\n"+c.Body+"\n}", parser.SkipObjectResolution); f != nil {
			for _, d := range f.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
					stmts = append(stmts, fd.Body.List...)
				}
			}
		}
	}
	if f, _ := parser.ParseFile(fset, "", "package p\n"+c.Decls, parser.SkipObjectResolution); f != nil {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.Name == "main" && fd.Body != nil {
				stmts = append(stmts, fd.Body.List...)
			}
		}
	}
	var names []string
	add := func(id *ast.Ident) {
		if id != nil && id.Name != "_" {
			names = append(names, id.Name)
		}
	}
	for _, st := range stmts {
		switch st := st.(type) {
		case *ast.AssignStmt:
			if st.Tok == token.DEFINE {
				for _, x := range st.Lhs {
					id, _ := x.(*ast.Ident)
					add(id)
				}
			}
		case *ast.DeclStmt:
			gd, ok := st.Decl.(*ast.GenDecl)
			if !ok {
				continue
			}
			for _, s := range gd.Specs {
				switch s := s.(type) {
				case *ast.ValueSpec:
					for _, id := range s.Names {
						add(id)
					}
				case *ast.TypeSpec:
					add(s.Name)
				}
			}
		}
	}
	return names
}
