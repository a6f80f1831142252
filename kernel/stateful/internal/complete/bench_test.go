package complete

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// benchSymbols returns the names of a session of 30 cells: tensors,
// models, functions and types, each from its own cell.
func benchSymbols(b *testing.B) []Symbol {
	b.Helper()
	var src strings.Builder
	src.WriteString("package cells\n\nimport (\n\t\"github.com/dlbd/dlbd/dl\"\n\t\"github.com/dlbd/dlbd/dl/nn\"\n)\n\n")
	for i := range 30 {
		switch i % 5 {
		case 0:
			fmt.Fprintf(&src, "var x%d = dl.Ones(2, 3)\n", i)
		case 1:
			fmt.Fprintf(&src, "var modelo%d = nn.NewMLP([]int{2, 3, 1}, nn.MLPConfig{})\n", i)
		case 2:
			fmt.Fprintf(&src, "func paso%d(m *nn.MLP, x *dl.Tensor) *dl.Tensor { return m.Forward(x) }\n", i)
		case 3:
			fmt.Fprintf(&src, "type Capa%d struct{ W, B *dl.Tensor }\n", i)
		case 4:
			fmt.Fprintf(&src, "const tasa%d = 0.01\n", i)
		}
	}
	src.WriteString("var modelo = nn.NewMLP([]int{4, 8, 2}, nn.MLPConfig{})\n")
	pkg, _ := checkCell(b, "cells", src.String())
	var syms []Symbol
	for i, name := range pkg.Scope().Names() {
		syms = append(syms, Symbol{Name: name, Object: pkg.Scope().Lookup(name), Cell: i + 1})
	}
	return syms
}

// longCell is a cell of 40 lines, the cursor at its end.
var longCell = func() string {
	var b strings.Builder
	b.WriteString("import \"fmt\"\n\nfunc f(t *dl.Tensor) *dl.Tensor { return t.MulScalar(2) }\n%%\n")
	for i := range 36 {
		fmt.Fprintf(&b, "y%d := f(x0).Add(dl.Ones(2, 3))\n", i)
	}
	b.WriteString("fmt.Println(y35.|")
	return b.String()
}()

// BenchmarkComplete measures a completion and an inspection in a session
// of 30 cells, warm (the packages' types and docs read once), and reports
// the median and 95th percentile latency.
func BenchmarkComplete(b *testing.B) {
	e := New(testIndex(b))
	syms := benchSymbols(b)
	cases := []struct {
		name, code string
		inspect    bool
	}{
		{name: "op=complete/at=session-value", code: "%%\nmodelo.|"},
		{name: "op=complete/at=package", code: "%%\ndl.|"},
		{name: "op=complete/at=chain", code: "%%\nh := dl.Ones(2).MatMul(x0)\nh.T().|"},
		{name: "op=complete/at=name", code: "%%\nvalor := 1\nmo|"},
		{name: "op=complete/at=long-cell", code: longCell},
		{name: "op=inspect/at=package-func", code: "%%\ndl.MatMulWith(|", inspect: true},
		{name: "op=inspect/at=session-value", code: "%%\nmodelo|", inspect: true},
	}
	for _, bc := range cases {
		code, cursor := at(bc.code)
		run := func() {
			if bc.inspect {
				e.Inspect(code, cursor, 0, syms)
			} else {
				e.Complete(code, cursor, syms)
			}
		}
		b.Run(bc.name, func(b *testing.B) {
			run() // warm: the packages' export data and docs
			var took []time.Duration
			for b.Loop() {
				t0 := time.Now()
				run()
				took = append(took, time.Since(t0))
			}
			slices.Sort(took)
			ms := func(q float64) float64 { return float64(took[int(q*float64(len(took)-1))]) / 1e6 }
			b.ReportMetric(ms(0.5), "p50-ms")
			b.ReportMetric(ms(0.95), "p95-ms")
		})
	}
}
