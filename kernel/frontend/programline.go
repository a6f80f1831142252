package frontend

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/dlbd/dlbd/kernel/internal/cellpos"
)

// Why the front end places some frames itself.
//
// GoNB v0.11.4 composes each cell's program as main.go in its temporary
// directory ($TMPDIR/gonb_<id>, GONB_TMP_DIR; the front end gives GoNB
// its TMPDIR, see [Run]) and keeps, in memory only, which line of main.go
// came from which cell line. It copies the cell's stderr to Jupyter with
// io.Copy through an io.Writer (jupyterStackTraceMapperWriter in
// internal/goexec/execcode.go) whose Write inserts "[[ Cell [4] Line 3 ]]"
// before every match of "<path of main.go>:(\d+)" in the bytes of that one
// Write, and sends them as one stream message. The Go runtime writes a
// stack frame's place in pieces, one write(2) each ("\t", the path, ":",
// the line, " +0x68", "\n"; runtime/traceback.go, print("\t", file, ":",
// line)), and each Write gets what one read of the pipe returned: when a
// read ends after the path or after the colon, that frame gets no marker,
// and the panic would be reported without its cell line (about 1 panic in
// 60). GoNB's own line-buffered mapping (processLine) is used only without
// --raw_error, which dlbd sets.
//
// Joining the stream messages again, which the front end does (it keeps
// the cell's stderr), gives the whole "main.go:12" back, but not GoNB's
// mapping, which main.go does not record (no //line or other comments).
// So for a frame in main.go that GoNB left unmarked, the front end reads
// that main.go (it is still the cell's: GoNB writes the next one only for
// the next execute_request, which the front end sends after this one's
// reply) and finds the line among the cells GoNB ran, whose code it keeps:
// GoNB copies the lines of a function, or of the body after %%, into
// main.go unchanged and in order, so the line, with the lines around it in
// the same declaration, is found in the cell that it came from. Where two
// cells hold the same lines, the request's own cell wins, then the latest
// (GoNB keeps the latest declaration of a name). Lines that GoNB rewrites
// (var blocks, imports) or writes itself (func main() { flag.Parse())
// are not found, and such a frame stays unplaced, as GoNB leaves it.
// GoNB's markers, when they came, are used as they are: they are GoNB's
// own mapping.

// programFrame matches the place line of a stack frame in GoNB's program:
// "\t/tmp/…/gonb_8d05c26b/main.go:12 +0x68". It captures the program
// relative to GoNB's temporary directory ("gonb_8d05c26b/main.go",
// main_test.go for %test cells) and the line.
var programFrame = regexp.MustCompile(`^\t(?:.*/)?(gonb_\w+/main(?:_test)?\.go):(\d+)(?: \+0x[0-9a-f]+)?$`)

// maxProgram bounds the size of a main.go the front end reads.
const maxProgram = 16 << 20

// gonbProgram is a main.go GoNB wrote: its lines and the line spans
// (0-based, inclusive) of its top-level declarations, doc comments
// included.
type gonbProgram struct {
	lines []string
	decls [][2]int
}

// readProgram reads GoNB's program at path; nil when it cannot.
func readProgram(path string) *gonbProgram {
	if fi, err := os.Stat(path); err != nil || !fi.Mode().IsRegular() || fi.Size() > maxProgram {
		return nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	return newProgram(string(b))
}

// newProgram splits the source of GoNB's program into its lines and
// top-level declarations. A source that does not parse has no
// declarations: lines are then matched against the whole file.
func newProgram(src string) *gonbProgram {
	p := &gonbProgram{lines: strings.Split(src, "\n")}
	fset := token.NewFileSet()
	f, _ := parser.ParseFile(fset, "main.go", src, parser.ParseComments|parser.SkipObjectResolution)
	if f == nil {
		return p
	}
	for _, d := range f.Decls {
		start := d.Pos()
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Doc != nil {
				start = d.Doc.Pos()
			}
		case *ast.GenDecl:
			if d.Doc != nil {
				start = d.Doc.Pos()
			}
		}
		p.decls = append(p.decls, [2]int{fset.Position(start).Line - 1, fset.Position(d.End()).Line - 1})
	}
	return p
}

// span returns the lines (0-based, inclusive) of the declaration that
// holds line i, the whole program when it did not parse; ok is false when
// line i is outside every declaration (a blank line GoNB put between
// two), where no frame can be.
func (p *gonbProgram) span(i int) (lo, hi int, ok bool) {
	if p.decls == nil {
		return 0, len(p.lines) - 1, true
	}
	for _, d := range p.decls {
		if d[0] <= i && i <= d[1] {
			return d[0], d[1], true
		}
	}
	return 0, 0, false
}

// sourceCell is a cell whose lines GoNB may have copied into a program:
// GoNB's number for it and its lines.
type sourceCell struct {
	num   int
	lines []string
}

// place returns the cell line that line n (1-based) of the program came
// from, looking in cells, most likely first. Each line of a cell equal to
// line n is a candidate; it scores the length of the run of equal lines,
// cell and program side by side, through it, within line n's declaration.
// The longest run wins, the first of cells on a tie. A run of lines with
// no code but braces and parentheses places nothing: such lines are in
// every cell.
func (p *gonbProgram) place(n int, cells []sourceCell) (pos cellpos.Pos, ok bool) {
	if p == nil || n < 1 || n > len(p.lines) {
		return pos, false
	}
	i := n - 1
	lo, hi, ok := p.span(i)
	if !ok {
		return pos, false
	}
	best := 0
	for _, c := range cells {
		for l, text := range c.lines {
			if text != p.lines[i] {
				continue
			}
			from, to := 0, 0 // the run: lines i-from … i+to
			for i-from-1 >= lo && l-from-1 >= 0 && p.lines[i-from-1] == c.lines[l-from-1] {
				from++
			}
			for i+to+1 <= hi && l+to+1 < len(c.lines) && p.lines[i+to+1] == c.lines[l+to+1] {
				to++
			}
			if run := from + to + 1; run > best && hasCode(c.lines[l-from:l+to+1]) {
				best, pos = run, cellpos.Pos{Cell: c.num, Line: l + 1}
			}
		}
	}
	return pos, best > 0
}

// hasCode reports whether some line has more than blanks, braces and
// parentheses.
func hasCode(lines []string) bool {
	for _, l := range lines {
		if strings.Trim(l, " \t{}()\r") != "" {
			return true
		}
	}
	return false
}

// programLine places line n of GoNB's program, named relative to GoNB's
// temporary directory ("gonb_8d05c26b/main.go"), in the cells GoNB ran,
// for the panic of request id (see the comment at the top of this file):
// the request's own cell first, then the others, latest first. The cell
// is GoNB's number, as in GoNB's markers (renumber makes it the front
// end's). Each program is read once per request.
func (e *execute) programLine(id, program string, n int) (cellpos.Pos, bool) {
	if e.s == nil || e.s.gonbTmp == "" {
		return cellpos.Pos{}, false
	}
	e.mu.Lock()
	f := e.fwd[id]
	if f == nil || f.gonbCount == 0 {
		e.mu.Unlock()
		return cellpos.Pos{}, false
	}
	prog, read := f.programs[program]
	cells := []sourceCell{{num: f.gonbCount, lines: strings.Split(f.code, "\n")}}
	for num, c := range e.gonbCells {
		if num != f.gonbCount {
			cells = append(cells, sourceCell{num: num, lines: strings.Split(c.code, "\n")})
		}
	}
	e.mu.Unlock()
	sort.Slice(cells[1:], func(a, b int) bool { return cells[1+a].num > cells[1+b].num })
	if !read {
		// programFrame's \w+ keeps the name inside GoNB's directory.
		prog = readProgram(filepath.Join(e.s.gonbTmp, filepath.FromSlash(program)))
		e.mu.Lock()
		if f.programs == nil {
			f.programs = map[string]*gonbProgram{}
		}
		f.programs[program] = prog
		e.mu.Unlock()
	}
	return prog.place(n, cells)
}
