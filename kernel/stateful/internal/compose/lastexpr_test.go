package compose

import (
	"strings"
	"testing"
)

func TestComposeLastExpression(t *testing.T) {
	if testing.Short() {
		t.Skip("builds packages")
	}
	s := newSession(t)
	s.must("type Punto struct{ X, Y int }\nfunc nada() {}\nfunc dos() (int, string) { return 1, \"a\" }\nvar guardado = 7")
	tests := []struct {
		name, cell string
		want       []string // in the generated source
		notWant    []string
	}{
		{name: "name", cell: "%%\nx := 3\nx", want: []string{"kernel.ShowResult(x)"}},
		{name: "selector", cell: "%%\np := Punto{X: 1, Y: 2}\np.X", want: []string{"kernel.ShowResult(p.X)"}},
		{name: "earlier-cell-variable", cell: "%%\nguardado", want: []string{"kernel.ShowResult((*cell1.Dlbd_guardado))"}},
		{name: "expression", cell: "%%\nguardado * 2 + len(\"ab\")", want: []string{"kernel.ShowResult((*cell1.Dlbd_guardado) * 2 + len(\"ab\"))"}},
		{name: "call-with-result", cell: "%%\nmath.Sqrt(2)", want: []string{"kernel.ShowResult(math.Sqrt(2))"}},
		{name: "conversion", cell: "%%\nfloat64(guardado)", want: []string{"kernel.ShowResult(float64((*cell1.Dlbd_guardado)))"}},
		{name: "call-without-result", cell: "%%\nnada()", notWant: []string{"ShowResult"}},
		{name: "println", cell: "%%\nfmt.Println(1)", notWant: []string{"ShowResult"}},
		{name: "multi-value", cell: "%%\ndos()", notWant: []string{"ShowResult"}},
		{name: "receive", cell: "%%\nch := make(chan int, 1)\nch <- 1\n<-ch", notWant: []string{"ShowResult"}},
		{name: "semicolon-name", cell: "%%\ny := 1\ny;", want: []string{"_ = y;"}, notWant: []string{"ShowResult"}},
		{name: "semicolon-call", cell: "%%\nmath.Sqrt(2); // sin mostrar", want: []string{"\nmath.Sqrt(2); // sin mostrar"}, notWant: []string{"ShowResult", "_ ="}},
		{name: "not-last", cell: "%%\nmath.Sqrt(2)\nnada()", notWant: []string{"ShowResult"}},
		{name: "main-without-body", cell: "func main() { fmt.Println(1) }", notWant: []string{"ShowResult"}},
		{name: "kernel-name-taken", cell: "%%\nkernel := \"k\"\nkernel", want: []string{"kernel_2.ShowResult(kernel)", "kernel_2 \"github.com/dlbd/dlbd/kernel\""}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := string(s.must(tt.cell).Source)
			for _, w := range tt.want {
				if !strings.Contains(src, w) {
					t.Errorf("Compose(%q): source lacks %q:\n%s", tt.cell, w, src)
				}
			}
			for _, w := range tt.notWant {
				if strings.Contains(src, w) {
					t.Errorf("Compose(%q): source has %q:\n%s", tt.cell, w, src)
				}
			}
		})
	}
	// x, shown on the last line of the cell that declared it, lives on.
	if src := string(s.must("%%\nx + 1").Source); !strings.Contains(src, "kernel.ShowResult((*cell2.Dlbd_x) + 1)") {
		t.Errorf("x of an earlier cell shown: %s", src)
	}
	s.build()
}
