package frontend_test

import (
	"fmt"

	"github.com/dlbd/dlbd/kernel/frontend"
)

// ExampleIsComplete answers what a console asks before running a cell.
func ExampleIsComplete() {
	for _, cell := range []string{
		"%%\nfmt.Println(\"hola\")",
		"func f() {\n\tfor {",
		"%%\nx := 1 +",
		"%%\nfmt.Println(1))",
		"%%bash\necho hola",
	} {
		status, indent := frontend.IsComplete(cell)
		fmt.Printf("%-10s %q\n", status, indent)
	}
	// Output:
	// complete   ""
	// incomplete "\t\t"
	// incomplete "\t"
	// invalid    ""
	// unknown    ""
}

// ExampleParsePanic reads the panic GoNB streamed on stderr for a cell.
func ExampleParsePanic() {
	stderr := "panic: boom\n\ngoroutine 1 [running]:\nmain.main()\n" +
		"\t \x1b[7m[[ Cell [1] Line 3 ]]\x1b[0m /tmp/gonb_8d05c26b/main.go:12 +0xa5\nexit status 2\n"
	p, ok := frontend.ParsePanic(stderr)
	fmt.Println(ok, p.Kind)
	fmt.Println(p.Summary())
	for _, l := range p.Traceback() {
		fmt.Println(l)
	}
	// Output:
	// true panic
	// boom (Cell [1] Line 3)
	// panic: boom
	// 	main.main() [[ Cell [1] Line 3 ]]
}
