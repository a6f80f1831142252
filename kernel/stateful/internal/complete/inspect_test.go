package complete

import (
	"strings"
	"testing"
)

func TestInspect(t *testing.T) {
	e := New(testIndex(t))
	syms := testSymbols(t)
	tests := []struct {
		name   string
		code   string // "|" is the cursor
		detail int
		text   string // the start of Text
		has    []string
		md     []string // in Markdown
	}{
		{name: "package-func", code: "%%\ndl.MatMulWith|", text: "func dl.MatMulWith(kern dl.MatMulKernel, a, b *dl.Tensor) *dl.Tensor",
			has: []string{"MatMulWith is MatMul"}, md: []string{"```go\nfunc dl.MatMulWith(", "MatMulWith is MatMul"}},
		{name: "inside-name", code: "%%\ndl.MatM|ulWith(a, b)", text: "func dl.MatMulWith("},
		{name: "in-call", code: "%%\ny := dl.MatMulWith(|", text: "func dl.MatMulWith("},
		{name: "in-call-args", code: "%%\nfmt.Println(1, |)", text: "func fmt.Println(a ...any) (n int, err error)"},
		{name: "session-value", code: "%%\nmodelo|", text: "var modelo *nn.MLP", has: []string{"Cell [1]", "MLP is a stack"}, md: []string{"`modelo`, from Cell [1]."}},
		{name: "session-func", code: "%%\ny := cuadrado|(2)", text: "func cuadrado(x float64) float64", has: []string{"Cell [1]"}},
		{name: "session-body-variable", code: "%%\ntensor|", text: "var tensor *dl.Tensor", has: []string{"Cell [1]"}},
		{name: "type", code: "%%\nvar m nn.MLP|", text: "type nn.MLP struct {\n\tnn.Sequential\n}", has: []string{"MLP is a stack"}},
		{name: "method-of-value", code: "%%\nmodelo.Forward|", text: "func (s *nn.Sequential) Forward(x *dl.Tensor) *dl.Tensor", has: []string{"Forward feeds x"}},
		{name: "field", code: "%%\nmodelo.Modules|", text: "field Modules []nn.Module"},
		{name: "interface-method", code: "%%\nvar m nn.Module\nm.SetTraining|", text: "func (nn.Module) SetTraining(training bool)", has: []string{"training mode"}},
		{name: "package", code: "%%\nnn|", text: "package nn // import \"github.com/dlbd/dlbd/dl/nn\"", has: []string{"Package nn holds"}, md: []string{"### Overview"}},
		{name: "builtin", code: "%%\nappend|", text: "func append(slice []Type, elems ...Type) []Type", has: []string{"appends elements"}},
		{name: "local", code: "%%\nx := dl.Ones(2)\nx|", text: "var x *dl.Tensor", has: []string{"Tensor"}},
		{name: "detail-source", code: "%%\ndl.Ones|", detail: 1, text: "func dl.Ones(dims ...int) *dl.Tensor", has: []string{"Source:\nfunc Ones(dims ...int) *Tensor {"}},
		{name: "defer", code: "%%\ndefer fmt.Println|", text: "func fmt.Println("},
		{name: "go-in-call", code: "%%\ngo dl.MatMulWith(|", text: "func dl.MatMulWith("},
		{name: "assign-targets", code: "%%\nx, modelo.Forward|", text: "func (s *nn.Sequential) Forward("},
		{name: "magic", code: "%res|et", text: "%reset", has: []string{"drop every value"}},
		{name: "std-doc-link", code: "%%\nstrings.NewReader|", md: []string{"[Reader](https://pkg.go.dev/strings#Reader)", "[bytes.NewBufferString](https://pkg.go.dev/bytes#NewBufferString)"}},
		{name: "module-doc-link", code: "%%\ndl.Ones|", md: []string{"see Options.Ones"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, cursor := at(tt.code)
			in := e.Inspect(code, cursor, tt.detail, syms)
			if !in.Found || !strings.HasPrefix(in.Text, tt.text) {
				t.Fatalf("Inspect(%q) = found %v, %q; want found, starting %q", tt.code, in.Found, in.Text, tt.text)
			}
			for _, h := range tt.has {
				if !strings.Contains(in.Text, h) {
					t.Errorf("Inspect(%q).Text = %q; want %q in it", tt.code, in.Text, h)
				}
			}
			for _, h := range tt.md {
				if !strings.Contains(in.Markdown, h) {
					t.Errorf("Inspect(%q).Markdown = %q; want %q in it", tt.code, in.Markdown, h)
				}
			}
		})
	}
}

func TestInspectNotFound(t *testing.T) {
	e := New(testIndex(t))
	syms := testSymbols(t)
	for _, code := range []string{
		"%%\nfor| {}", "%%\n// modelo|", "%%\nfmt.Println(\"modelo|\")", "%%\nnoexiste|", "%%\nx := 1 +| 2",
		"!ls mod|elo", "%%\n)))modelo.|", "%%\n%%\nmodelo|", "",
	} {
		if !strings.Contains(code, "|") {
			code += "|"
		}
		src, cursor := at(code)
		if in := e.Inspect(src, cursor, 0, syms); in.Found && code != "%%\n%%\nmodelo|" {
			t.Errorf("Inspect(%q) = %q; want not found", code, in.Text)
		}
	}
	for _, cursor := range []int{-1, 100} {
		if in := e.Inspect("modelo", cursor, 0, syms); in.Found {
			t.Errorf("Inspect(\"modelo\", %d) found %q; want not found", cursor, in.Text)
		}
	}
}
