package frontend

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dlbd/dlbd/kernel/internal/cellpos"
	"github.com/dlbd/dlbd/kernel/internal/kerneltest"
	"github.com/dlbd/dlbd/kernel/jupyter"
	"github.com/dlbd/dlbd/kernel/protocol"
)

// What GoNB v0.11.4 (--raw_error) sent, in both its IOPub error and its
// execute_reply, for cells of a notebook in the process mode (captured
// from the real kernel; GoNB counted the cells 1, 2, 3…).
var (
	// Cell 2, "%%\nfmt.Println(\"mejor tienda:\", res)", after cell 1,
	// "%%\nres := 3\nfmt.Println(res)".
	gonbUndefined = protocol.ErrorContent{EName: "ERROR", EValue: "# gonb_c42704c5\n./main.go:11:30: undefined: res\n",
		Traceback: []string{"# gonb_c42704c5", "Cell[2]: Line 2\n\nfunc main() {\n\tflag.Parse()\nfmt.Println(\"mejor tienda:\", res)\n                             ^\n\n}\n\nundefined: res", ""}}
	// Cell 3, "%%\nx := ": GoNB's parser stops at the brace it wrote
	// after the cell, a line of no cell.
	gonbSyntax = protocol.ErrorContent{EName: "ERROR", EValue: "/tmp/dlbd-kernel-835811699/tmp/gonb_c42704c5/main.go:7:1: expected operand, found '}'",
		Traceback: []string{"\tflag.Parse()\nx := \n\n}\n^\n\n\nexpected operand, found '}'"}}
	// Cell 5, "%%\nvar y int = \"s\"\n_ = y\nz := 1": two errors.
	gonbTwo = protocol.ErrorContent{EName: "ERROR",
		EValue: "# gonb_4cb965b3\n./main.go:10:13: cannot use \"s\" (untyped string constant) as int value in variable declaration\n./main.go:12:1: declared and not used: z\n",
		Traceback: []string{"# gonb_4cb965b3",
			"Cell[5]: Line 2\n\nfunc main() {\n\tflag.Parse()\nvar y int = \"s\"\n            ^\n_ = y\nz := 1\n\ncannot use \"s\" (untyped string constant) as int value in variable declaration",
			"Cell[5]: Line 4\n\tflag.Parse()\nvar y int = \"s\"\n_ = y\nz := 1\n^\n\n}\n\ndeclared and not used: z", ""}}
	// Cell 10, "type h int", after cell 9, "func h() int { return 1 }": GoNB
	// writes types first, so the error is on cell 9's line, with a note
	// (indented by go build) on cell 10's.
	gonbRedeclared = protocol.ErrorContent{EName: "ERROR",
		EValue: "# gonb_c45b05b0\n./main.go:12:6: h redeclared in this block\n\t./main.go:7:6: other declaration of h\n",
		Traceback: []string{"# gonb_c45b05b0",
			"Cell[9]: Line 1\n\ntype h int\n\nfunc h() int { return 1 }\n     ^\n\nfunc main() {\n\n\x1b[31mh redeclared in this block\x1b[0m",
			"Cell[10]: Line 1\n\t\"fmt\"\n)\n\ntype h int\n     ^\n\nfunc h() int { return 1 }\n\n\x1b[31mother declaration of h\x1b[0m", ""}}
)

func TestParseGoNBError(t *testing.T) {
	lines, ok := parseGoNBError(gonbTwo)
	if !ok {
		t.Fatal("parseGoNBError(two errors) is not a compile error")
	}
	want := []gonbLine{
		{Text: "# gonb_4cb965b3"},
		{Placed: true, Msg: `cannot use "s" (untyped string constant) as int value in variable declaration`, Col: 13, Cell: 5, Line: 2,
			Context: []string{"", "func main() {", "\tflag.Parse()", `var y int = "s"`, "            ^", "_ = y", "z := 1", ""}},
		{Placed: true, Msg: "declared and not used: z", Col: 1, Cell: 5, Line: 4,
			Context: []string{"\tflag.Parse()", `var y int = "s"`, "_ = y", "z := 1", "^", "", "}", ""}},
		{Text: ""},
	}
	if !reflect.DeepEqual(lines, want) {
		t.Errorf("parseGoNBError = %#v\nwant %#v", lines, want)
	}
	lines, ok = parseGoNBError(gonbSyntax)
	if !ok || len(lines) != 1 || lines[0].Cell != 0 || lines[0].Msg != "expected operand, found '}'" {
		t.Errorf("parseGoNBError(syntax) = %#v, %v; want one line mapped to no cell", lines, ok)
	}
	// A traceback entry cut short is not GoNB's mapping.
	lines, ok = parseGoNBError(protocol.ErrorContent{EName: "ERROR", EValue: "./main.go:1:1: x", Traceback: []string{"Cell[2]: Line 2"}})
	if !ok || len(lines) != 1 || lines[0].Cell != 0 {
		t.Errorf("parseGoNBError(short entry) = %#v, %v; want one line mapped to no cell", lines, ok)
	}
	lines, _ = parseGoNBError(gonbRedeclared)
	if len(lines) != 4 || lines[2].Indent != "\t" || lines[2].Cell != 10 || lines[1].Cell != 9 {
		t.Errorf("parseGoNBError(redeclared) = %#v; want the note indented, on cell 10, the error on cell 9", lines)
	}
	for _, e := range []protocol.ErrorContent{
		{EName: "ERROR", EValue: "exit status 1", Traceback: []string{"exit status 1"}},
		{EName: "panic", EValue: "./main.go:3:1: boom"},
		{EName: "ERROR", EValue: "failed to run \"go get\": exit status 1\n\ngo: module x: not found"},
		{EName: "ERROR", EValue: "/home/ana/tienda/main.go:3:1: boom"}, // not GoNB's program
	} {
		if _, ok := parseGoNBError(e); ok {
			t.Errorf("parseGoNBError(%+v) is a compile error; want none", e)
		}
	}
}

func TestSyntaxErrors(t *testing.T) {
	tests := []struct {
		name, code string
		want       []syntaxError
	}{
		{name: "open-assignment", code: "%%\nx := ", want: []syntaxError{{pos: pos(2, 0), msg: "expected operand, found '}'"}}},
		{name: "trailing-blank-lines", code: "%%\nx := \n\n", want: []syntaxError{{pos: pos(2, 0), msg: "expected operand, found '}'"}}},
		{name: "decls", code: "import \"fmt\"\nfunc f( {\n}\n%%\nf()", want: []syntaxError{{pos: pos(2, 9), msg: "expected ')', found '{'"},
			{pos: pos(3, 1), msg: "missing ',' in parameter list"},
			{pos: pos(5, 3), msg: "expected type, found ')'"}}},
		{name: "body-line", code: "// calcula\n%%\na := 1\nb := 1 +, a", want: []syntaxError{{pos: pos(4, 9), msg: "expected operand, found ','"}}},
		{name: "import-after-decl", code: "var a = 1\nimport \"fmt\"\n%%\nfmt.Println(a)"},
		{name: "valid", code: "func f() int { return 1 }\n%%\nfmt.Println(f())"},
		{name: "two-bodies", code: "%%\n%%"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := syntaxErrors(tt.code); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("syntaxErrors(%q) = %+v; want %+v", tt.code, got, tt.want)
			}
		})
	}
}

func TestBodyNames(t *testing.T) {
	tests := []struct {
		code string
		want []string
	}{
		{"%%\nres := 3\nfmt.Println(res)", []string{"res"}},
		{"func f() (int, error) { return 1, nil }\nvar top = 2\n%%\nn, err := f()\n_ = err\nvar (a int; _ = 1)\nconst c = 3\ntype T struct{}\nfor i := range 3 { j := i; _ = j }\nn = 4",
			[]string{"n", "err", "a", "c", "T"}},
		{"func main() {\n\tm := map[string]int{}\n\t_ = m\n}", []string{"m"}},
		{"func f() {\n\tlocal := 1\n\t_ = local\n}\nvar g = 1", nil},
		{"%%\nres := \nfmt.Println(1)", []string{"res"}}, // does not parse: what parsed
		{"%%\nok := 1\n%%", nil},                         // not a cell
	}
	for _, tt := range tests {
		if got := bodyNames(tt.code); !slices.Equal(got, tt.want) {
			t.Errorf("bodyNames(%q) = %q; want %q", tt.code, got, tt.want)
		}
	}
}

// pos is a cell position without a cell.
func pos(line, col int) cellpos.Pos { return cellpos.Pos{Line: line, Col: col} }

// processExecute returns an execute with the history of a notebook in
// the process mode: the cells GoNB ran (GoNB's count to the front end's
// count and code), what their runs made, and request "req", the cell
// GoNB counts gonbNum, running.
func processExecute(ex Executor, cells map[int]gonbCell, gonbNum int) *execute {
	e := &execute{ex: ex, fwd: map[string]*forwarded{}, gonbCells: cells, bodyNames: map[string]int{}}
	for g, c := range cells {
		if g == gonbNum {
			e.fwd["req"] = &forwarded{code: c.code, count: c.count, gonbCount: g, names: bodyNames(c.code)}
			continue
		}
		for _, name := range bodyNames(c.code) {
			e.bodyNames[name] = c.count
		}
	}
	return e
}

func TestCompileError(t *testing.T) {
	stateful := newFakeExecutor(nil)
	tests := []struct {
		name   string
		ex     Executor
		cells  map[int]gonbCell
		gonb   int
		err    protocol.ErrorContent
		want   []string // the traceback, in the front end's numbers
		evalue string   // "": want[0]
	}{
		{name: "undefined-body-value", ex: stateful, gonb: 2, err: gonbUndefined,
			cells: map[int]gonbCell{1: {count: 7, code: "%%\nres := 3\nfmt.Println(res)"}, 2: {count: 8, code: "%%\nfmt.Println(\"mejor tienda:\", res)"}},
			want: []string{"Cell [8] Line 2:30: undefined: res",
				"pista: res es un valor que creó la celda [7] al ejecutarse. En el modo process cada celda es un programa aparte: sus valores no pasan a las celdas siguientes (solo sus declaraciones de fuera del cuerpo: func, var, const y type antes de %%). Para que los valores pasen de una celda a otra, vuelve al modo stateful con una celda que solo diga %mode stateful y ejecuta otra vez la celda [7]; después, esta."},
			evalue: "Cell [8] Line 2:30: undefined: res\npista: res es un valor que creó la celda [7] al ejecutarse. En el modo process cada celda es un programa aparte: sus valores no pasan a las celdas siguientes (solo sus declaraciones de fuera del cuerpo: func, var, const y type antes de %%). Para que los valores pasen de una celda a otra, vuelve al modo stateful con una celda que solo diga %mode stateful y ejecuta otra vez la celda [7]; después, esta."},
		{name: "undefined-no-stateful-mode", gonb: 2, err: gonbUndefined,
			cells: map[int]gonbCell{1: {count: 1, code: "%%\nres := 3\nfmt.Println(res)"}, 2: {count: 2, code: "%%\nfmt.Println(\"mejor tienda:\", res)"}},
			want: []string{"Cell [2] Line 2:30: undefined: res",
				"pista: res es un valor que creó la celda [1] al ejecutarse. En el modo process cada celda es un programa aparte: sus valores no pasan a las celdas siguientes (solo sus declaraciones de fuera del cuerpo: func, var, const y type antes de %%). Este kernel no tiene el modo stateful: crea res en esta misma celda."},
			evalue: "Cell [2] Line 2:30: undefined: res\npista: res es un valor que creó la celda [1] al ejecutarse. En el modo process cada celda es un programa aparte: sus valores no pasan a las celdas siguientes (solo sus declaraciones de fuera del cuerpo: func, var, const y type antes de %%). Este kernel no tiene el modo stateful: crea res en esta misma celda."},
		{name: "undefined-top-level", ex: stateful, gonb: 2, err: gonbUndefined,
			cells: map[int]gonbCell{1: {count: 3, code: "var res = 3\n%%\nfmt.Println(res)"}, 2: {count: 4, code: "%%\nfmt.Println(\"mejor tienda:\", res)"}},
			want:  []string{"Cell [4] Line 2:30: undefined: res"}},
		{name: "undefined-never-made", ex: stateful, gonb: 2, err: gonbUndefined,
			cells: map[int]gonbCell{2: {count: 2, code: "%%\nfmt.Println(\"mejor tienda:\", res)"}},
			want:  []string{"Cell [2] Line 2:30: undefined: res"}},
		{name: "changed-line-no-column", gonb: 2, err: gonbUndefined, // GoNB's line is not the cell's: the column is not the cell's either
			cells: map[int]gonbCell{2: {count: 2, code: "%%\n  fmt.Println(\"mejor tienda:\", res)"}},
			want:  []string{"Cell [2] Line 2: undefined: res"}},
		{name: "two-errors", gonb: 5, err: gonbTwo,
			cells: map[int]gonbCell{5: {count: 6, code: "%%\nvar y int = \"s\"\n_ = y\nz := 1"}},
			want:  []string{"Cell [6] Line 2:13: cannot use \"s\" (untyped string constant) as int value in variable declaration", "Cell [6] Line 4:1: declared and not used: z"}},
		{name: "syntax-at-gonb-line", gonb: 3, err: gonbSyntax,
			cells: map[int]gonbCell{3: {count: 5, code: "%%\nx := "}},
			want:  []string{"Cell [5] Line 2: expected operand, found '}'"}},
		{name: "syntax-gonb-only", gonb: 3, err: gonbSyntax, // the cell parses for the front end: GoNB's message, at the cell
			cells: map[int]gonbCell{3: {count: 5, code: "%%\nx := 1"}},
			want:  []string{"Cell [5]: expected operand, found '}'"}},
		{name: "earlier-cell", gonb: 10, err: gonbRedeclared,
			cells: map[int]gonbCell{9: {count: 12, code: "func h() int { return 1 }"}, 10: {count: 13, code: "type h int"}},
			want:  []string{"Cell [12] Line 1:6: h redeclared in this block", "\tCell [13] Line 1:6: other declaration of h"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := processExecute(tt.ex, tt.cells, tt.gonb)
			got := e.compileError("req", tt.err)
			if got == nil {
				t.Fatal("compileError = nil; want the error rewritten")
			}
			// The rewritten error is in GoNB's numbers; renumber, which
			// every IOPub error and execute_reply then goes through,
			// makes them the front end's.
			content := encode(map[string]any{"ename": got.EName, "evalue": got.EValue, "traceback": got.Traceback})
			if c := e.renumber("req", "error", content); c != nil {
				content = c
			}
			var r protocol.ErrorContent
			if err := json.Unmarshal(content, &r); err != nil {
				t.Fatal(err)
			}
			evalue := tt.evalue
			if evalue == "" {
				evalue = tt.want[0]
			}
			if r.EName != "compile" || r.EValue != evalue || !slices.Equal(r.Traceback, tt.want) {
				t.Errorf("rewritten to ename %q, evalue %q, traceback %q\nwant compile, %q, %q", r.EName, r.EValue, r.Traceback, evalue, tt.want)
			}
			for _, s := range append(r.Traceback, r.EValue) {
				for _, gen := range []string{"gonb_", "main.go", "func main", "flag.Parse", "\x1b["} {
					if strings.Contains(s, gen) {
						t.Errorf("rewritten error line %q shows GoNB's program (%q)", s, gen)
					}
				}
			}
		})
	}
}

func TestCompileErrorLeavesOthers(t *testing.T) {
	cells := map[int]gonbCell{2: {count: 2, code: "%%\nfmt.Println(\"mejor tienda:\", res)"}}
	for name, tt := range map[string]struct {
		e   *execute
		err protocol.ErrorContent
	}{
		"exit-status":         {processExecute(nil, cells, 2), protocol.ErrorContent{EName: "ERROR", EValue: "exit status 1", Traceback: []string{"exit status 1"}}},
		"panic":               {processExecute(nil, cells, 2), protocol.ErrorContent{EName: "panic", EValue: "boom (Cell [2] Line 3)"}},
		"go-get":              {processExecute(nil, cells, 2), protocol.ErrorContent{EName: "ERROR", EValue: "failed to run \"go get\": exit status 1\n\ngo: x: not found"}},
		"no-execute-input":    {processExecute(nil, cells, 5), gonbUndefined}, // GoNB's number for the cell unknown
		"not-watched":         {&execute{fwd: map[string]*forwarded{}, gonbCells: map[int]gonbCell{}}, gonbUndefined},
		"unaligned-traceback": {processExecute(nil, cells, 2), protocol.ErrorContent{EName: "ERROR", EValue: "# gonb_1\n./main.go:1:1: x", Traceback: []string{"# gonb_1"}}},
	} {
		got := tt.e.compileError("req", tt.err)
		if name == "unaligned-traceback" { // not aligned: no cell from GoNB, the cell's own code parses
			if got == nil || got.EValue != "Cell [2]: x" {
				t.Errorf("%s: compileError = %+v; want the message at the cell", name, got)
			}
			continue
		}
		if got != nil {
			t.Errorf("%s: compileError = %+v; want nil (left as GoNB sent it)", name, got)
		}
	}
}

func TestRenumberEarlierCells(t *testing.T) {
	e := &execute{fwd: map[string]*forwarded{}, gonbCells: map[int]gonbCell{}}
	e.fwd["a"] = &forwarded{count: 5, code: "func f() { panic(1) }"}
	e.renumber("a", "execute_input", []byte(`{"code":"func f() { panic(1) }","execution_count":1}`))
	e.fwd["b"] = &forwarded{count: 9, code: "%%\nf()"}
	e.renumber("b", "execute_input", []byte(`{"code":"%%\nf()","execution_count":2}`))
	got := e.renumber("b", "error", []byte(`{"ename":"panic","evalue":"1 (Cell [1] Line 1)","traceback":["\tmain.f() [[ Cell [1] Line 1 ]]","\tmain.main() [[ Cell [2] Line 2 ]]","Cell[3]: Line 1"]}`))
	var r protocol.ErrorContent
	if err := json.Unmarshal(got, &r); err != nil {
		t.Fatalf("renumber = %s: %v", got, err)
	}
	want := []string{"\tmain.f() [[ Cell [5] Line 1 ]]", "\tmain.main() [[ Cell [9] Line 2 ]]", "Cell[3]: Line 1"} // GoNB's cell 3: unknown, left
	if r.EValue != "1 (Cell [5] Line 1)" || !slices.Equal(r.Traceback, want) {
		t.Errorf("renumber = evalue %q, traceback %q; want %q, %q", r.EValue, r.Traceback, "1 (Cell [5] Line 1)", want)
	}
}

// TestProcessCompileErrors runs cells through the front end in front of
// the fake kernel, which fails them as GoNB does: the student sees the
// stateful mode's form, in the front end's count (here one ahead of
// GoNB's: the %mode cell is the front end's), in the IOPub error and the
// reply alike, and the hint where a value of an earlier cell is missing.
func TestProcessCompileErrors(t *testing.T) {
	c := start(t, "frontend-stateful")
	runCode(t, c, "uno")           // [1], stateful
	runCode(t, c, "%mode process") // [2]
	runCode(t, c, "%%\nres := 3")  // [3], GoNB's 1
	runCode(t, c, "var top = 1")   // [4]
	fail := func(code string) *jupyter.Execution {
		t.Helper()
		ex, err := c.Execute(kerneltest.Context(t, 10*time.Second), code)
		if ex == nil || ex.Reply.Status != "error" {
			t.Fatalf("Execute(%q) = %v; want a compile error", code, err)
		}
		errs := ex.Errors()
		if len(errs) != 1 || errs[0].EName != ex.Reply.EName || errs[0].EValue != ex.Reply.EValue || !slices.Equal(errs[0].Traceback, ex.Reply.Traceback) {
			t.Errorf("Execute(%q): iopub errors %+v; want one, equal to the reply's %q %q %q", code, errs, ex.Reply.EName, ex.Reply.EValue, ex.Reply.Traceback)
		}
		for _, s := range append(ex.Reply.Traceback, ex.Reply.EValue) {
			if strings.Contains(s, "gonb_") || strings.Contains(s, "main.go") || strings.Contains(s, "func main") {
				t.Errorf("Execute(%q): error line %q shows GoNB's program", code, s)
			}
		}
		return ex
	}
	ex := fail("%%\nfmt.Println(\"mejor tienda:\", res)\n//fake:build 2:30 undefined: res")
	if got, want := ex.Reply.Traceback[0], "Cell [5] Line 2:30: undefined: res"; ex.Reply.ExecutionCount != 5 || got != want || ex.Reply.EName != "compile" {
		t.Errorf("undefined: count %d, ename %q, first line %q; want 5, compile, %q", ex.Reply.ExecutionCount, ex.Reply.EName, got, want)
	}
	if len(ex.Reply.Traceback) != 2 || !strings.Contains(ex.Reply.Traceback[1], "la celda [3]") || !strings.Contains(ex.Reply.Traceback[1], "%mode stateful") ||
		!strings.Contains(ex.Reply.EValue, "pista: res es un valor que creó la celda [3]") {
		t.Errorf("undefined: evalue %q, traceback %q; want the hint that cell [3] made res and %%mode stateful", ex.Reply.EValue, ex.Reply.Traceback)
	}
	for _, code := range []string{
		"%%\nfmt.Println(top)\n//fake:build 2:13 undefined: top",     // declared outside a body: GoNB keeps it
		"%%\nfmt.Println(w)\nw := 1\n//fake:build 2:13 undefined: w", // made by this very cell
	} {
		if ex := fail(code); len(ex.Reply.Traceback) != 1 || strings.Contains(ex.Reply.EValue, "pista") {
			t.Errorf("Execute(%q) = %q %q; want the error alone, no hint", code, ex.Reply.EValue, ex.Reply.Traceback)
		}
	}
	ex = fail("//fake:parse expected operand, found '}'\n%%\nx := ")
	if want := []string{"Cell [8] Line 3: expected operand, found '}'"}; ex.Reply.ExecutionCount != 8 || !slices.Equal(ex.Reply.Traceback, want) {
		t.Errorf("syntax error: count %d, traceback %q; want 8, %q", ex.Reply.ExecutionCount, ex.Reply.Traceback, want)
	}
	// The panic repair still works after a compile error.
	ex = fail("panic")
	if want := "boom <nil> (Cell [9] Line 3)"; ex.Reply.EValue != want || ex.Reply.EName != "panic" {
		t.Errorf("panic: %q %q; want panic, %q", ex.Reply.EName, ex.Reply.EValue, want)
	}
}

// FuzzParseGoNBError checks that no error GoNB could send makes the front
// end panic, and that whatever is placed keeps its message.
func FuzzParseGoNBError(f *testing.F) {
	for _, e := range []protocol.ErrorContent{gonbUndefined, gonbSyntax, gonbTwo, gonbRedeclared} {
		f.Add(e.EValue, strings.Join(e.Traceback, "\x00"))
	}
	f.Fuzz(func(t *testing.T, evalue, traceback string) {
		lines, ok := parseGoNBError(protocol.ErrorContent{EName: "ERROR", EValue: evalue, Traceback: strings.Split(traceback, "\x00")})
		placed := 0
		for _, l := range lines {
			if l.Placed {
				placed++
				if !strings.Contains(evalue, l.Msg) {
					t.Errorf("message %q is not in evalue %q", l.Msg, evalue)
				}
			}
		}
		if ok != (placed > 0) {
			t.Errorf("ok = %v with %d placed lines", ok, placed)
		}
	})
}
