package complete_test

import (
	"fmt"
	"go/token"
	"log"
	"strings"
	"unicode/utf8"

	"github.com/dlbd/dlbd/kernel/stateful/internal/complete"
	"github.com/dlbd/dlbd/kernel/stateful/internal/pkgindex"
)

func ExampleEngine_Complete() {
	index, err := pkgindex.Load(token.NewFileSet(), ".", nil, "github.com/dlbd/dlbd/dl")
	if err != nil {
		log.Fatal(err)
	}
	e := complete.New(index)
	// A cell's body with an accented name; the cursor is at its end, in
	// code points as Jupyter counts them.
	code := "%%\naño := dl.Ones(2, 3)\naño.Resh"
	c := e.Complete(code, utf8.RuneCountInString(code), nil)
	for _, m := range c.Matches {
		fmt.Println(m.Text, m.Kind, m.Signature)
	}
	fmt.Println(c.Start, c.End) // "Resh" in code points (in bytes: 30, 34)

	in := e.Inspect("%%\ndl.MatMulWith(", 17, 0, nil)
	fmt.Println(in.Text[:strings.Index(in.Text, "\n")])
	// Output:
	// Reshape method func(dims ...int) *dl.Tensor
	// 28 32
	// func dl.MatMulWith(kern dl.MatMulKernel, a, b *dl.Tensor) *dl.Tensor
}
