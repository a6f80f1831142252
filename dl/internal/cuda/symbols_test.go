package cuda

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
	"strings"
	"testing"
)

// bindingFiles hold the func variables and their symbol tables.
var bindingFiles = []string{"driver.go", "nvrtc.go", "blas.go", "nccl.go"}

// TestSymbolTablesComplete reads the binding's source: every func
// variable must appear in exactly one sym/opt entry, and the entry's
// preferred C name must be the variable's name or its "_v2" version.
func TestSymbolTablesComplete(t *testing.T) {
	fset := token.NewFileSet()
	vars := map[string]bool{}
	entries := map[string][]string{} // variable -> C names
	for _, f := range bindingFiles {
		file, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(file, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.ValueSpec:
				if _, ok := n.Type.(*ast.FuncType); ok {
					for _, id := range n.Names {
						vars[id.Name] = true
					}
				}
			case *ast.CallExpr:
				fn, ok := n.Fun.(*ast.Ident)
				if !ok || (fn.Name != "sym" && fn.Name != "opt") || len(n.Args) < 2 {
					return true
				}
				v := n.Args[0].(*ast.UnaryExpr).X.(*ast.Ident).Name
				if _, dup := entries[v]; dup {
					t.Errorf("%s is bound twice", v)
				}
				for _, a := range n.Args[1:] {
					s, _ := strconv.Unquote(a.(*ast.BasicLit).Value)
					entries[v] = append(entries[v], s)
				}
			}
			return true
		})
	}
	if len(vars) < 50 {
		t.Fatalf("found only %d func variables: is the parsing broken?", len(vars))
	}
	for v := range vars {
		names, ok := entries[v]
		if !ok {
			t.Errorf("func variable %s has no entry in any symbol table: it would stay nil", v)
			continue
		}
		if names[0] != v && names[0] != v+"_v2" {
			t.Errorf("%s is bound to %q: the C name should be the variable's name or its _v2", v, names[0])
		}
	}
	for v := range entries {
		if !vars[v] {
			t.Errorf("symbol table entry for %s, which is not a func variable", v)
		}
	}
}

// versionedInHeaders lists functions that cuda.h / cublas_v2.h #define to
// a _v2 symbol; their unversioned exports have an older ABI.
var versionedInHeaders = []string{
	"cuDeviceTotalMem", "cuDevicePrimaryCtxRelease", "cuMemGetInfo", "cuMemAlloc", "cuMemFree", "cuMemsetD8",
	"cuMemsetD32", "cuMemcpyHtoD", "cuMemcpyDtoH", "cuMemcpyDtoD", "cuMemcpyHtoDAsync", "cuMemcpyDtoHAsync",
	"cuStreamDestroy", "cuEventDestroy", "cublasCreate", "cublasDestroy", "cublasSetStream", "cublasSgemm", "cublasDgemm",
	"cublasGetVersion",
}

func TestVersionedSymbolsUsed(t *testing.T) {
	all := append(append(append(append([]symbol{}, driverSymbols...), blasSymbols...), nvrtcSymbols...), ncclSymbols...)
	prefer := map[string]string{}
	for _, s := range all {
		if len(s.names) == 0 {
			t.Fatal("a symbol entry without a name")
		}
		prefer[strings.TrimSuffix(s.names[0], "_v2")] = s.names[0]
		if !bound(s.fn) && s.fn == nil {
			t.Errorf("%s: nil function pointer", s.names[0])
		}
	}
	for _, n := range versionedInHeaders {
		got, ok := prefer[n]
		if !ok {
			t.Errorf("%s is not bound at all", n)
		} else if got != n+"_v2" {
			t.Errorf("%s is bound as %q; the header maps it to %s_v2 (the plain symbol has the old ABI)", n, got, n)
		}
	}
}
