package compose

import (
	"fmt"
	"go/token"
	"go/types"
	"sort"
	"strings"

	"github.com/dlbd/dlbd/kernel/internal/cellpos"
)

// objects returns what the cell declares, in source order: its
// package-level names and the body's lifted ones.
func (u *unit) objects(lifted []*types.Var) []types.Object {
	var out []types.Object
	scope := u.pkg.Scope()
	for _, name := range scope.Names() {
		obj := scope.Lookup(name)
		if _, earlier := u.hist[obj]; earlier || obj.Name() == cellpos.RunFunc || obj.Name() == "_" {
			continue
		}
		if f, ok := obj.(*types.Func); ok && f.Name() == "init" {
			continue
		}
		out = append(out, obj)
	}
	if bs := u.bodyScope(); bs != nil {
		for _, name := range bs.Names() {
			switch obj := bs.Lookup(name).(type) {
			case *types.TypeName, *types.Const:
				if obj.Name() != "_" {
					out = append(out, obj)
				}
			}
		}
	}
	for _, v := range lifted {
		out = append(out, v)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Pos() < out[j].Pos() })
	return out
}

func kindOf(obj types.Object) Kind {
	switch obj.(type) {
	case *types.Var:
		return Var
	case *types.Const:
		return Const
	case *types.TypeName:
		return Type
	}
	return Func
}

// handle returns the exported identifier that reaches obj from later
// cells, and the declaration that makes it when obj is unexported.
func (u *unit) handle(w *typeWriter, obj types.Object) (ref, decl string, err error) {
	if obj.Exported() {
		return obj.Name(), "", nil
	}
	ref = handlePrefix + obj.Name()
	switch obj := obj.(type) {
	case *types.Var:
		return ref, fmt.Sprintf("var %s = &%s\n", ref, obj.Name()), nil
	case *types.Const:
		return ref, fmt.Sprintf("const %s = %s\n", ref, obj.Name()), nil
	case *types.TypeName:
		if n, ok := obj.Type().(interface{ TypeParams() *types.TypeParamList }); ok && n.TypeParams().Len() > 0 && !obj.IsAlias() {
			var tp strings.Builder
			if err := w.typeParams(&tp, n.TypeParams()); err != nil {
				return "", "", fmt.Errorf("compose: type parameters of %s: %w", obj.Name(), err)
			}
			return ref, fmt.Sprintf("type %s%s = %s[%s]\n", ref, tp.String(), obj.Name(), typeParamNames(n.TypeParams())), nil
		}
		return ref, fmt.Sprintf("type %s = %s\n", ref, obj.Name()), nil
	case *types.Func:
		sig := obj.Type().(*types.Signature)
		if sig.TypeParams().Len() == 0 {
			return ref, fmt.Sprintf("var %s = %s\n", ref, obj.Name()), nil
		}
		decl, err := u.genericWrapper(w, ref, obj.Name(), sig)
		return ref, decl, err
	}
	return "", "", fmt.Errorf("compose: no handle for %s (%T)", obj.Name(), obj)
}

// genericWrapper writes an exported generic function ref that calls the
// unexported generic function name with the same type parameters and
// arguments: generic functions have no values, so a variable cannot hold
// one.
func (u *unit) genericWrapper(w *typeWriter, ref, name string, sig *types.Signature) (string, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "func %s", ref)
	if err := w.typeParams(&b, sig.TypeParams()); err != nil {
		return "", fmt.Errorf("compose: type parameters of %s: %w", name, err)
	}
	params := sig.Params()
	args := make([]string, params.Len())
	b.WriteByte('(')
	for i := range args {
		if i > 0 {
			b.WriteString(", ")
		}
		args[i] = fmt.Sprintf("p%d", i)
		typ := params.At(i).Type()
		if sig.Variadic() && i == len(args)-1 {
			b.WriteString(args[i] + " ...")
			typ = typ.(*types.Slice).Elem()
			args[i] += "..."
		} else {
			b.WriteString(args[i] + " ")
		}
		if err := w.to(&b, typ); err != nil {
			return "", fmt.Errorf("compose: parameters of %s: %w", name, err)
		}
	}
	b.WriteByte(')')
	if res := sig.Results(); res.Len() > 0 {
		b.WriteByte(' ')
		var plain []*types.Var
		for i := 0; i < res.Len(); i++ {
			plain = append(plain, types.NewVar(token.NoPos, nil, "", res.At(i).Type()))
		}
		if err := w.tuple(&b, types.NewTuple(plain...), false); err != nil {
			return "", fmt.Errorf("compose: results of %s: %w", name, err)
		}
	}
	call := fmt.Sprintf("%s[%s](%s)", name, typeParamNames(sig.TypeParams()), strings.Join(args, ", "))
	if sig.Results().Len() > 0 {
		call = "return " + call
	}
	fmt.Fprintf(&b, " { %s }\n", call)
	return b.String(), nil
}
