package compose

import (
	"fmt"
	"go/token"
	"go/types"
	"strconv"
	"strings"
)

// errUnnameable says that a type cannot be written in the generated
// package: it is unexported in another package, or local to a function.
type errUnnameable struct{ what string }

func (e errUnnameable) Error() string { return e.what }

// typeWriter writes types as Go source of the generated package of cell
// pkg, importing what they need through imports.
type typeWriter struct {
	h       *History
	cur     *types.Package
	local   map[types.Object]bool // objects of cur that are at package level in the generated code
	imports *fileImports
}

// write returns t as a Go type expression valid in the generated package.
func (w *typeWriter) write(t types.Type) (string, error) {
	var b strings.Builder
	err := w.to(&b, t)
	return b.String(), err
}

func (w *typeWriter) to(b *strings.Builder, t types.Type) error {
	switch t := t.(type) {
	case *types.Basic:
		if t.Kind() == types.UnsafePointer {
			b.WriteString(w.imports.name("unsafe", "unsafe") + ".Pointer")
			return nil
		}
		if t.Info()&types.IsUntyped != 0 {
			return errUnnameable{"an untyped value"}
		}
		b.WriteString(t.Name())
	case *types.Alias:
		name, err := w.object(t.Obj())
		if err != nil { // an alias nobody can name here: write what it stands for
			return w.to(b, types.Unalias(t))
		}
		b.WriteString(name)
		return w.typeArgs(b, t.TypeArgs())
	case *types.Named:
		name, err := w.object(t.Obj())
		if err != nil {
			return err
		}
		b.WriteString(name)
		return w.typeArgs(b, t.TypeArgs())
	case *types.TypeParam:
		b.WriteString(t.Obj().Name())
	case *types.Pointer:
		b.WriteByte('*')
		return w.to(b, t.Elem())
	case *types.Slice:
		b.WriteString("[]")
		return w.to(b, t.Elem())
	case *types.Array:
		fmt.Fprintf(b, "[%d]", t.Len())
		return w.to(b, t.Elem())
	case *types.Map:
		b.WriteString("map[")
		if err := w.to(b, t.Key()); err != nil {
			return err
		}
		b.WriteByte(']')
		return w.to(b, t.Elem())
	case *types.Chan:
		switch t.Dir() {
		case types.SendRecv:
			b.WriteString("chan ")
			// chan (<-chan T): without parentheses it would read chan<- chan T.
			if c, ok := t.Elem().Underlying().(*types.Chan); ok && c.Dir() == types.RecvOnly && t.Elem() == types.Type(c) {
				b.WriteByte('(')
				defer b.WriteByte(')')
			}
		case types.SendOnly:
			b.WriteString("chan<- ")
		case types.RecvOnly:
			b.WriteString("<-chan ")
		}
		return w.to(b, t.Elem())
	case *types.Signature:
		b.WriteString("func")
		return w.signature(b, t)
	case *types.Struct:
		return w.structType(b, t)
	case *types.Interface:
		return w.interfaceType(b, t)
	case *types.Union:
		for i := 0; i < t.Len(); i++ {
			if i > 0 {
				b.WriteString(" | ")
			}
			term := t.Term(i)
			if term.Tilde() {
				b.WriteByte('~')
			}
			if err := w.to(b, term.Type()); err != nil {
				return err
			}
		}
	default:
		return errUnnameable{fmt.Sprintf("type %s", t)}
	}
	return nil
}

// object returns how the generated package names the type object obj.
func (w *typeWriter) object(obj *types.TypeName) (string, error) {
	pkg := obj.Pkg()
	switch {
	case pkg == nil: // error, comparable, any
		return obj.Name(), nil
	case pkg == w.cur:
		if obj.Parent() == pkg.Scope() || w.local[obj] {
			return obj.Name(), nil
		}
		return "", errUnnameable{fmt.Sprintf("type %s is local to a function", obj.Name())}
	}
	if c := w.h.pkgs[pkg]; c != nil {
		if ref, ok := c.refs[obj]; ok {
			return w.imports.name(c.Path, c.Name) + "." + ref, nil
		}
		return "", errUnnameable{fmt.Sprintf("type %s of %v is local to a function", obj.Name(), c.Where())}
	}
	if !obj.Exported() {
		return "", errUnnameable{fmt.Sprintf("type %s.%s is not exported", pkg.Name(), obj.Name())}
	}
	return w.imports.name(pkg.Path(), pkg.Name()) + "." + obj.Name(), nil
}

func (w *typeWriter) typeArgs(b *strings.Builder, args *types.TypeList) error {
	if args.Len() == 0 {
		return nil
	}
	b.WriteByte('[')
	for i := 0; i < args.Len(); i++ {
		if i > 0 {
			b.WriteString(", ")
		}
		if err := w.to(b, args.At(i)); err != nil {
			return err
		}
	}
	b.WriteByte(']')
	return nil
}

// signature writes "(params) results" of sig.
func (w *typeWriter) signature(b *strings.Builder, sig *types.Signature) error {
	if err := w.tuple(b, sig.Params(), sig.Variadic()); err != nil {
		return err
	}
	res := sig.Results()
	switch {
	case res.Len() == 1 && res.At(0).Name() == "":
		b.WriteByte(' ')
		return w.to(b, res.At(0).Type())
	case res.Len() > 0:
		b.WriteByte(' ')
		return w.tuple(b, res, false)
	}
	return nil
}

func (w *typeWriter) tuple(b *strings.Builder, t *types.Tuple, variadic bool) error {
	b.WriteByte('(')
	for i := 0; i < t.Len(); i++ {
		if i > 0 {
			b.WriteString(", ")
		}
		v := t.At(i)
		if v.Name() != "" {
			b.WriteString(v.Name() + " ")
		}
		typ := v.Type()
		if variadic && i == t.Len()-1 {
			b.WriteString("...")
			typ = typ.(*types.Slice).Elem()
		}
		if err := w.to(b, typ); err != nil {
			return err
		}
	}
	b.WriteByte(')')
	return nil
}

func (w *typeWriter) structType(b *strings.Builder, s *types.Struct) error {
	b.WriteString("struct{")
	for i := 0; i < s.NumFields(); i++ {
		if i > 0 {
			b.WriteString("; ")
		}
		f := s.Field(i)
		if !f.Exported() && f.Pkg() != w.cur {
			// The field's name belongs to its package: the same struct
			// written here would be another type.
			return errUnnameable{fmt.Sprintf("a struct type with the unexported field %s of package %s", f.Name(), f.Pkg().Name())}
		}
		if !f.Embedded() {
			b.WriteString(f.Name() + " ")
		}
		if err := w.to(b, f.Type()); err != nil {
			return err
		}
		if tag := s.Tag(i); tag != "" {
			b.WriteString(" " + strconv.Quote(tag))
		}
	}
	b.WriteByte('}')
	return nil
}

func (w *typeWriter) interfaceType(b *strings.Builder, it *types.Interface) error {
	if it.IsImplicit() && it.NumEmbeddeds() == 1 { // a constraint written as ~int | ~float64
		return w.to(b, it.EmbeddedType(0))
	}
	b.WriteString("interface{")
	n := 0
	sep := func() {
		if n > 0 {
			b.WriteString("; ")
		}
		n++
	}
	for i := 0; i < it.NumEmbeddeds(); i++ {
		sep()
		if err := w.to(b, it.EmbeddedType(i)); err != nil {
			return err
		}
	}
	for i := 0; i < it.NumExplicitMethods(); i++ {
		m := it.ExplicitMethod(i)
		if !m.Exported() && m.Pkg() != w.cur {
			return errUnnameable{fmt.Sprintf("an interface with the unexported method %s of package %s", m.Name(), m.Pkg().Name())}
		}
		sep()
		b.WriteString(m.Name())
		if err := w.signature(b, m.Type().(*types.Signature)); err != nil {
			return err
		}
	}
	b.WriteByte('}')
	return nil
}

// typeParams writes "[T any, U ~int]" for list, or nothing when it is empty.
func (w *typeWriter) typeParams(b *strings.Builder, list *types.TypeParamList) error {
	if list.Len() == 0 {
		return nil
	}
	b.WriteByte('[')
	for i := 0; i < list.Len(); i++ {
		if i > 0 {
			b.WriteString(", ")
		}
		tp := list.At(i)
		b.WriteString(tp.Obj().Name() + " ")
		if err := w.to(b, tp.Constraint()); err != nil {
			return err
		}
	}
	b.WriteByte(']')
	return nil
}

// fileImports allocates the names under which the generated file imports
// packages: the cell's own import names where it has one, otherwise the
// package name, made unique against every identifier the cell uses.
type fileImports struct {
	byPath map[string]string // import path -> name in the file
	added  []string          // paths imported by the generator, in order
	taken  map[string]bool   // identifiers the file uses or declares
}

// name returns the file's name for the package at path, whose package
// clause names it pkgName, importing it if the file does not yet.
func (fi *fileImports) name(path, pkgName string) string {
	if n, ok := fi.byPath[path]; ok {
		return n
	}
	n := pkgName
	for i := 2; fi.taken[n] || !token.IsIdentifier(n); i++ {
		n = fmt.Sprintf("%s_%d", pkgName, i)
	}
	fi.taken[n] = true
	fi.byPath[path] = n
	fi.added = append(fi.added, path)
	return n
}
