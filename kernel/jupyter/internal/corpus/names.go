package corpus

import (
	"go/ast"
	"go/token"
	"strings"
)

// scope is what a notebook's cells declare, for telling packages from
// values.
type scope struct {
	decls    map[string]int // top-level declarations -> cell index (the last one)
	bodyVars map[string]int // names a body declares at its top level -> cell index
}

// newScope records the declarations of cells.
func newScope(cells []*codeCell) *scope {
	s := &scope{decls: map[string]int{}, bodyVars: map[string]int{}}
	for _, cc := range cells {
		if cc.decls != nil {
			for name := range cc.decls.Scope.Objects {
				s.decls[name] = cc.index
			}
		}
		if cc.body != nil {
			for _, name := range topLevelNames(cc.body) {
				s.bodyVars[name] = cc.index
			}
		}
	}
	return s
}

// topLevelNames returns the names the body of body.go's func declares at
// its top level (x := ..., var x, const x): they live on in the stateful
// mode.
func topLevelNames(body *ast.File) []string {
	var names []string
	fn := body.Decls[len(body.Decls)-1].(*ast.FuncDecl)
	for _, st := range fn.Body.List {
		switch st := st.(type) {
		case *ast.AssignStmt:
			if st.Tok == token.DEFINE {
				for _, e := range st.Lhs {
					if id, ok := e.(*ast.Ident); ok && id.Name != "_" {
						names = append(names, id.Name)
					}
				}
			}
		case *ast.DeclStmt:
			for _, sp := range st.Decl.(*ast.GenDecl).Specs {
				if vs, ok := sp.(*ast.ValueSpec); ok {
					for _, id := range vs.Names {
						names = append(names, id.Name)
					}
				}
			}
		}
	}
	return names
}

// builtins are Go's predeclared names.
var builtins = map[string]bool{}

func init() {
	for _, n := range strings.Fields(`any append bool byte cap clear close complex complex64 complex128
		comparable copy delete error false float32 float64 imag int int8 int16 int32 int64 iota len make
		max min new nil panic print println real recover rune string true uint uint8 uint16 uint32 uint64 uintptr`) {
		builtins[n] = true
	}
}
