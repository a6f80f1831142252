package stateful

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"syscall"
	"time"

	"github.com/dlbd/dlbd/kernel/cell"
	"github.com/dlbd/dlbd/kernel/internal/cellpos"
	"github.com/dlbd/dlbd/kernel/stateful/host"
	"github.com/dlbd/dlbd/kernel/stateful/internal/compose"
)

// Execute runs one cell, numbered num in messages ("Cell [num]", the
// execution count), showing its output on out.
func (s *Session) Execute(ctx context.Context, code string, num int, out Output) Result {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	r := &running{cancel: cancel}
	if !s.begin(r) {
		return shutdownResult(num, "before it started")
	}
	defer s.end()
	s.sink.set(out)

	c, err := cell.Parse(code)
	if err != nil {
		return errorResult("syntax", err.Error())
	}
	c.StatementsAsBody() // a cell of statements alone runs as a body, as if it began with %%
	for _, cmd := range c.Commands {
		var res Result
		if cmd.Kind == cell.Magic {
			res = s.magic(ctx, cmd, out)
		} else {
			res = s.shell(ctx, num, cmd, out)
		}
		if res.Status != StatusOK {
			return res
		}
	}
	if strings.TrimSpace(c.Decls) == "" && !c.HasBody {
		return okResult()
	}
	if len(c.BodyArgs) > 0 {
		return errorResult("syntax", fmt.Sprintf("%v: arguments after %%%% (%s) are for a program of its own: in the stateful kernel every cell runs in one process; set what the cell needs in Go, or run it with %%mode process", cellpos.Pos{Cell: num, Line: c.BodyLine - 1}, strings.Join(c.BodyArgs, " ")))
	}
	select {
	case <-s.ready:
	case <-ctx.Done():
		return s.stoppedResult(num, "while the kernel prepared the session")
	}
	if s.readyErr != nil {
		return errorResult("kernel", s.readyErr.Error())
	}
	return s.runGo(ctx, r, c, num, out)
}

// runGo composes, builds and runs the Go code of cell c.
func (s *Session) runGo(ctx context.Context, r *running, c *cell.Cell, num int, out Output) Result {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.lost != "" {
		out.Stream("stderr", s.lost+"\n")
		s.lost = ""
	}
	if res := s.checkSources(ctx, out); res != nil {
		return *res
	}
	for attempt := 0; ; attempt++ {
		t0 := time.Now()
		name := s.packageName(num)
		o, err := s.hist.Compose(compose.Input{Num: num, Name: name, Decls: c.Decls, Body: c.Body, HasBody: c.HasBody, BodyLine: c.BodyLine})
		var ce *compose.Error
		switch {
		case errors.As(err, &ce):
			return compileResult(ce)
		case err != nil:
			return errorResult("kernel", err.Error())
		}
		for _, n := range o.Notes {
			out.Stream("stderr", "note: "+n+"\n")
		}
		t1 := time.Now()
		so, res := s.build(ctx, o)
		t2 := time.Now()
		if res != nil {
			if ctx.Err() != nil {
				return s.stoppedResult(num, "while the cell compiled")
			}
			return *res
		}
		if s.h == nil {
			s.hostStamp = fileStamp(s.hostBin)
			if s.h, err = s.startHost(); err != nil {
				return errorResult("kernel", err.Error())
			}
		}
		h := s.h
		s.mu.Unlock()       // the readers, %who and Close need the session while the cell runs
		done := r.inHost(h) // Close kills h, through r or as s.h
		rep, err := h.run(host.Request{Plugin: so, Cell: num})
		done()
		if s.o.Trace {
			fmt.Fprintf(s.o.Log, "dlbd stateful: Cell [%d]: compose %v, build %v, run %v\n", num, t1.Sub(t0).Round(time.Millisecond), t2.Sub(t1).Round(time.Millisecond), time.Since(t2).Round(time.Millisecond))
		}
		s.mu.Lock()
		if err != nil {
			return s.hostDied(r, h, num)
		}
		if rep.Status == host.StatusError && rep.Phase == host.PhaseLoad && strings.Contains(rep.EValue, "plugin was built with a different version of package") && attempt == 0 {
			if res := s.sourceChanged(ctx, packageOf(rep.EValue), out); res != nil {
				return *res
			}
			continue // compose the cell again against the new host
		}
		if rep.Phase != host.PhaseLoad || rep.Status == host.StatusOK {
			s.hist.Commit(o) // its variables exist, even after a panic in the body
		}
		if rep.Status == host.StatusOK {
			s.hist.Completed(o)
		}
		if rep.Result != nil {
			out.Display(Display{Data: rep.Result, Result: true})
		}
		return replyResult(rep)
	}
}

// packageName returns an unused package name for cell num.
func (s *Session) packageName(num int) string {
	name := fmt.Sprintf("cell%d", num)
	for i := 2; s.used[name]; i++ {
		name = fmt.Sprintf("cell%d_%d", num, i)
	}
	s.used[name] = true
	return name
}

// hostDied reports the end of host h during cell num and forgets the
// session's values; the next cell starts a new host. When the session is
// closing, Close ended h: the result says so.
func (s *Session) hostDied(r *running, h *hostProc, num int) Result {
	if s.h == h {
		s.h = nil
	}
	h.kill() // what it left behind
	if s.closing() {
		return shutdownResult(num, "while it ran")
	}
	lost := lostValues(s.hist)
	s.resetHistory()
	why := "ended: it " + h.p.Describe()
	if crash, frames := host.ParseCrash(h.stderr.String()); crash != "" {
		why = "ended: " + crash
		if len(frames) > 0 {
			why += " (" + frames[0] + ")"
		}
	}
	interrupted, killed := r.state()
	switch {
	case killed:
		why = fmt.Sprintf("did not stop within %v of the interrupt and was stopped", s.o.InterruptGrace)
	case h.p.ExitCode() == 128+int(syscall.SIGKILL):
		why += " — was the machine out of memory?"
	}
	msg := fmt.Sprintf("the kernel's process for this notebook %s while %v ran. %s The next cell starts a new process.", why, cellpos.Pos{Cell: num}, lost)
	ename := "kernel"
	if interrupted {
		ename = "interrupt"
	}
	return Result{Status: StatusError, EName: ename, EValue: msg, Traceback: []string{msg}}
}
