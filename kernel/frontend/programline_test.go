package frontend

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dlbd/dlbd/kernel/internal/cellpos"
	"github.com/dlbd/dlbd/kernel/internal/kerneltest"
	"github.com/dlbd/dlbd/kernel/jupyter"
	"github.com/dlbd/dlbd/kernel/protocol"
)

// Two cells GoNB ran, by GoNB's number, and the main.go GoNB v0.11.4
// writes for the second (its layout is GoNB's: imports as goimports left
// them, then functions by name, each with its comments, then func main
// with the body after %%; the unused import is gone).
const (
	placeCell2 = "func g(m map[string]int) {\n\tm[\"a\"] = 1\n}\nvar v = 1"
	placeCell3 = "import \"strings\"\n\nfunc f(s []int) int { return s[3] }\n\n// h calls g with no map.\nfunc h() {\n\tdefer fmt.Println(\"h\")\n\tg(nil)\n}\n%%\n" +
		"fmt.Println(\"antes\")\nfmt.Println(f([]int{1, 2, 3, 4}))\nfmt.Println(f([]int{1, 2, 3, 4}))\nh()"
	placeMain = "package main\n\nimport (\n\t\"flag\"\n\t\"fmt\"\n)\n\nvar (\n\tv = 1\n)\n\n" + // 1-11
		"func f(s []int) int { return s[3] }\n\n" + // 12-13
		"func g(m map[string]int) {\n\tm[\"a\"] = 1\n}\n\n" + // 14-17
		"// h calls g with no map.\nfunc h() {\n\tdefer fmt.Println(\"h\")\n\tg(nil)\n}\n\n" + // 18-23
		"\nfunc main() {\n\tflag.Parse()\nfmt.Println(\"antes\")\nfmt.Println(f([]int{1, 2, 3, 4}))\nfmt.Println(f([]int{1, 2, 3, 4}))\nh()\n\n}\n" // 24-33
)

// placeMapping is GoNB's own mapping of placeMain's lines to cell lines
// (fileToCellIdAndLine, 1-based here): what its markers say.
var placeMapping = map[int]cellpos.Pos{
	9: {Cell: 2, Line: 4}, 12: {Cell: 3, Line: 3}, 14: {Cell: 2, Line: 1}, 15: {Cell: 2, Line: 2}, 16: {Cell: 2, Line: 3},
	18: {Cell: 3, Line: 5}, 19: {Cell: 3, Line: 6}, 20: {Cell: 3, Line: 7}, 21: {Cell: 3, Line: 8}, 22: {Cell: 3, Line: 9},
	25: {Cell: 3, Line: 10}, 26: {Cell: 3, Line: 10}, 27: {Cell: 3, Line: 11}, 28: {Cell: 3, Line: 12}, 29: {Cell: 3, Line: 13},
	30: {Cell: 3, Line: 14},
}

// placeCells are the cells as programLine passes them: the request's own
// first, then the others, latest first.
func placeCells() []sourceCell {
	return []sourceCell{{3, strings.Split(placeCell3, "\n")}, {2, strings.Split(placeCell2, "\n")}}
}

func TestProgramPlace(t *testing.T) {
	prog := newProgram(placeMain)
	for n := 1; n <= len(prog.lines); n++ {
		got, ok := prog.place(n, placeCells())
		want, mapped := placeMapping[n]
		switch {
		case n == 9 || n == 25 || n == 26:
			// Lines GoNB rewrote ("\tv = 1" from "var v = 1") or wrote
			// (func main() {, flag.Parse()) for a cell line: no frame of
			// a panic is there; they are not found.
			if ok {
				t.Errorf("line %d %q placed at %v; want unplaced (GoNB's own text)", n, prog.lines[n-1], got)
			}
		case !mapped:
			if ok {
				t.Errorf("line %d %q placed at %v; GoNB maps it to no cell", n, prog.lines[n-1], got)
			}
		case !ok || got != want:
			t.Errorf("line %d %q placed at %v, %v; want %v as GoNB maps it", n, prog.lines[n-1], got, ok, want)
		}
	}
	// The same lines in an earlier cell: the request's own cell wins;
	// among earlier cells, the latest.
	again := []sourceCell{{5, []string{"func g(m map[string]int) {", "\tm[\"a\"] = 1", "}"}}, {4, strings.Split(placeCell2, "\n")}}
	if got, ok := prog.place(15, again); !ok || got != (cellpos.Pos{Cell: 5, Line: 2}) {
		t.Errorf("line 15 with two cells holding g placed at %v, %v; want Cell [5] Line 2, the latest", got, ok)
	}
	if got, ok := prog.place(15, append(placeCells(), again...)); !ok || got != (cellpos.Pos{Cell: 2, Line: 2}) {
		t.Errorf("line 15 placed at %v, %v; want Cell [2] Line 2: its run is as long, and it comes first", got, ok)
	}
	for _, n := range []int{0, -1, len(prog.lines) + 1} {
		if got, ok := prog.place(n, placeCells()); ok {
			t.Errorf("line %d (out of the program) placed at %v", n, got)
		}
	}
	if got, ok := (*gonbProgram)(nil).place(1, placeCells()); ok {
		t.Errorf("a program not read placed a line at %v", got)
	}
	if got, ok := newProgram("not go\nfmt.Println(\"antes\")\n").place(2, placeCells()); !ok || got != (cellpos.Pos{Cell: 3, Line: 11}) {
		t.Errorf("a program that does not parse: line 2 placed at %v, %v; want Cell [3] Line 11 (the whole file is its span)", got, ok)
	}
}

// gonbMarked returns a read of a cell's stderr as GoNB v0.11.4 sends it
// on: jupyterStackTraceMapperWriter.Write (internal/goexec/execcode.go)
// puts " [[ Cell [c] Line l ]] " (inverse video) before each
// "<codePath>:<digits>" of this one read, with the cell line of
// mapping, and leaves the rest as it is.
func gonbMarked(read, codePath string, mapping map[int]cellpos.Pos) string {
	re := regexp.MustCompile(regexp.QuoteMeta(codePath) + `:(\d+)`)
	return re.ReplaceAllStringFunc(read, func(m string) string {
		var n int
		fmt.Sscanf(m[strings.LastIndex(m, ":")+1:], "%d", &n)
		p, ok := mapping[n]
		if !ok {
			return " \x1b[7m[[ Cell Line 0 ]]\x1b[0m " + m
		}
		return fmt.Sprintf(" \x1b[7m[[ Cell [%d] Line %d ]]\x1b[0m %s", p.Cell, p.Line, m)
	})
}

// runtimeWrites returns the writes, one write(2) each, in which the Go
// runtime prints the panic of placeMain on stderr (runtime/traceback.go:
// print("\t", file, ":", line) is four writes, then " +0x…" and "\n"),
// and GoNB's "exit status 2" line after it.
func runtimeWrites(path string) []string {
	w := []string{"panic: ", "assignment to entry in nil map", "\n", "\n", "goroutine 1 [running]:\n"}
	for _, f := range []struct{ fn, args, line, off string }{{"main.g", "(...)", "15", ""}, {"main.h", "()", "21", "0x45"}, {"main.main", "()", "30", "0x1d"}} {
		w = append(w, f.fn, f.args, "\n", "\t", path, ":", f.line)
		if f.off != "" {
			w = append(w, " +", f.off)
		}
		w = append(w, "\n")
	}
	return append(w, "exit status 2\n")
}

// newPlaceExecute returns the front end's view of request "req", the
// cell GoNB ran as placeCell3 after placeCell2, whose program GoNB wrote
// as placeMain in its directory under a fresh TMPDIR; and the path of
// that main.go.
func newPlaceExecute(t *testing.T) (*execute, string) {
	tmp := t.TempDir()
	path := filepath.Join(tmp, "gonb_fa4e0001", "main.go")
	if err := os.Mkdir(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(placeMain), 0o600); err != nil {
		t.Fatal(err)
	}
	e := &execute{s: &server{gonbTmp: tmp}, fwd: map[string]*forwarded{}, gonbCells: map[int]gonbCell{
		2: {count: 5, code: placeCell2}, 3: {count: 7, code: placeCell3}}}
	e.fwd["req"] = &forwarded{code: placeCell3, count: 7, gonbCount: 3}
	return e, path
}

// newPlaceTest returns cells watching request "req" of newPlaceExecute,
// and the path of its main.go.
func newPlaceTest(t *testing.T) (*cells, string) {
	e, path := newPlaceExecute(t)
	cs := &cells{place: e.programLine}
	cs.start("req")
	return cs, path
}

// placedError is what the panic of placeMain becomes, every frame at the
// cell line GoNB maps it to.
var placedError = protocol.NewError("panic", "assignment to entry in nil map (Cell [2] Line 2)", []string{
	"panic: assignment to entry in nil map", "\tmain.g(...) [[ Cell [2] Line 2 ]]", "\tmain.h() [[ Cell [3] Line 8 ]]",
	"\tmain.main() [[ Cell [3] Line 14 ]]", "exit status 2"})

// checkPlaced streams reads, GoNB's stream messages, for request "req"
// of cs and checks that GoNB's "exit status 2" error (IOPub and
// execute_reply) is rewritten to placedError.
func checkPlaced(t *testing.T, cs *cells, reads []string) {
	t.Helper()
	for _, r := range reads {
		cs.stream("req", encode(protocol.Stream{Name: "stderr", Text: r}))
	}
	gonbErr := encode(protocol.NewError("ERROR", "exit status 2", []string{"exit status 2"}))
	for name, got := range map[string][]byte{"iopub error": cs.published("req", gonbErr), "execute_reply": cs.reply("req", gonbErr)} {
		var e protocol.ErrorContent
		if err := json.Unmarshal(got, &e); err != nil || e.EName != placedError.EName || e.EValue != placedError.EValue || !slices.Equal(e.Traceback, placedError.Traceback) {
			t.Fatalf("stderr read as %q: %s rewritten to %s (%v)\nwant %q %q %q", reads, name, got, err, placedError.EName, placedError.EValue, placedError.Traceback)
		}
	}
}

// TestSplitPanicPlaced feeds a cell's panic to the front end in the stream
// messages GoNB would send for every way the pipe's reads can cut it, and
// checks that every frame gets its cell line each time: GoNB's marker
// when the frame's path and line came in one read, the front end's own
// placement otherwise (GoNB's main.go and the cells' code).
func TestSplitPanicPlaced(t *testing.T) {
	_, path := newPlaceTest(t)
	writes := runtimeWrites(path)
	whole := strings.Join(writes, "")
	// The whole trace in one read: GoNB marks every frame.
	t.Run("one-read", func(t *testing.T) {
		cs, _ := newPlaceTest(t)
		checkPlaced(t, cs, []string{gonbMarked(whole, path, placeMapping)})
	})
	// Each write in a read of its own: GoNB marks no frame.
	t.Run("every-write", func(t *testing.T) {
		cs, _ := newPlaceTest(t)
		var reads []string
		for _, w := range writes {
			reads = append(reads, gonbMarked(w, path, placeMapping))
		}
		if strings.Contains(strings.Join(reads, ""), "[[ Cell") {
			t.Fatal("GoNB marked a frame split over reads")
		}
		checkPlaced(t, cs, reads)
	})
	// Two reads, cut at every byte: in the path, after it, after the
	// colon, and so on. A read never ends inside a line number: the
	// runtime writes it in one write(2), which a pipe's read returns whole.
	t.Run("every-cut", func(t *testing.T) {
		digits := map[int]bool{}
		for _, m := range regexp.MustCompile(`:\d+`).FindAllStringIndex(whole, -1) {
			for i := m[0] + 2; i < m[1]; i++ {
				digits[i] = true
			}
		}
		for i := 1; i < len(whole); i++ {
			if digits[i] {
				continue
			}
			cs, _ := newPlaceTest(t)
			checkPlaced(t, cs, []string{gonbMarked(whole[:i], path, placeMapping), gonbMarked(whole[i:], path, placeMapping)})
		}
	})
	// Reads of random runs of writes.
	t.Run("random-reads", func(t *testing.T) {
		rnd := rand.New(rand.NewSource(1))
		for range 300 {
			var reads []string
			for i := 0; i < len(writes); {
				k := 1 + rnd.Intn(6)
				reads = append(reads, gonbMarked(strings.Join(writes[i:min(i+k, len(writes))], ""), path, placeMapping))
				i += k
			}
			cs, _ := newPlaceTest(t)
			checkPlaced(t, cs, reads)
		}
	})
}

// TestSplitPanicUnplaceable checks that a frame that cannot be placed
// (GoNB's program gone, GoNB's number for the cell unknown, no
// directory) is left out, as before, and the panic still reported.
func TestSplitPanicUnplaceable(t *testing.T) {
	unmarked := strings.Join(runtimeWrites("/t/gonb_fa4e0001/main.go"), "")
	for name, setup := range map[string]func(t *testing.T, e *execute){
		"program-gone":    func(t *testing.T, e *execute) { e.s.gonbTmp = t.TempDir() },
		"no-directory":    func(t *testing.T, e *execute) { e.s.gonbTmp = "" },
		"no-server":       func(t *testing.T, e *execute) { e.s = nil },
		"no-gonb-number":  func(t *testing.T, e *execute) { e.fwd["req"].gonbCount = 0 },
		"request-unknown": func(t *testing.T, e *execute) { delete(e.fwd, "req") },
	} {
		t.Run(name, func(t *testing.T) {
			e, _ := newPlaceExecute(t)
			setup(t, e)
			cs := &cells{place: e.programLine}
			cs.start("req")
			cs.stream("req", encode(protocol.Stream{Name: "stderr", Text: unmarked}))
			got := cs.published("req", encode(protocol.NewError("ERROR", "exit status 2", []string{"exit status 2"})))
			var r protocol.ErrorContent
			if err := json.Unmarshal(got, &r); err != nil || r.EValue != "assignment to entry in nil map" || len(r.Traceback) != 2 {
				t.Errorf("rewritten to %s (%v); want the panic's message without cell lines", got, err)
			}
		})
	}
}

// TestProgramFrame checks which trace lines name GoNB's program.
func TestProgramFrame(t *testing.T) {
	for line, want := range map[string]string{
		"\t/tmp/dlbd-kernel-1/tmp/gonb_40276b60/main.go:14 +0x95": "gonb_40276b60/main.go:14",
		"\t/tmp/gonb_1/main.go:8":                                 "gonb_1/main.go:8",
		"\t/tmp/gonb_1/main_test.go:8 +0x1":                       "gonb_1/main_test.go:8",
		"\tgonb_1/main.go:8":                                      "gonb_1/main.go:8",
		"\t/tmp/gonb_1/other.go:8":                                "",
		"\t/tmp/gonb_../main.go:8":                                "",
		"\t/tmp/gonb_1/x/main.go:8":                               "",
		"\t/usr/lib/go/src/runtime/panic.go:115 +0x1d":            "",
		"/tmp/gonb_1/main.go:8":                                   "", // not a frame's place
	} {
		got := ""
		if m := programFrame.FindStringSubmatch(line); m != nil {
			got = m[1] + ":" + m[2]
		}
		if got != want {
			t.Errorf("programFrame on %q = %q; want %q", line, got, want)
		}
	}
}

// splitPanicCell is the cell the fake kernel fails with a panic whose
// stack trace GoNB would send in pieces, as GoNB v0.11.4 would: the
// innermost frame's path and line come in two stream messages, so GoNB
// did not mark it (see fakeKernel.splitPanic).
const splitPanicCell = "func f(s []int) int { return s[3] }\n%%\nfmt.Println(\"antes\")\nfmt.Println(f(nil))"

// TestSplitPanicThroughFrontEnd runs splitPanicCell through the front end
// in front of the fake kernel, which writes GoNB's main.go for it where
// GoNB would (in the TMPDIR the front end gives it) and splits the
// innermost frame: the student sees both cell lines.
func TestSplitPanicThroughFrontEnd(t *testing.T) {
	c := start(t, "frontend")
	runCode(t, c, "uno")
	ex, err := c.Execute(kerneltest.Context(t, 10*time.Second), splitPanicCell)
	var ce *jupyter.CellError
	if !errors.As(err, &ce) {
		t.Fatalf("Execute = %v; want a cell error; output:\n%s", err, c.Output())
	}
	n := ex.Reply.ExecutionCount
	const msg = "runtime error: index out of range [3] with length 0"
	if want := fmt.Sprintf("%s (Cell [%d] Line 1)", msg, n); ce.EName != "panic" || ce.EValue != want {
		t.Errorf("reply ename %q, evalue %q; want panic, %q", ce.EName, ce.EValue, want)
	}
	wantTB := []string{"panic: " + msg, fmt.Sprintf("\tmain.f(...) [[ Cell [%d] Line 1 ]]", n), fmt.Sprintf("\tmain.main() [[ Cell [%d] Line 4 ]]", n), "exit status 2"}
	if !slices.Equal(ce.Traceback, wantTB) {
		t.Errorf("reply traceback %q; want %q", ce.Traceback, wantTB)
	}
	if errs := ex.Errors(); len(errs) != 1 || errs[0].EValue != ce.EValue || !slices.Equal(errs[0].Traceback, wantTB) {
		t.Errorf("iopub errors %+v; want the reply's", errs)
	}
	if stderr := ex.Stderr(); strings.Count(stderr, "[[ Cell [") != 1 {
		t.Errorf("stderr %q: want GoNB's marker on one frame only (the test's premise)", stderr)
	}
}
