package complete

import (
	"fmt"
	"go/types"
	"strings"
	"text/tabwriter"

	"github.com/dlbd/dlbd/kernel/internal/cellpos"
)

// qualify writes a package by name ("dl"), and the session's cell
// packages not at all: their names are the notebook's own.
func qualify(p *types.Package) string {
	if p == nil || strings.HasPrefix(p.Path(), cellpos.Module+"/") {
		return ""
	}
	return p.Name()
}

// typeString writes t with packages by name.
func typeString(t types.Type) string { return types.TypeString(t, qualify) }

// qualifiedName writes obj's name after its package's: "dl.Ones".
func qualifiedName(obj types.Object) string {
	if q := qualify(obj.Pkg()); q != "" && obj.Parent() == obj.Pkg().Scope() {
		return q + "." + obj.Name()
	}
	return obj.Name()
}

// kindOf says what obj is, for a match.
func kindOf(obj types.Object) Kind {
	switch o := obj.(type) {
	case *types.Func:
		if o.Signature().Recv() != nil {
			return KindMethod
		}
		return KindFunction
	case *types.Builtin:
		return KindFunction
	case *types.Var:
		if o.IsField() {
			return KindField
		}
		return KindVariable
	case *types.Const, *types.Nil:
		return KindConstant
	case *types.TypeName:
		return KindType
	case *types.PkgName:
		return KindPackage
	}
	return KindVariable
}

// signatureOf writes obj's type for a match: a function's type
// ("func(a, b *dl.Tensor) *dl.Tensor"), a variable's, what a type is
// ("struct", "uint8"), a constant's type and value, a package's path.
func signatureOf(obj types.Object) string {
	switch o := obj.(type) {
	case *types.Func:
		return "func" + signature(o.Signature())
	case *types.Builtin:
		return "builtin"
	case *types.Const:
		return typeString(o.Type()) + " = " + o.Val().String()
	case *types.TypeName:
		if o.IsAlias() {
			return "= " + typeString(types.Unalias(o.Type()))
		}
		switch u := o.Type().Underlying().(type) {
		case *types.Struct:
			return "struct"
		case *types.Interface:
			return "interface"
		default:
			return typeString(u)
		}
	case *types.PkgName:
		return o.Imported().Path()
	case *types.Nil:
		return "untyped nil"
	}
	return typeString(obj.Type())
}

// signature writes a function's type parameters, parameters and results
// as Go does, consecutive parameters of one type grouped: "(a, b *dl.Tensor)
// *dl.Tensor".
func signature(sig *types.Signature) string {
	var b strings.Builder
	if tps := sig.TypeParams(); tps != nil && tps.Len() > 0 {
		b.WriteString("[")
		for i := range tps.Len() {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(tps.At(i).Obj().Name() + " " + typeString(tps.At(i).Constraint()))
		}
		b.WriteString("]")
	}
	b.WriteString(tuple(sig.Params(), sig.Variadic()))
	res := sig.Results()
	switch {
	case res.Len() == 1 && res.At(0).Name() == "":
		b.WriteString(" " + typeString(res.At(0).Type()))
	case res.Len() > 0:
		b.WriteString(" " + tuple(res, false))
	}
	return b.String()
}

// tuple writes a parameter list, the last one "...T" when variadic.
func tuple(t *types.Tuple, variadic bool) string {
	var b strings.Builder
	b.WriteString("(")
	for i := range t.Len() {
		v := t.At(i)
		if i > 0 {
			b.WriteString(", ")
		}
		last := variadic && i == t.Len()-1
		if v.Name() != "" {
			b.WriteString(v.Name())
			if next := i + 1; next < t.Len() && t.At(next).Name() != "" && !(variadic && next == t.Len()-1) &&
				types.Identical(v.Type(), t.At(next).Type()) {
				continue // "a, b T"
			}
			b.WriteString(" ")
		}
		if s, ok := v.Type().(*types.Slice); ok && last {
			b.WriteString("..." + typeString(s.Elem()))
		} else {
			b.WriteString(typeString(v.Type()))
		}
	}
	b.WriteString(")")
	return b.String()
}

// maxFields is how many fields or methods a type's declaration shows at
// detail level 0.
const maxFields = 12

// declaration writes obj as Go declares it, packages by name: "func
// dl.MatMulWith(kern dl.MatMulKernel, a, b *dl.Tensor) *dl.Tensor", "var x
// *dl.Tensor", "type nn.MLP struct {...}" (fields and methods after the
// first maxFields left out, unless detail is 1).
func declaration(obj types.Object, detail int) string {
	switch o := obj.(type) {
	case *types.Func:
		sig := o.Signature()
		if r := sig.Recv(); r != nil {
			recv := typeString(r.Type())
			if r.Name() != "" && r.Name() != "_" {
				recv = r.Name() + " " + recv
			}
			return "func (" + recv + ") " + o.Name() + signature(sig)
		}
		return "func " + qualifiedName(o) + signature(sig)
	case *types.Var:
		if o.IsField() {
			return "field " + o.Name() + " " + typeString(o.Type())
		}
		return "var " + qualifiedName(o) + " " + typeString(o.Type())
	case *types.Const:
		return "const " + qualifiedName(o) + " " + signatureOf(o)
	case *types.TypeName:
		return typeDeclaration(o, detail)
	case *types.PkgName:
		return fmt.Sprintf("package %s // import %q", o.Imported().Name(), o.Imported().Path())
	}
	return obj.String()
}

// typeDeclaration writes a type's declaration; a struct's exported fields
// or an interface's methods one a line.
func typeDeclaration(tn *types.TypeName, detail int) string {
	head := "type " + qualifiedName(tn)
	if tn.IsAlias() {
		return head + " = " + typeString(types.Unalias(tn.Type()))
	}
	if n, ok := tn.Type().(*types.Named); ok && n.TypeParams().Len() > 0 {
		var tps []string
		for i := range n.TypeParams().Len() {
			tp := n.TypeParams().At(i)
			tps = append(tps, tp.Obj().Name()+" "+typeString(tp.Constraint()))
		}
		head += "[" + strings.Join(tps, ", ") + "]"
	}
	var lines []string
	hidden := 0
	switch u := tn.Type().Underlying().(type) {
	case *types.Struct:
		head += " struct"
		for i := range u.NumFields() {
			f := u.Field(i)
			switch {
			case !f.Exported() && f.Pkg() != nil && qualify(f.Pkg()) != "":
				hidden++
			case f.Embedded():
				lines = append(lines, typeString(f.Type()))
			default:
				lines = append(lines, f.Name()+"\t"+typeString(f.Type()))
			}
		}
	case *types.Interface:
		head += " interface"
		for i := range u.NumMethods() {
			m := u.Method(i)
			lines = append(lines, m.Name()+signature(m.Signature()))
		}
	default:
		return head + " " + typeString(u)
	}
	if detail == 0 && len(lines) > maxFields {
		lines = append(lines[:maxFields], fmt.Sprintf("// ... and %d more", len(lines)-maxFields))
	}
	if hidden > 0 {
		lines = append(lines, fmt.Sprintf("// %d unexported fields", hidden))
	}
	var cols strings.Builder
	tw := tabwriter.NewWriter(&cols, 1, 4, 1, ' ', 0)
	for _, l := range lines {
		fmt.Fprintln(tw, l)
	}
	tw.Flush()
	var b strings.Builder
	b.WriteString(head + " {\n")
	for _, l := range strings.SplitAfter(cols.String(), "\n") {
		if l != "" {
			b.WriteString("\t" + l)
		}
	}
	b.WriteString("}")
	return b.String()
}
