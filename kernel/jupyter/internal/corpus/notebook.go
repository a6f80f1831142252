package corpus

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"strings"

	"github.com/dlbd/dlbd/kernel/cell"
)

// codeCell is a notebook's code cell, parsed.
type codeCell struct {
	index int    // in the notebook's "cells"
	mode  string // "stateful" or "process": the %mode in force when it runs
	src   string
	cell  *cell.Cell
	lines []int // byte offset of each line of src
	// decls and body are the Go parts parsed as files (nil when the part
	// is empty or does not parse): decls as "package p\n" + Decls, body
	// as "package p\nfunc _() {\n" + Body + "\n}".
	decls, body *ast.File
	fset        *token.FileSet
}

// readNotebook returns the code cells of the notebook at path, each with
// the mode it runs in (a cell "%mode process" switches the cells after it).
func readNotebook(path string) ([]*codeCell, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var nb struct {
		Cells []struct {
			CellType string          `json:"cell_type"`
			Source   json.RawMessage `json:"source"`
		} `json:"cells"`
	}
	if err := json.Unmarshal(data, &nb); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	var out []*codeCell
	mode := "stateful"
	for i, c := range nb.Cells {
		if c.CellType != "code" {
			continue
		}
		src, err := sourceText(c.Source)
		if err != nil {
			return nil, fmt.Errorf("%s: cell %d: %w", path, i, err)
		}
		cc, err := parseCell(i, src)
		if err != nil {
			return nil, fmt.Errorf("%s: cell %d: %w", path, i, err)
		}
		if m, ok := cc.cell.Magic("mode"); ok && len(m.Args()) == 1 {
			mode = m.Args()[0]
		}
		cc.mode = mode
		out = append(out, cc)
	}
	return out, nil
}

// sourceText joins an nbformat source (a string or a list of lines).
func sourceText(raw json.RawMessage) (string, error) {
	var lines []string
	if err := json.Unmarshal(raw, &lines); err == nil {
		return strings.Join(lines, ""), nil
	}
	var s string
	err := json.Unmarshal(raw, &s)
	return s, err
}

// Lines of the synthetic files before the cell's text.
const (
	declsHead = "package p\n"
	bodyHead  = "package p\nfunc _() {\n"
)

// parseCell splits src as the kernel does and parses its Go parts.
func parseCell(index int, src string) (*codeCell, error) {
	c, err := cell.Parse(src)
	if err != nil {
		return nil, err
	}
	cc := &codeCell{index: index, src: src, cell: c, fset: token.NewFileSet(), lines: []int{0}}
	for i := range len(src) {
		if src[i] == '\n' {
			cc.lines = append(cc.lines, i+1)
		}
	}
	if strings.TrimSpace(c.Decls) != "" {
		cc.decls, _ = parser.ParseFile(cc.fset, "decls.go", declsHead+c.Decls, 0)
	}
	if c.HasBody && strings.TrimSpace(c.Body) != "" {
		cc.body, _ = parser.ParseFile(cc.fset, "body.go", bodyHead+c.Body+"\n}", 0)
	}
	return cc, nil
}

// offset returns the byte offset in the cell's source of pos, a position
// in one of its synthetic files.
func (cc *codeCell) offset(pos token.Pos) int { return cc.offsetOf(cc.fset.Position(pos)) }

// offsetOf returns the byte offset in the cell's source of p, a position
// in decls.go or body.go.
func (cc *codeCell) offsetOf(p token.Position) int {
	line := p.Line - 1 // decls.go: the cell's lines start on line 2
	if p.Filename == "body.go" {
		line = cc.cell.BodyLine + p.Line - 3
	}
	return cc.lines[line-1] + p.Column - 1
}

// text returns the cell's source between the positions of n.
func (cc *codeCell) text(n ast.Node) string {
	return cc.src[cc.offset(n.Pos()):cc.offset(n.End())]
}

// files returns the parsed Go parts.
func (cc *codeCell) files() []*ast.File {
	var fs []*ast.File
	for _, f := range []*ast.File{cc.decls, cc.body} {
		if f != nil {
			fs = append(fs, f)
		}
	}
	return fs
}
