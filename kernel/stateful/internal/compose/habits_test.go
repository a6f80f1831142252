package compose

import (
	"slices"
	"strings"
	"testing"
)

func TestComposeHabitHints(t *testing.T) {
	s := newSession(t)
	tests := []struct{ name, cell, want string }{
		{name: "unused-loop-variable", cell: "%%\nfor step := range 1000000 {\n}",
			want: "Line 2: declared and not used: step (pista: si el bucle no usa step, escribe for range 1000000: repite sin variable)"},
		{name: "unused-index", cell: "%%\nfor i, v := range []int{1} {\n\tfmt.Println(v)\n}",
			want: "declared and not used: i (pista: si no usas el índice, escribe _ en su lugar: for _, v := range []int{1})"},
		{name: "unused-value", cell: "%%\nfor i, v := range []int{1} {\n\tfmt.Println(i)\n}",
			want: "declared and not used: v (pista: si no usas el valor, quítalo: for i := range []int{1})"},
		{name: "unused-variable", cell: "%%\nif true {\n\ty := 2\n}",
			want: "declared and not used: y (pista: Go no admite variables sin usar: usa y (por ejemplo, fmt.Println(y)), bórrala o escribe _ en lugar de su nombre)"},
		{name: "value-not-last", cell: "%%\nx := 1\nx\nfmt.Println(2)",
			want: "Line 3: x (variable of type int) is not used (pista: Go no admite un valor suelto en una línea; para verlo, imprímelo con fmt.Println(x) o ponlo en la última línea de la celda, que muestra su valor)"},
		{name: "value-in-a-block", cell: "%%\nfor i := range 2 {\n\ti * 2\n}",
			want: "i * 2 (value of type int) is not used (pista: Go no admite un valor suelto en una línea; para verlo, imprímelo con fmt.Println(i * 2))"},
		{name: "statement-without-body", cell: "x := 1",
			want: "Line 1: expected declaration, found x (pista: fuera de una función Go solo admite declaraciones; escribe una línea %% antes de las sentencias"},
		{name: "statement-above-body", cell: "x := 1\n%%\nfmt.Println(x)",
			want: "expected declaration, found x (pista: fuera de una función Go solo admite declaraciones; las sentencias, como x := 1, van después de la línea %%)"},
		// What the last line cannot show keeps Go's error.
		{name: "last-line-type", cell: "%%\nint", want: "int (type) is not an expression"},
		{name: "last-line-builtin-not-called", cell: "%%\nlen", want: "len (built-in) must be called"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := s.compose(tt.cell)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Compose(%q) = %v; want an error with %q", tt.cell, err, tt.want)
			}
		})
	}
}

func TestHistoryCellsToRunAgain(t *testing.T) {
	s := newSession(t)
	s.h.Completed(s.must("%%\na := 1\nb := 2"))
	s.must("%%\nc := 3\npanic(c)") // committed, as a cell that panicked is
	s.h.Completed(s.must("%%\nb := 4"))
	s.must("%%\na := 5") // shadows the a of cell 1, which keeps no other name
	if got, want := s.h.Cells(), []int{3}; !slices.Equal(got, want) {
		t.Errorf("Cells() = %v; want %v (cells 2 and 4 did not complete; cell 1's names are all shadowed)", got, want)
	}
	var names []string
	for _, sym := range s.h.Unfinished() {
		names = append(names, sym.Name)
	}
	if got, want := strings.Join(names, " "), "a c"; got != want {
		t.Errorf("Unfinished() = %q; want %q", got, want)
	}
}
