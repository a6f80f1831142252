package frontend

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/dlbd/dlbd/kernel/internal/kerneltest"
	"github.com/dlbd/dlbd/kernel/jupyter"
	"github.com/dlbd/dlbd/kernel/protocol"
)

// TestModeCells checks that the front end runs every cell with a %mode
// command itself, in either mode, and that %mode goes alone in its cell.
func TestModeCells(t *testing.T) {
	c := start(t, "frontend-stateful")
	steps := []struct {
		code   string
		evalue string // "" for a cell that succeeds
		stdout string
	}{
		{code: "%mode", evalue: modeUsage},
		{code: "%mode proceso", evalue: modeUsage},
		{code: "%mode process\nfmt.Println(1)", evalue: modeAlone},
		{code: "%env A=1\n%mode process", evalue: modeAlone},
		{code: "// cambio de modo\n%mode process", stdout: "Process mode"},
		{code: "%mode process", stdout: "Already in process mode"},
		{code: "%%\n%mode stateful", evalue: modeAlone},
		{code: "%mode stateful", stdout: "Stateful mode"},
	}
	for _, st := range steps {
		ex, err := c.Execute(kerneltest.Context(t, 10*time.Second), st.code)
		var ce *jupyter.CellError
		switch {
		case st.evalue == "" && (err != nil || !strings.Contains(ex.Stdout(), st.stdout)):
			t.Errorf("Execute(%q) = stdout %q, %v; want %q", st.code, ex.Stdout(), err, st.stdout)
		case st.evalue != "" && (!errors.As(err, &ce) || ce.EName != "magic" || ce.EValue != st.evalue):
			t.Errorf("Execute(%q) = %v; want the magic error %q", st.code, err, st.evalue)
		case strings.HasPrefix(ex.Stdout(), "stateful "):
			t.Errorf("Execute(%q) reached the executor: %q", st.code, ex.Stdout())
		}
	}
}

// TestInterruptByMode checks who answers interrupt_request: the front end
// in the stateful mode, after interrupting the running cell, and GoNB (the
// fake kernel, session "fake") in the process mode.
func TestInterruptByMode(t *testing.T) {
	c := start(t, "frontend-stateful")
	m, _ := c.NewMessage("execute_request", protocol.ExecuteRequest{Code: "espera", UserExpressions: map[string]string{}, StoreHistory: true})
	s := c.Subscribe(m)
	defer s.Close()
	if err := c.Send(kerneltest.Context(t, 5*time.Second), protocol.Shell, m); err != nil {
		t.Fatal(err)
	}
	ctx := kerneltest.Context(t, 10*time.Second)
	for r, err := s.Next(ctx); r == nil || r.Header.MsgType != "stream"; r, err = s.Next(ctx) {
		if err != nil {
			t.Fatalf("waiting for the cell to run: %v", err)
		}
	}
	interrupt := func() *jupyter.Message {
		t.Helper()
		req, _ := c.NewMessage("interrupt_request", nil)
		r, err := c.Request(kerneltest.Context(t, 5*time.Second), protocol.Control, req)
		var ir protocol.InterruptReply
		if err != nil || r.Channel != protocol.Control || r.DecodeContent(&ir) != nil || ir.Status != "ok" {
			t.Fatalf("interrupt_request: reply %v, %v; want status ok on control", r, err)
		}
		return r
	}
	if r := interrupt(); r.Header.Session == "fake" {
		t.Errorf("GoNB answered the interrupt_request of a stateful cell")
	}
	for {
		r, err := s.Next(ctx)
		if err != nil {
			t.Fatalf("no execute_reply after the interrupt: %v", err)
		}
		var rep protocol.ExecuteReply
		if r.Header.MsgType == "execute_reply" && r.DecodeContent(&rep) == nil {
			if rep.EName != "interrupt" {
				t.Errorf("interrupted cell: %+v; want an interrupt error", rep)
			}
			break
		}
	}
	runCode(t, c, "%mode process")
	if r := interrupt(); r.Header.Session != "fake" {
		t.Errorf("interrupt_request in the process mode answered by session %q; want GoNB's", r.Header.Session)
	}
}

// TestInterruptLostByGoNB checks that an interrupt_request in the process
// mode stops the cell's program even when GoNB drops it (GoNB v0.11.4 does
// when the request comes before it has subscribed its handler; the fake
// kernel always does): the front end sends the program SIGINT after
// interruptGrace, SIGKILL interruptKill later if it still runs, and leaves
// GoNB's own tools alone.
func TestInterruptLostByGoNB(t *testing.T) {
	c := start(t, "frontend")
	for _, tc := range []struct {
		cell, ended string
		after       time.Duration
	}{
		{"process", "signal: interrupt", interruptGrace},
		{"process ignoring SIGINT", "signal: killed", interruptGrace + interruptKill},
	} {
		got, took := interruptCell(t, c, tc.cell)
		if want := "corriendo\nprogram: " + tc.ended + "; tool: signal: killed\n"; got != want {
			t.Errorf("interrupted cell %q printed %q; want %q (its program ended by the front end, GoNB's tool left running until the cell killed it)", tc.cell, got, want)
		}
		if took < tc.after {
			t.Errorf("cell %q: the program stopped %v after interrupt_request; want no sooner than %v", tc.cell, took, tc.after)
		}
		if ex, err := c.Execute(kerneltest.Context(t, 10*time.Second), "hola"); err != nil || ex.Stdout() != "hola\n" {
			t.Errorf("cell after interrupting %q: %q, %v; want hola", tc.cell, ex.Stdout(), err)
		}
	}
}

// interruptCell runs code, sends interrupt_request once the cell has
// printed, and returns the cell's stdout and how long it ran on after the
// request.
func interruptCell(t *testing.T, c *jupyter.Client, code string) (stdout string, took time.Duration) {
	t.Helper()
	running := make(chan struct{})
	type result struct {
		ex  *jupyter.Execution
		err error
	}
	done := make(chan result, 1)
	go func() {
		seen := false // onOutput runs on this goroutine
		ex, err := c.ExecuteWith(kerneltest.Context(t, time.Minute), protocol.ExecuteRequest{Code: code, StoreHistory: true}, func(m *jupyter.Message) {
			if m.Header.MsgType == "stream" && !seen {
				seen = true
				close(running)
			}
		})
		done <- result{ex, err}
	}()
	select {
	case <-running:
	case r := <-done:
		t.Fatalf("cell %q ended before its interrupt: %q, %v", code, r.ex.Stdout(), r.err)
	}
	t0 := time.Now()
	req, _ := c.NewMessage("interrupt_request", nil)
	if r, err := c.Request(kerneltest.Context(t, 5*time.Second), protocol.Control, req); err != nil || r.Header.Session != "fake" {
		t.Fatalf("interrupt_request: reply %v, %v; want GoNB's", r, err)
	}
	select {
	case r := <-done:
		if r.err != nil {
			t.Fatalf("interrupted cell %q: %v", code, r.err)
		}
		return r.ex.Stdout(), time.Since(t0)
	case <-time.After(30 * time.Second):
		t.Fatalf("cell %q: its program still runs 30 s after interrupt_request", code)
	}
	return "", 0
}
