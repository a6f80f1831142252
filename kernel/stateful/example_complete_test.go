package stateful_test

import (
	"fmt"
	"unicode/utf8"

	"github.com/dlbd/dlbd/kernel/stateful"
)

func ExampleSession_Complete() {
	// A nil session (or one still starting) completes what needs no
	// packages: the cell's own names, builtins, keywords and magics.
	var s *stateful.Session
	code := "%%\nañoActual := 2024\naño"
	c := s.Complete(stateful.Query{Code: code, Cursor: utf8.RuneCountInString(code)})
	for _, m := range c.Matches {
		fmt.Println(m.Text, m.Kind, m.Signature)
	}
	fmt.Println(c.CursorStart, c.CursorEnd) // code points, as Jupyter counts them

	c = s.Complete(stateful.Query{Code: "%re", Cursor: 3})
	fmt.Println(c.Matches[0].Text, c.Matches[0].Kind)
	// Output:
	// añoActual variable int
	// 21 24
	// %reset magic
}

func ExampleParseHelp() {
	q, ok := stateful.ParseHelp("dl.MatMulWith?")
	fmt.Printf("%v %q %d %d\n", ok, q.Code, q.Cursor, q.Detail)
	// Output:
	// true "%%\ndl.MatMulWith" 16 0
}
