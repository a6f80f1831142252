package stateful

import (
	"fmt"
	"strings"

	"github.com/dlbd/dlbd/kernel/internal/cellpos"
	"github.com/dlbd/dlbd/kernel/stateful/host"
	"github.com/dlbd/dlbd/kernel/stateful/internal/compose"
)

// lostValues says which cells to run again.
func lostValues(cells []int) string {
	if len(cells) == 0 {
		return "No values were lost."
	}
	names := make([]string, len(cells))
	for i, c := range cells {
		names[i] = fmt.Sprintf("[%d]", c)
	}
	return fmt.Sprintf("The values of the earlier cells are lost: run again the cells %s (in that order) for the names they declared.", strings.Join(names, ", "))
}

// okResult is a cell that ran.
func okResult() Result { return Result{Status: StatusOK} }

// errorResult is a failed cell with one message.
func errorResult(ename, msg string) Result {
	return Result{Status: StatusError, EName: ename, EValue: msg, Traceback: strings.Split(msg, "\n")}
}

// interruptedResult is a cell interrupted before it ran.
func interruptedResult(num int, when string) Result {
	return errorResult("interrupt", cellpos.At("interrupted "+when, cellpos.Pos{Cell: num})+"; the session's values are kept")
}

// shutdownResult is a cell stopped by Close: the kernel shuts down or
// restarts.
func shutdownResult(num int, when string) Result {
	return errorResult("shutdown", fmt.Sprintf("%v was stopped %s: the kernel is shutting down (a shutdown or a restart of the kernel). The values of this session are gone with it.", cellpos.Pos{Cell: num}, when))
}

// stoppedResult is the result of a cell whose context ended at when: an
// interrupt, or Close.
func (s *Session) stoppedResult(num int, when string) Result {
	if s.closing() {
		return shutdownResult(num, when)
	}
	return interruptedResult(num, when)
}

// compileResult is a cell that does not compile.
func compileResult(e *compose.Error) Result {
	first := e.Location(e.Problems[0]) + ": " + e.Problems[0].Msg
	return Result{Status: StatusError, EName: "compile", EValue: first, Traceback: strings.Split(e.Error(), "\n")}
}

// replyResult turns the host's reply into a result.
func replyResult(rep host.Reply) Result {
	if rep.Status == host.StatusOK {
		return okResult()
	}
	return Result{Status: StatusError, EName: rep.EName, EValue: rep.EValue, Traceback: rep.Traceback}
}
