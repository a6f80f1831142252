package frontend

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/dlbd/dlbd/kernel/internal/cellpos"
)

// Panic is what the Go runtime printed on stderr when a cell's program died
// of a panic or of a fatal error, with the stack frames that GoNB mapped
// back to cell lines.
type Panic struct {
	// Kind is "panic" or "fatal error", as the runtime names them.
	Kind string
	// Message is the text after "panic: " (the panic value, with
	// "[recovered]" and later panics when there were some) up to the blank
	// line before the goroutine's stack trace.
	Message string
	// Frames are the frames of the stack trace in cell code, innermost
	// first: Frames[0] is where the cell's code panicked or called what
	// panicked. GoNB marked them with their cell line, or the front end
	// placed them (see [programFrame]).
	Frames []Frame
}

// Frame is one stack frame in cell code.
type Frame struct {
	// Func is the function as the trace names it, like "main.main()".
	Func string
	// Cell is the number of the cell the code comes from (its execution
	// count when it was defined) and Line the line within that cell.
	Cell, Line int
}

// Location returns the frame's line as the kernel names it in every mode
// (package kernel/internal/cellpos writes it): "Cell [4] Line 3".
func (f Frame) Location() string { return f.pos().String() }

// pos returns the frame's line as a cell position.
func (f Frame) pos() cellpos.Pos { return cellpos.Pos{Cell: f.Cell, Line: f.Line} }

// ansiEscape matches the terminal control sequences GoNB wraps cell
// locations in (inverse video on and off).
var ansiEscape = regexp.MustCompile("\x1b\\[[0-9;?]*[ -/]*[@-~]")

// cellMarker matches GoNB's "[[ Cell [4] Line 3 ]]" in a trace line.
// This is GoNB's own format (goexec marks the lines of a cell's program in
// its traces so; v0.11.4), which the kernel reads; what the kernel writes
// comes from package cellpos, and happens to look the same.
var cellMarker = regexp.MustCompile(`\[\[ Cell \[(\d+)\] Line (\d+) \]\]`)

// ParsePanic finds the first line starting with "panic: " or
// "fatal error: " in a cell's stderr and returns what the runtime said
// there; ok is false when there is none. Terminal escapes are ignored.
// Its frames are those GoNB marked with a cell line.
func ParsePanic(stderr string) (p Panic, ok bool) { return parsePanic(stderr, nil) }

// placeFunc returns the cell line that line n of GoNB's program (named
// relative to GoNB's temporary directory, "gonb_8d05c26b/main.go") was
// copied from; ok is false when it cannot tell.
type placeFunc func(program string, n int) (pos cellpos.Pos, ok bool)

// parsePanic is [ParsePanic], which also places, with place (when not
// nil), the frames in GoNB's program that GoNB did not mark.
func parsePanic(stderr string, place placeFunc) (p Panic, ok bool) {
	lines := strings.Split(ansiEscape.ReplaceAllString(stderr, ""), "\n")
	start := -1
	for i := 0; i < len(lines) && start < 0; i++ {
		for _, kind := range []string{"panic", "fatal error"} {
			if rest, found := strings.CutPrefix(lines[i], kind+": "); found {
				p.Kind, p.Message, start = kind, rest, i
				break
			}
		}
	}
	if start < 0 {
		return Panic{}, false
	}
	i := start + 1
	for ; i < len(lines) && lines[i] != "" && !strings.HasPrefix(lines[i], "goroutine "); i++ {
		p.Message += "\n" + lines[i]
	}
	for ; i < len(lines); i++ {
		var pos cellpos.Pos
		if m := cellMarker.FindStringSubmatch(lines[i]); m != nil {
			pos.Cell, _ = strconv.Atoi(m[1]) // \d+ of a sane size
			pos.Line, _ = strconv.Atoi(m[2])
		} else if m := programFrame.FindStringSubmatch(lines[i]); m != nil && place != nil && !strings.Contains(lines[i], "[[ Cell") {
			// A frame GoNB did not mark ("[[ Cell Line 3 ]]", with no cell,
			// is GoNB's word that the line is its own: left so).
			n, err := strconv.Atoi(m[2])
			if err != nil {
				continue
			}
			placed := false
			if pos, placed = place(m[1], n); !placed {
				continue
			}
		} else {
			continue
		}
		p.Frames = append(p.Frames, Frame{Func: strings.TrimSpace(lines[i-1]), Cell: pos.Cell, Line: pos.Line})
	}
	return p, true
}

// Summary returns the message and where in the cells it happened:
// "boom (Cell [1] Line 3)", or the message alone when no frame is in cell
// code.
func (p Panic) Summary() string {
	if len(p.Frames) == 0 {
		return p.Message
	}
	return cellpos.At(p.Message, p.Frames[0].pos())
}

// Traceback returns the lines a notebook shows for p: "panic: boom", then
// one line per frame in cell code, "\tmain.main() [[ Cell [1] Line 3 ]]".
func (p Panic) Traceback() []string {
	tb := strings.Split(p.Kind+": "+p.Message, "\n")
	for _, f := range p.Frames {
		tb = append(tb, cellpos.TraceLine(f.Func, f.pos()))
	}
	return tb
}
