package compose

import (
	"fmt"
	"sort"
	"strings"

	"github.com/dlbd/dlbd/kernel/internal/cellpos"
)

// edit replaces src[start:end] with text, or with blanks (spaces, newlines
// kept) when blank is set; a blank edit hides the edits inside it.
type edit struct {
	start, end int
	text       string
	blank      bool
}

// editor renders ranges of a source with edits applied.
type editor struct {
	src   []byte
	edits []edit
}

func (e *editor) replace(start, end int, text string) {
	e.edits = append(e.edits, edit{start: start, end: end, text: text})
}

func (e *editor) blank(start, end int) {
	e.edits = append(e.edits, edit{start: start, end: end, blank: true})
}

// render returns src[start:end] with the edits inside it applied; a blank
// edit that covers exactly [start, end) is skipped, so that a statement
// moved elsewhere renders with its inner edits there.
func (e *editor) render(start, end int) string {
	sort.SliceStable(e.edits, func(i, j int) bool {
		a, b := e.edits[i], e.edits[j]
		if a.start != b.start {
			return a.start < b.start
		}
		if a.end != b.end {
			return a.end > b.end // outer edits first
		}
		return a.blank && !b.blank // a blank hides a replacement of the same range
	})
	var b strings.Builder
	at := start
	for _, ed := range e.edits {
		if ed.start < at || ed.start >= end || ed.end > end || (ed.blank && ed.start == start && ed.end == end) {
			continue // before the range, inside an edit already applied, or the range's own move
		}
		b.Write(e.src[at:ed.start])
		if ed.blank {
			b.WriteString(blanked(e.src[ed.start:ed.end]))
		} else {
			b.WriteString(ed.text)
		}
		at = ed.end
	}
	b.Write(e.src[at:end])
	return b.String()
}

// blanked returns b with every character but newlines replaced by a space,
// so that the lines after it keep their numbers.
func blanked(b []byte) string {
	out := []byte(string(b))
	for i, c := range out {
		if c != '\n' {
			out[i] = ' '
		}
	}
	return string(out)
}

// lineDirective returns a //line directive that makes the next line line
// (column col, when not 0) of file.
func lineDirective(file string, line, col int) string {
	if col > 0 {
		return fmt.Sprintf("//line %s:%d:%d\n", file, line, col)
	}
	return fmt.Sprintf("//line %s:%d\n", file, line)
}

// VarsHandle lists the addresses of a cell's variables; the plugin refers
// to it, so that the linker keeps their initialisation.
const VarsHandle = "DlbdVars"

// handlePrefix starts the exported handles of a cell's unexported names.
// The kernel's other names (cellpos.RunFunc, VarsHandle) start with "Dlbd"
// without its underscore, so that no handle of a cell's name (Dlbd_x for
// x) collides with them.
const handlePrefix = "Dlbd_"

// reservedPrefix starts every name the kernel generates; a cell may not
// declare names that start with it.
const reservedPrefix = "Dlbd"

// layout is the source go/types checks: the package clause, the imports,
// the cell's declarations and its body in a function, with the offsets of
// the two cell regions.
type layout struct {
	src                []byte
	declStart, declEnd int
	bodyStart, bodyEnd int
	bodyLine           int
	synthesizedBody    bool
	headerImports      []importSpec
	pkgName, cellFile  string
}

// importSpec is one import of the generated file.
type importSpec struct {
	name, path string
	line, col  int // its place in the cell; 0 for an import the kernel adds
}

func (s importSpec) String() string {
	if s.name != "" {
		return s.name + " " + fmt.Sprintf("%q", s.path)
	}
	return fmt.Sprintf("%q", s.path)
}

// build writes the layout's source for decls and body.
func build(pkgName, cellFile, decls, body string, bodyLine int, hasBody, callMain bool, imports []importSpec) *layout {
	l := &layout{pkgName: pkgName, cellFile: cellFile, headerImports: imports, bodyLine: bodyLine}
	var b strings.Builder
	fmt.Fprintf(&b, "package %s\n\n", pkgName)
	writeImports(&b, cellFile, imports)
	b.WriteString(lineDirective(cellFile, 1, 0))
	l.declStart = b.Len()
	b.WriteString(decls)
	l.declEnd = b.Len()
	b.WriteString("\n" + lineDirective(cellpos.GeneratedFile, 1, 0))
	fmt.Fprintf(&b, "func %s() {\n", cellpos.RunFunc)
	switch {
	case hasBody:
		b.WriteString(lineDirective(cellFile, bodyLine, 0))
	case callMain:
		body, l.synthesizedBody = "main()", true
	}
	l.bodyStart = b.Len()
	b.WriteString(body)
	l.bodyEnd = b.Len()
	b.WriteString("\n}\n")
	l.src = []byte(b.String())
	return l
}

// writeImports writes an import block; the cell's own imports keep their
// cell positions.
func writeImports(b *strings.Builder, cellFile string, imports []importSpec) {
	if len(imports) == 0 {
		return
	}
	b.WriteString("import (\n")
	for _, s := range imports {
		if s.line > 0 {
			b.WriteString(lineDirective(cellFile, s.line, s.col))
		} else {
			b.WriteString(lineDirective(cellpos.GeneratedFile, 1, 0))
		}
		b.WriteString(s.String() + "\n")
	}
	b.WriteString(")\n\n")
}
