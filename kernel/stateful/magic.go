package stateful

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/dlbd/dlbd/kernel/cell"
	"github.com/dlbd/dlbd/kernel/stateful/host"
	"github.com/dlbd/dlbd/kernel/stateful/internal/complete"
)

// helpText is what %help prints: the magics from complete.Magics, the one
// list that completion and inspection show too.
var helpText = func() string {
	var b strings.Builder
	b.WriteString("Stateful dlbd kernel: the values a cell makes live on in the cells after it.\n")
	line := func(usage, help string) { fmt.Fprintf(&b, "  %-24s %s\n", usage, help) }
	line("declarations", "func, type, var, const, import: seen by every later cell")
	line("!cmd", "run cmd in a shell in the notebook's directory (!*cmd: in the session's)")
	for _, m := range complete.Magics {
		line(m.Usage, m.Help)
	}
	b.WriteString(`Each cell is a Go package: a later cell sees the exported (capitalised) fields and methods
of an earlier cell's types, and methods are declared in the cell that declares their type.
kernel.Context() is cancelled when you interrupt a cell: long loops can watch it and stop.`)
	return b.String()
}()

// magicNames lists the magics for an error message: "%%, %reset, …".
func magicNames() string {
	names := make([]string, len(complete.Magics))
	for i, m := range complete.Magics {
		names[i] = "%" + m.Name
	}
	return strings.Join(names, ", ")
}

// magic runs one %command. %mode is not one of them: the kernel's front
// end (package kernel/frontend) owns the modes, and runs the cells that
// hold %mode itself; one that reaches a Session is unknown here.
func (s *Session) magic(ctx context.Context, m cell.Command, out Output) Result {
	args := m.Args()
	switch m.Name() {
	case "help":
		out.Stream("stdout", helpText+"\n")
	case "reset":
		s.reset(out)
	case "who":
		s.who(out)
	case "env":
		name, value, ok := strings.Cut(strings.Join(args, " "), "=")
		if !ok && len(args) == 2 {
			name, value, ok = args[0], args[1], true
		}
		if !ok || name == "" {
			return errorResult("magic", fmt.Sprintf("Cell line %d: use %%env NAME=VALUE (or %%env NAME VALUE)", m.Line))
		}
		if err := s.setEnv(name, value); err != nil {
			return errorResult("magic", err.Error())
		}
		out.Stream("stdout", fmt.Sprintf("Set: %s=%q\n", name, value))
	case "cd":
		if len(args) == 0 {
			out.Stream("stdout", fmt.Sprintf("Current directory: %q\n", s.o.WorkDir))
			return okResult()
		}
		dir := strings.Join(args, " ")
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(s.o.WorkDir, dir)
		}
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			return errorResult("magic", fmt.Sprintf("%%cd %s: not a directory", dir))
		}
		if err := s.hostOp(ctx, "cd", dir, ""); err != nil {
			return errorResult("magic", err.Error())
		}
		s.o.WorkDir = dir
		out.Stream("stdout", fmt.Sprintf("Changed directory to %q\n", dir))
	default:
		return errorResult("magic", fmt.Sprintf("%%%s (cell line %d) is not a magic of the stateful kernel, which knows %s (see %%help; %%mode alone in its cell); GoNB's other magics work after %%mode process", m.Name(), m.Line, magicNames()))
	}
	return okResult()
}

// setEnv sets an environment variable for shell commands, the running
// host and the hosts to come.
func (s *Session) setEnv(name, value string) error {
	s.mu.Lock()
	s.env[name] = value
	s.mu.Unlock()
	return s.hostOp(context.Background(), "env", name, value)
}

// hostOp applies a %env or %cd to the running host, if there is one.
func (s *Session) hostOp(ctx context.Context, op host.Op, a, b string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.h == nil {
		return nil // a new host starts with it
	}
	return s.h.op(op, a, b)
}

// reset drops the session's values and declarations and stops the host.
func (s *Session) reset(out Output) {
	select {
	case <-s.ready:
	default:
		out.Stream("stdout", "Nothing to reset: the session has run no Go code yet.\n")
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.readyErr != nil {
		return
	}
	n := len(s.hist.Symbols())
	if s.h != nil {
		s.h.stop(closeGrace)
		s.h = nil
	}
	s.resetHistory()
	s.lost = ""
	out.Stream("stdout", fmt.Sprintf("Session reset: %d names and their values dropped; the next cell starts a new kernel process.\n", n))
}

// who lists the names that live on.
func (s *Session) who(out Output) {
	select {
	case <-s.ready:
	default:
		out.Stream("stdout", "No names yet: the session has run no Go code.\n")
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.hist == nil || len(s.hist.Symbols()) == 0 {
		out.Stream("stdout", "No names live on in this session yet.\n")
		return
	}
	var md, txt strings.Builder
	md.WriteString("| name | kind | type | cell |\n|---|---|---|---|\n")
	for _, sym := range s.hist.Symbols() {
		typ := sym.TypeString()
		fmt.Fprintf(&md, "| `%s` | %s | `%s` | [%d] |\n", sym.Name, sym.Kind, strings.ReplaceAll(typ, "|", `\|`), sym.Cell.Num)
		fmt.Fprintf(&txt, "%-16s %-5s %-32s [%d]\n", sym.Name, sym.Kind, typ, sym.Cell.Num)
	}
	out.Display(Display{Data: map[string]any{"text/markdown": md.String(), "text/plain": txt.String()}})
}
