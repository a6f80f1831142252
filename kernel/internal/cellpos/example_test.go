package cellpos_test

import (
	"fmt"

	"github.com/dlbd/dlbd/kernel/internal/cellpos"
)

// Example reads a compiler error and a stack trace of cell code back into
// what the notebook shows.
func Example() {
	fmt.Println(cellpos.File(3), cellpos.Package("cell3"))

	if p, rest, ok := cellpos.Parse("dlbd-cell-3:2:5: undefined: x"); ok {
		fmt.Println(p.String() + rest)
	}

	trace := "goroutine 1 [running]:\ndlbd.cells/cell2.f(0x1)\n\tdlbd-cell-2:3 +0x1d\n" +
		"dlbd.cells/cell3.DlbdRun()\n\tdlbd-cell-3:4 +0x25\n"
	frames := cellpos.ParseStack(trace)
	fmt.Println(cellpos.At("boom", frames[0].Pos))
	for _, f := range frames {
		fmt.Println(cellpos.TraceLine(f.Name(), f.Pos))
	}
	// Output:
	// dlbd-cell-3 dlbd.cells/cell3
	// Cell [3] Line 2:5: undefined: x
	// boom (Cell [2] Line 3)
	// 	cell2.f(...) [[ Cell [2] Line 3 ]]
	// 	cell3 body [[ Cell [3] Line 4 ]]
}
