package compose

import (
	"errors"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"strings"

	"github.com/dlbd/dlbd/kernel/internal/cellpos"
)

// parse builds the layout with the cell's imports and the ones it needs
// but does not write, and parses it.
func (u *unit) parse() error {
	first := build(u.in.Name, u.file, u.in.Decls, u.in.Body, u.in.BodyLine, u.in.HasBody, false, nil)
	f, err := parser.ParseFile(u.h.fset, u.file+".go", first.src, parser.ParseComments|parser.AllErrors)
	if err := u.syntaxErrors(err); err != nil {
		return err
	}
	callMain := false
	var imports []importSpec
	decls := []byte(u.in.Decls)
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.GenDecl:
			if d.Tok != token.IMPORT {
				continue
			}
			for _, s := range d.Specs {
				s := s.(*ast.ImportSpec)
				pos := u.h.fset.Position(s.Pos())
				spec := importSpec{path: strings.Trim(s.Path.Value, "`\""), line: pos.Line, col: pos.Column}
				if s.Name != nil {
					spec.name = s.Name.Name
				}
				imports = append(imports, spec)
			}
			// The imports move to the file's header; blanking them here
			// keeps the lines of what follows.
			start, end := first.offset(u.h.fset, d.Pos())-first.declStart, first.offset(u.h.fset, d.End())-first.declStart
			copy(decls[start:end], blanked(decls[start:end]))
		case *ast.FuncDecl:
			if d.Recv == nil && d.Name.Name == "main" && !u.in.HasBody {
				callMain = true
			}
		}
	}
	imports = append(imports, u.missingImports(f, imports)...)
	u.lay = build(u.in.Name, u.file, string(decls), u.in.Body, u.in.BodyLine, u.in.HasBody, callMain, imports)
	u.ast, err = parser.ParseFile(u.h.fset, u.file+".go", u.lay.src, parser.ParseComments|parser.AllErrors|parser.SkipObjectResolution)
	if err := u.syntaxErrors(err); err != nil {
		return err
	}
	for _, d := range u.ast.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.Name == cellpos.RunFunc && u.h.fset.Position(fd.Pos()).Filename == cellpos.GeneratedFile {
			u.body = fd
		}
	}
	return nil
}

// offset returns the byte offset of pos in l.src.
func (l *layout) offset(fset *token.FileSet, pos token.Pos) int { return fset.File(pos).Offset(pos) }

// syntaxErrors turns the parser's errors into problems, except the one
// about imports after declarations: a cell may import anywhere, the
// imports move to the top.
func (u *unit) syntaxErrors(err error) error {
	var list scanner.ErrorList
	if !errors.As(err, &list) {
		return nil
	}
	for _, e := range list {
		if strings.Contains(e.Msg, "imports must appear before other declarations") {
			continue
		}
		msg := e.Msg
		if strings.HasPrefix(msg, "expected declaration") && e.Pos.Filename == u.file {
			msg += statementsHint(u.in.HasBody)
		}
		u.problem(e.Pos, msg)
	}
	if len(u.errs) == 0 {
		return nil
	}
	return u.fail()
}
