package frontend

import (
	"fmt"
	"go/scanner"
	"go/token"

	"github.com/dlbd/dlbd/kernel/cell"
	"github.com/dlbd/dlbd/kernel/protocol"
)

// Mode is how the kernel runs cells. The front end owns it: it starts in
// Options.Mode, and a %mode cell switches it for the cells after it. The
// stateful executor never sees %mode.
type Mode string

// The kernel's modes.
const (
	// ModeStateful runs cells in the Executor: values live on.
	ModeStateful Mode = "stateful"
	// ModeProcess forwards cells to GoNB: each is a new process.
	ModeProcess Mode = "process"
)

// The errors of a %mode cell.
const (
	modeUsage = "%mode takes one word: process (each cell a new process, as GoNB) or stateful (values live on)"
	modeAlone = "%mode goes in a cell of its own (comments aside): it switches the mode for the cells after it, so run the rest of this cell in another one"
	noExec    = "the stateful mode is not available in this kernel (it needs Linux or macOS, cgo and a C compiler); it stays in process mode"
)

// modeCommand returns the %mode command of code, wherever it is in the
// cell; ok is false when there is none (or the cell cannot be parsed: the
// mode that runs it reports that).
func modeCommand(code string) (c *cell.Cell, m cell.Command, ok bool) {
	c, err := cell.Parse(code)
	if err != nil {
		return nil, cell.Command{}, false
	}
	m, ok = c.Magic("mode")
	return c, m, ok
}

// switchMode runs a cell holding the %mode command m, in either mode.
func (e *execute) switchMode(j *job, c *cell.Cell, m cell.Command) {
	num, done := e.begin(j)
	defer done()
	mode, problem := e.requested(c, m)
	if problem != "" {
		err := protocol.NewError("magic", problem, []string{problem})
		e.finish(j, num, &err)
		return
	}
	e.setMode(j, mode)
	e.finish(j, num, nil)
}

// requested returns the mode the %mode command m of cell c asks for, or
// why the kernel cannot switch to it.
func (e *execute) requested(c *cell.Cell, m cell.Command) (Mode, string) {
	args := m.Args()
	if len(args) != 1 || Mode(args[0]) != ModeProcess && Mode(args[0]) != ModeStateful {
		return "", modeUsage
	}
	if len(c.Commands) != 1 || c.HasBody || !onlyComments(c.Decls) {
		return "", modeAlone
	}
	mode := Mode(args[0])
	if mode == ModeStateful {
		if e.ex == nil {
			return "", noExec
		}
		if err := e.ex.Available(); err != nil {
			return "", fmt.Sprintf("the stateful mode is unavailable: %v", err)
		}
	}
	return mode, ""
}

// onlyComments reports whether the Go text src holds nothing but comments
// and blanks.
func onlyComments(src string) bool {
	var s scanner.Scanner
	s.Init(token.NewFileSet().AddFile("cell", -1, len(src)), []byte(src), nil, scanner.ScanComments)
	for {
		switch _, tok, _ := s.Scan(); tok {
		case token.EOF:
			return true
		case token.COMMENT:
		default:
			return false
		}
	}
}

// setMode switches the mode for the next cells and says what that means.
func (e *execute) setMode(j *job, mode Mode) {
	if mode == e.currentMode() {
		e.note(j, "stdout", fmt.Sprintf("Already in %s mode.\n", mode))
		return
	}
	e.mode.Store(mode)
	if mode == ModeProcess {
		e.note(j, "stdout", "Process mode: from the next cell on, each cell is compiled and run as a new process (GoNB). Declarations of later cells persist, values do not; what earlier cells declared in stateful mode is not carried over. %mode stateful switches back.\n")
		return
	}
	e.note(j, "stdout", "Stateful mode: from the next cell on, the values cells make live on in the cells after them. What earlier cells declared in process mode is not carried over: run those cells again. %mode process switches back.\n")
}
