package compose

import (
	"fmt"
	"go/ast"
	"go/types"
	"sort"
	"strings"
)

// rewriteReferences makes every identifier that denotes an earlier cell's
// object refer into that cell's package. An embedded field keeps its name
// through a local alias, which it returns as declarations.
func (u *unit) rewriteReferences() string {
	embedded := map[*ast.Ident]bool{}
	for id, obj := range u.info.Defs {
		if v, ok := obj.(*types.Var); ok && v.Embedded() {
			embedded[id] = true
		}
	}
	var aliases strings.Builder
	aliased := map[string]bool{}
	ids := make([]*ast.Ident, 0, len(u.info.Uses))
	for id := range u.info.Uses {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i].Pos() < ids[j].Pos() })
	for _, id := range ids {
		obj := u.info.Uses[id]
		if _, ok := u.hist[obj]; !ok {
			continue
		}
		ref := u.reference(obj)
		if embedded[id] {
			// struct{ Model } must keep the field name Model.
			if !aliased[id.Name] {
				aliased[id.Name] = true
				w := u.writer(nil)
				var tp strings.Builder
				if tn, ok := obj.(*types.TypeName); ok {
					if n, ok := tn.Type().(interface{ TypeParams() *types.TypeParamList }); ok && n.TypeParams().Len() > 0 {
						w.typeParams(&tp, n.TypeParams())
						ref += "[" + typeParamNames(n.TypeParams()) + "]"
					}
				}
				fmt.Fprintf(&aliases, "type %s%s = %s\n", id.Name, tp.String(), ref)
			}
			continue
		}
		start := u.lay.offset(u.h.fset, id.Pos())
		u.ed.replace(start, start+len(id.Name), ref)
	}
	return aliases.String()
}

// reference returns the expression that reaches an earlier cell's object.
func (u *unit) reference(obj types.Object) string {
	c := u.h.owner[obj]
	ref := u.imports.name(c.Path, c.Name) + "." + c.refs[obj]
	if _, ok := obj.(*types.Var); ok && !obj.Exported() {
		return "(*" + ref + ")"
	}
	return ref
}

func typeParamNames(list *types.TypeParamList) string {
	names := make([]string, list.Len())
	for i := range names {
		names[i] = list.At(i).Obj().Name()
	}
	return strings.Join(names, ", ")
}
