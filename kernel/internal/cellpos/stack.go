package cellpos

import "strings"

// Frame is a frame of a stack trace in cell code.
type Frame struct {
	// Func is the function as the trace names it:
	// "dlbd.cells/cell2.f(0x1, ...)".
	Func string
	// Pos is the frame's line.
	Pos Pos
}

// Name returns the frame's function as a student reads it: the cell's
// package without its module, arguments as "(...)", and a cell's body as
// "cell2 body": "cell2.f(...)".
func (f Frame) Name() string {
	fn := f.Func
	if j := strings.LastIndex(fn, "("); j > 0 {
		fn = fn[:j] + "(...)"
	}
	if pkg, ok := strings.CutSuffix(fn, "."+RunFunc+"(...)"); ok {
		fn = pkg + " body" // the cell's lines after %%
	}
	return strings.TrimPrefix(fn, Module+"/")
}

// ParseStack returns the frames in cell code of a Go stack trace (what
// runtime/debug.Stack returns, or what the runtime prints when a program
// dies), innermost first. A frame is two lines, the function and then,
// indented, its file and line: "\tdlbd-cell-2:3 +0x1d".
func ParseStack(trace string) []Frame {
	lines := strings.Split(trace, "\n")
	var frames []Frame
	for i := 1; i < len(lines); i++ {
		at := strings.TrimLeft(lines[i], " \t")
		if len(at) == len(lines[i]) {
			continue // not indented: a function's line
		}
		if p, _, ok := Parse(at); ok {
			frames = append(frames, Frame{Func: strings.TrimSpace(lines[i-1]), Pos: p})
		}
	}
	return frames
}
