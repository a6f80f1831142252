package stateful

import (
	"fmt"
	"sort"
	"strings"

	"github.com/dlbd/dlbd/kernel/internal/cellpos"
	"github.com/dlbd/dlbd/kernel/stateful/host"
	"github.com/dlbd/dlbd/kernel/stateful/internal/compose"
)

// lostValues says which cells of h to run again: those that ran to their
// end; the names that live on only from cells that failed are named apart.
func lostValues(h *compose.History) string {
	cells, unfinished := h.Cells(), h.Unfinished()
	if len(cells) == 0 && len(unfinished) == 0 {
		return "No values were lost."
	}
	msg := "The values of the earlier cells are lost."
	if len(cells) > 0 {
		msg = fmt.Sprintf("The values of the earlier cells are lost: run again the cells %s (in that order) for the names they declared.", cellList(cells))
	}
	if len(unfinished) > 0 {
		var names []string
		var failed []int
		seen := map[int]bool{}
		for _, s := range unfinished {
			names = append(names, s.Name)
			if !seen[s.Cell.Num] {
				seen[s.Cell.Num] = true
				failed = append(failed, s.Cell.Num)
			}
		}
		sort.Ints(failed)
		what := "The name " + names[0] + " comes"
		if len(names) > 1 {
			what = "The names " + strings.Join(names, ", ") + " come"
		}
		msg += fmt.Sprintf(" %s from cells that did not run to their end (%s, stopped by a panic or an interrupt): run them again once they can.", what, cellList(failed))
	}
	return msg
}

// cellList writes cell numbers as "[1], [3]".
func cellList(cells []int) string {
	names := make([]string, len(cells))
	for i, c := range cells {
		names[i] = fmt.Sprintf("[%d]", c)
	}
	return strings.Join(names, ", ")
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
