package stateful

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/dlbd/dlbd/kernel/cell"
	"github.com/dlbd/dlbd/kernel/stateful/host"
	"github.com/dlbd/dlbd/kernel/stateful/internal/compose"
)

// running is what an interrupt stops: the cell's context (builds, shell
// commands) and, while the host runs it, the host.
type running struct {
	cancel context.CancelFunc

	mu          sync.Mutex
	h           *hostProc     // set while the host runs the cell
	hostDone    chan struct{} // closed when the host has answered
	interrupted bool
	killed      bool // the host did not stop in time and was killed
}

// inHost records that h runs the cell until the returned function is called.
func (r *running) inHost(h *hostProc) (done func()) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.h, r.hostDone = h, make(chan struct{})
	ch := r.hostDone
	return func() {
		r.mu.Lock()
		r.h = nil
		r.mu.Unlock()
		close(ch)
	}
}

// state returns whether the cell was interrupted and its host killed.
func (r *running) state() (interrupted, killed bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.interrupted, r.killed
}

// Execute runs one cell, numbered num in messages ("Cell [num]", the
// execution count), showing its output on out.
func (s *Session) Execute(ctx context.Context, code string, num int, out Output) Result {
	s.sink.set(out)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	r := &running{cancel: cancel}
	s.mu.Lock()
	s.running = r
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.running = nil
		s.mu.Unlock()
	}()

	c, err := cell.Parse(code)
	if err != nil {
		return errorResult("syntax", err.Error())
	}
	for _, cmd := range c.Commands {
		var res Result
		if cmd.Kind == cell.Magic {
			res = s.magic(ctx, cmd, out)
		} else {
			res = s.shell(ctx, r, cmd, out)
		}
		if res.Status != "ok" || res.Mode != "" {
			return res
		}
	}
	if strings.TrimSpace(c.Decls) == "" && !c.HasBody {
		return okResult()
	}
	if len(c.BodyArgs) > 0 {
		return errorResult("syntax", fmt.Sprintf("Cell [%d] Line %d: arguments after %%%% (%s) are for a program of its own: in the stateful kernel every cell runs in one process; set what the cell needs in Go, or run it with %%mode process", num, c.BodyLine-1, strings.Join(c.BodyArgs, " ")))
	}
	select {
	case <-s.ready:
	case <-ctx.Done():
		return interruptedResult(num, "while the kernel prepared the session")
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
				return interruptedResult(num, "while the cell compiled")
			}
			return *res
		}
		if s.h == nil {
			s.hostStamp = fileStamp(s.hostBin)
			if s.h, err = s.startHost(); err != nil {
				return errorResult("kernel", err.Error())
			}
		}
		s.mu.Unlock() // Interrupt and the readers need the session while the cell runs
		done := r.inHost(s.h)
		rep, err := s.h.run(host.Request{Plugin: so, Cell: num})
		done()
		if s.o.Trace {
			fmt.Fprintf(s.o.Log, "dlbd stateful: Cell [%d]: compose %v, build %v, run %v\n", num, t1.Sub(t0).Round(time.Millisecond), t2.Sub(t1).Round(time.Millisecond), time.Since(t2).Round(time.Millisecond))
		}
		s.mu.Lock()
		if err != nil {
			return s.hostDied(r, num)
		}
		if rep.Status == "error" && rep.Phase == "load" && strings.Contains(rep.EValue, "plugin was built with a different version of package") && attempt == 0 {
			if res := s.sourceChanged(ctx, packageOf(rep.EValue), out); res != nil {
				return *res
			}
			continue // compose the cell again against the new host
		}
		if rep.Phase != "load" || rep.Status == "ok" {
			s.hist.Commit(o) // its variables exist, even after a panic in the body
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

// hostDied reports the host's end during cell num and forgets the
// session's values; the next cell starts a new host.
func (s *Session) hostDied(r *running, num int) Result {
	h := s.h
	s.h = nil
	h.kill() // what it left behind
	cells := s.hist.Cells()
	s.hist = compose.NewHistory(s.fset, s.index)
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
	msg := fmt.Sprintf("the kernel's process for this notebook %s while Cell [%d] ran. %s The next cell starts a new process.", why, num, lostValues(cells))
	ename := "kernel"
	if interrupted {
		ename = "interrupt"
	}
	return Result{Status: "error", EName: ename, EValue: msg, Traceback: []string{msg}}
}

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

// packageChanged finds the package a "different version" load error names.
var packageChanged = regexp.MustCompile(`different version of package (\S+)`)

// packageOf returns the package a "different version" load error names.
func packageOf(evalue string) string {
	if m := packageChanged.FindStringSubmatch(evalue); m != nil {
		return m[1]
	}
	return "a package of this module"
}

// checkSources looks for edits of the module's source since the host was
// built (a student changing dl mid-session). When the host program is no
// longer up to date, the session starts over with a new one, as after a
// load that failed for the same reason. Edits that do not reach the host
// (a notebook, a test) change nothing.
func (s *Session) checkSources(ctx context.Context, out Output) *Result {
	fp := s.fingerprint(s.o.Repo)
	if fp == s.sources {
		return nil
	}
	s.sources = fp
	bin, err := s.buildHost(ctx)
	if err != nil {
		r := errorResult("kernel", "this module's source changed and the kernel's process does not build any more: "+err.Error())
		return &r
	}
	if fileStamp(bin) == s.hostStamp {
		return nil
	}
	return s.sourceChanged(ctx, "this module", out)
}

// sourceChanged starts the session over after this module's source
// changed under it (pkg names what changed): a new host, an empty history,
// the package index read again, and a message for the student. It returns
// a result only when that fails.
func (s *Session) sourceChanged(ctx context.Context, pkg string, out Output) *Result {
	cells := s.hist.Cells()
	if s.h != nil {
		s.h.kill()
		s.h = nil
	}
	out.Stream("stderr", fmt.Sprintf("The source of %s changed since this notebook's session started: the kernel's process was rebuilt with it. %s\n", pkg, lostValues(cells)))
	bin, err := s.buildHost(ctx)
	if err != nil {
		r := errorResult("kernel", err.Error())
		return &r
	}
	s.hostBin, s.hostStamp, s.sources = bin, fileStamp(bin), s.fingerprint(s.o.Repo)
	s.index.Reset()
	s.hist = compose.NewHistory(s.fset, s.index)
	return nil
}

// build writes o's package and its plugin's main, and builds the plugin;
// it returns the plugin's path, or a failed result.
func (s *Session) build(ctx context.Context, o *compose.Output) (string, *Result) {
	pkgDir := filepath.Join(s.dir, o.Pkg.Name)
	mainDir := filepath.Join(s.dir, "plugins", o.Pkg.Name)
	so := filepath.Join(s.dir, "plugins", o.Pkg.Name+".so")
	wrapper := fmt.Sprintf("// Code generated by the dlbd kernel; DO NOT EDIT.\n\n// The plugin of Cell [%d].\npackage main\n\nimport cell %q\n\n// Run runs the cell's body.\nfunc Run() { cell.%s() }\n\n// Vars keeps the cell's variables (and their initialisation) in the plugin.\nvar Vars = cell.%s\n\nfunc main() {}\n",
		o.Pkg.Num, o.Pkg.Path, compose.RunFunc, compose.VarsHandle)
	for dir, content := range map[string][]byte{pkgDir: o.Source, mainDir: []byte(wrapper)} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			r := errorResult("kernel", err.Error())
			return "", &r
		}
		if err := os.WriteFile(filepath.Join(dir, "cell.go"), content, 0o644); err != nil {
			r := errorResult("kernel", err.Error())
			return "", &r
		}
	}
	if err := s.goBuildPlugin(ctx, so, mainDir); err != nil {
		r := buildFailed(o.Pkg.Num, err)
		return "", &r
	}
	return so, nil
}

// okResult is a cell that ran.
func okResult() Result { return Result{Status: "ok"} }

// errorResult is a failed cell with one message.
func errorResult(ename, msg string) Result {
	return Result{Status: "error", EName: ename, EValue: msg, Traceback: strings.Split(msg, "\n")}
}

// interruptedResult is a cell interrupted before it ran.
func interruptedResult(num int, when string) Result {
	return errorResult("interrupt", fmt.Sprintf("interrupted %s (Cell [%d]); the session's values are kept", when, num))
}

// compileResult is a cell that does not compile.
func compileResult(e *compose.Error) Result {
	first := e.Location(e.Problems[0]) + ": " + e.Problems[0].Msg
	return Result{Status: "error", EName: "compile", EValue: first, Traceback: strings.Split(e.Error(), "\n")}
}

// replyResult turns the host's reply into a result.
func replyResult(rep host.Reply) Result {
	if rep.Status == "ok" {
		return okResult()
	}
	return Result{Status: "error", EName: rep.EName, EValue: rep.EValue, Traceback: rep.Traceback}
}

// Interrupt stops the running cell: a build or shell command at once; a
// cell in the host through its context (kernel.Context, dl's long
// operations), and, when it has not stopped after the grace period, by
// killing the host (its values are lost, and the cell's result says so).
func (s *Session) Interrupt() {
	s.mu.Lock()
	r := s.running
	s.mu.Unlock()
	if r == nil {
		return
	}
	r.mu.Lock()
	r.interrupted = true
	h, done := r.h, r.hostDone
	r.mu.Unlock()
	r.cancel()
	if h == nil {
		return
	}
	h.p.Signal(syscall.SIGINT)
	go func() { // ends when the cell stops or its host is killed
		select {
		case <-done:
		case <-time.After(s.o.InterruptGrace):
			r.mu.Lock()
			stuck := r.h == h
			r.killed = stuck
			r.mu.Unlock()
			if stuck {
				h.p.Kill()
			}
		}
	}()
}
