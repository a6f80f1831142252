package jupyter

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dlbd/dlbd/kernel/internal/kerneltest"
)

// TestDLBDProcessErrorsReadLikeStateful checks that in the process mode
// (GoNB) a cell that does not compile reads as in the stateful mode,
// "Cell [N] Line L: message", at the student's cell and line, without
// GoNB's program around the cell; and that using a value an earlier
// cell's body made gets the hint that values do not live on in this mode.
// A %mode cell first makes the front end's count one ahead of GoNB's, so
// that the cell numbers shown are known to be the front end's.
func TestDLBDProcessErrorsReadLikeStateful(t *testing.T) {
	c := startDLBDMode(t, "process")
	ctx := func() context.Context { return kerneltest.Context(t, 2*time.Minute) }
	run(t, c, "%mode process") // [1]: already in it; GoNB never sees it
	if got := run(t, c, "%%\nres := 3\nfmt.Println(res)"); got != "3\n" {
		t.Fatalf("[2] prints %q; want 3", got)
	}
	// fail runs code, which must fail to compile as cell n, and returns its
	// error lines, after checking that the reply and the IOPub error agree
	// and show nothing of GoNB's program.
	fail := func(code string, n int) (evalue string, traceback []string) {
		t.Helper()
		ex, err := c.Execute(ctx(), code)
		if ex == nil || ex.Reply.Status != "error" {
			t.Fatalf("Execute(%q) = %v; want a compile error", code, err)
		}
		r := ex.Reply
		if r.ExecutionCount != n || r.EName != "compile" {
			t.Errorf("Execute(%q): count %d, ename %q; want %d, compile", code, r.ExecutionCount, r.EName, n)
		}
		errs := ex.Errors()
		if len(errs) != 1 || errs[0].EName != r.EName || errs[0].EValue != r.EValue || !slices.Equal(errs[0].Traceback, r.Traceback) {
			t.Errorf("Execute(%q): iopub errors %+v; want one, equal to the reply's (%q, %q)", code, errs, r.EValue, r.Traceback)
		}
		for _, s := range append(slices.Clone(r.Traceback), r.EValue) {
			for _, gen := range []string{"gonb_", "func main", "flag.Parse", "main.go"} {
				if strings.Contains(s, gen) {
					t.Errorf("Execute(%q): error line %q shows GoNB's program (%q)", code, s, gen)
				}
			}
		}
		return r.EValue, r.Traceback
	}

	evalue, tb := fail("%%\nfmt.Println(\"mejor tienda:\", res)", 3)
	if want := "Cell [3] Line 2:30: undefined: res"; len(tb) != 2 || tb[0] != want || !strings.HasPrefix(evalue, want+"\n") {
		t.Fatalf("undefined res: evalue %q, traceback %q; want %q and the hint", evalue, tb, want)
	}
	hint := tb[1]
	for _, want := range []string{"pista: res es un valor que creó la celda [2]", "cada celda es un programa aparte", "%mode stateful", "la celda [2]; después, esta"} {
		if !strings.Contains(hint, want) {
			t.Errorf("hint %q lacks %q", hint, want)
		}
	}
	if !strings.HasSuffix(evalue, "\n"+hint) {
		t.Errorf("evalue %q; want the error and the hint", evalue)
	}

	// A name no earlier cell made: Go's error alone.
	if _, tb := fail("%%\nfmt.Println(nunca)", 4); !slices.Equal(tb, []string{"Cell [4] Line 2:13: undefined: nunca"}) {
		t.Errorf("undefined nunca: traceback %q; want Go's error alone, at Cell [4] Line 2:13", tb)
	}
	// Plain compile errors: a type error (GoNB maps the line) and a syntax
	// error GoNB finds at the brace it writes after the cell.
	if _, tb := fail("func f() int { return \"a\" }\n%%\nfmt.Println(f())", 5); !slices.Equal(tb, []string{
		`Cell [5] Line 1:23: cannot use "a" (untyped string constant) as int value in return statement`}) {
		t.Errorf("type error: traceback %q; want it at Cell [5] Line 1:23", tb)
	}
	if _, tb := fail("%%\ny := 1\nx := ", 6); !slices.Equal(tb, []string{"Cell [6] Line 3: expected operand, found '}'"}) {
		t.Errorf("syntax error: traceback %q; want it at Cell [6] Line 3", tb)
	}
	if _, tb := fail("%%\nvar y int = \"s\"\n_ = y\nz := 1", 7); !slices.Equal(tb, []string{
		`Cell [7] Line 2:13: cannot use "s" (untyped string constant) as int value in variable declaration`,
		"Cell [7] Line 4:1: declared and not used: z"}) {
		t.Errorf("two errors: traceback %q; want both, at their lines", tb)
	}
	// An error in an earlier cell's declaration (GoNB writes the type of
	// [9] before the function of [8]) names that cell by the front end's
	// count too.
	run(t, c, "func h() int { return 1 }") // [8]
	if _, tb := fail("type h int", 9); !slices.Equal(tb, []string{"Cell [8] Line 1:6: h redeclared in this block", "\tCell [9] Line 1:6: other declaration of h"}) {
		t.Errorf("redeclared: traceback %q; want the error at [8] and its note at [9]", tb)
	}
}
