package jupyter

import (
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/dlbd/dlbd/kernel/internal/kerneltest"
)

// inspectedPackages are the packages whose every exported name
// BenchmarkInspectionExports inspects: dlbd's own, read from the
// checkout, and the standard library's that the course uses most.
var inspectedPackages = []string{
	"github.com/dlbd/dlbd/dl",
	"github.com/dlbd/dlbd/dl/nn",
	"github.com/dlbd/dlbd/dl/optim",
	"github.com/dlbd/dlbd/viz",
	"fmt",
	"math",
	"strings",
}

// exportedNames returns the exported top-level names of the package at
// importPath (its files for this platform, tests left out), sorted.
func exportedNames(tb testing.TB, importPath string) []string {
	tb.Helper()
	dir := filepath.Join(build.Default.GOROOT, "src", importPath)
	if rest, ok := strings.CutPrefix(importPath, "github.com/dlbd/dlbd/"); ok {
		dir = filepath.Join(kerneltest.RepoRoot(tb), rest)
	}
	pkg, err := build.Default.ImportDir(dir, 0)
	if err != nil {
		tb.Fatalf("%s: %v", importPath, err)
	}
	var names []string
	fset := token.NewFileSet()
	for _, name := range append(pkg.GoFiles, pkg.CgoFiles...) {
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.SkipObjectResolution)
		if err != nil {
			tb.Fatal(err)
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil && d.Name.IsExported() {
					names = append(names, d.Name.Name)
				}
			case *ast.GenDecl:
				for _, sp := range d.Specs {
					switch sp := sp.(type) {
					case *ast.TypeSpec:
						if sp.Name.IsExported() {
							names = append(names, sp.Name.Name)
						}
					case *ast.ValueSpec:
						for _, id := range sp.Names {
							if id.IsExported() {
								names = append(names, id.Name)
							}
						}
					}
				}
			}
		}
	}
	sort.Strings(names)
	return names
}

// BenchmarkInspectionExports sends inspect_request (Shift+Tab) on
// "pkg.Name" at the end of a body cell that imports pkg, for every
// exported name of inspectedPackages, and reports the share answered with
// the name's declaration (found-%, goal 90) and the reply latency's median
// and 95th percentile (goal 150 ms). One op is one pass over the names.
func BenchmarkInspectionExports(b *testing.B) {
	type query struct{ pkg, name, code string }
	var queries []query
	for _, p := range inspectedPackages {
		for _, name := range exportedNames(b, p) {
			sel := path.Base(p) + "." + name
			queries = append(queries, query{pkg: p, name: name, code: fmt.Sprintf("import %q\n%%%%\n%s", p, sel)})
		}
	}
	c := startClient(b, dlbdSpec(b, "stateful"), 2*time.Minute)
	ctx := kerneltest.Context(b, 10*time.Minute)
	if _, err := c.Execute(ctx, "%%\nfmt.Println(1)"); err != nil {
		b.Fatal(err)
	}
	st := newAssistStats()
	b.ResetTimer()
	for range b.N {
		for _, q := range queries {
			t0 := time.Now()
			r, err := c.Inspect(ctx, q.code, utf8.RuneCountInString(q.code), 0)
			d := time.Since(t0)
			if err != nil {
				b.Fatalf("Inspect(%q): %v", q.code, err)
			}
			text, _ := r.Data["text/plain"].(string)
			st.record(q.pkg, d, r.Found && strings.Contains(text, q.name),
				fmt.Sprintf("%s.%s: found %v, %.80q", path.Base(q.pkg), q.name, r.Found, text))
		}
	}
	b.StopTimer()
	b.Logf("%d names; %s", len(queries), st.summary())
	for _, m := range st.misses[:min(len(st.misses), 40)] {
		b.Log("miss: " + m)
	}
	b.ReportMetric(st.share(), "found-%")
	b.ReportMetric(st.percentile(50), "p50-ms")
	b.ReportMetric(st.percentile(95), "p95-ms")
}
