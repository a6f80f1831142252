package frontend

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dlbd/dlbd/kernel/internal/kerneltest"
	"github.com/dlbd/dlbd/kernel/jupyter"
	"github.com/dlbd/dlbd/kernel/protocol"
	"github.com/dlbd/dlbd/kernel/stateful"
)

// fakeExecutor stands for the stateful executor: it prints "stateful
// <code>", fails the cell "falla" after half a second, and runs the cell
// "espera" until Close or Interrupt.
type fakeExecutor struct {
	unavailable error
	closed      chan struct{}
	closeOnce   sync.Once
	interrupted chan struct{}
}

func newFakeExecutor(unavailable error) *fakeExecutor {
	return &fakeExecutor{unavailable: unavailable, closed: make(chan struct{}), interrupted: make(chan struct{}, 1)}
}

func (f *fakeExecutor) Available() error { return f.unavailable }

func (f *fakeExecutor) Execute(_ context.Context, code string, num int, out stateful.Output) stateful.Result {
	out.Stream("stdout", "stateful "+code+"\n")
	if code == "falla" {
		time.Sleep(500 * time.Millisecond) // as a cell compiles: the requests behind it queue up
		return stateful.Result{Status: "error", EName: "panic", EValue: "falló", Traceback: []string{"panic: falló"}}
	}
	if code == "espera" {
		select {
		case <-f.closed:
			return stateful.Result{Status: "error", EName: "shutdown", EValue: "the kernel is shutting down"}
		case <-f.interrupted:
			return stateful.Result{Status: "error", EName: "interrupt", EValue: "interrupted"}
		}
	}
	return stateful.Result{Status: "ok"}
}

func (f *fakeExecutor) Interrupt() {
	select {
	case f.interrupted <- struct{}{}:
	default:
	}
}

func (f *fakeExecutor) Close() error {
	f.closeOnce.Do(func() { close(f.closed) })
	return nil
}

// runCode runs code and returns its stdout and execution count.
func runCode(t *testing.T, c *jupyter.Client, code string) (string, int) {
	t.Helper()
	ex, err := c.Execute(kerneltest.Context(t, 10*time.Second), code)
	if err != nil {
		t.Fatalf("Execute(%q): %v", code, err)
	}
	return ex.Stdout(), ex.Reply.ExecutionCount
}

func TestModesShareOneQueueAndCount(t *testing.T) {
	c := start(t, "frontend-stateful")
	steps := []struct {
		code, stdout string
		count        int
	}{
		{"uno", "stateful uno\n", 1},
		{"%mode process", "Process mode", 2},
		{"dos", "dos\n", 3}, // GoNB (the fake kernel) counts 1: the front end renumbers
		{"%mode stateful", "Stateful mode", 4},
		{"tres", "stateful tres\n", 5},
	}
	for _, st := range steps {
		out, n := runCode(t, c, st.code)
		if !strings.Contains(out, st.stdout) || n != st.count {
			t.Errorf("Execute(%q) = stdout %q, count %d; want %q, %d", st.code, out, n, st.stdout, st.count)
		}
	}
}

func TestUnavailableExecutorFallsBackToProcesses(t *testing.T) {
	c := start(t, "frontend-unavailable")
	ex, err := c.Execute(kerneltest.Context(t, 10*time.Second), "hola")
	if err != nil || ex.Stdout() != "hola\n" {
		t.Fatalf("Execute = stdout %q, %v; want the fake kernel's hola", ex.Stdout(), err)
	}
	if e := ex.Stderr(); !strings.Contains(e, "stateful mode is unavailable (no C compiler (gcc) on PATH)") {
		t.Errorf("stderr %q; want the reason the stateful mode is off", e)
	}
}

func TestFailedCellAbortsQueuedOnes(t *testing.T) {
	c := start(t, "frontend-stateful")
	var subs []*jupyter.Subscription
	for _, code := range []string{"falla", "otra", "y otra"} {
		m, _ := c.NewMessage("execute_request", protocol.ExecuteRequest{Code: code, UserExpressions: map[string]string{}, StopOnError: true})
		subs = append(subs, c.Subscribe(m))
		if err := c.Send(kerneltest.Context(t, 5*time.Second), protocol.Shell, m); err != nil {
			t.Fatal(err)
		}
	}
	want := []string{"error", "aborted", "aborted"}
	for i, s := range subs {
		ctx := kerneltest.Context(t, 10*time.Second)
		for {
			m, err := s.Next(ctx)
			if err != nil {
				t.Fatalf("request %d: %v", i, err)
			}
			if m.Header.MsgType == "execute_reply" {
				var r protocol.ExecuteReply
				m.DecodeContent(&r)
				if r.Status != want[i] {
					t.Errorf("request %d: status %q; want %q (a failed cell aborts the ones queued behind it)", i, r.Status, want[i])
				}
				break
			}
		}
		s.Close()
	}
}

// TestShutdownAnswersRunningCellFirst sends shutdown_request (and, in a
// second kernel, a restart's) while a stateful cell runs and another
// waits: the running cell gets its error reply and the waiting one
// "aborted" before the shutdown completes, and the kernel exits 0.
func TestShutdownAnswersRunningCellFirst(t *testing.T) {
	for _, restart := range []bool{false, true} {
		t.Run(fmt.Sprintf("restart=%v", restart), func(t *testing.T) {
			c := start(t, "frontend-stateful")
			var subs []*jupyter.Subscription
			for _, code := range []string{"espera", "otra"} {
				m, _ := c.NewMessage("execute_request", protocol.ExecuteRequest{Code: code, UserExpressions: map[string]string{}, StopOnError: true})
				subs = append(subs, c.Subscribe(m))
				if err := c.Send(kerneltest.Context(t, 5*time.Second), protocol.Shell, m); err != nil {
					t.Fatal(err)
				}
			}
			for ctx := kerneltest.Context(t, 10*time.Second); ; {
				m, err := subs[0].Next(ctx)
				if err != nil {
					t.Fatalf("waiting for the cell to run: %v", err)
				}
				if m.Header.MsgType == "stream" {
					break
				}
			}
			if err := c.ShutdownWith(kerneltest.Context(t, 10*time.Second), restart); err != nil {
				t.Fatalf("shutdown: %v", err)
			}
			if code := c.ExitCode(); code != 0 {
				t.Errorf("kernel exit status %d after shutdown; want 0\n%s", code, c.Output())
			}
			for i, want := range []string{"error", "aborted"} {
				ctx := kerneltest.Context(t, time.Second) // sent before the shutdown_reply
				for {
					m, err := subs[i].Next(ctx)
					if err != nil {
						t.Fatalf("request %d: no execute_reply by the shutdown: %v", i, err)
					}
					if m.Header.MsgType != "execute_reply" {
						continue
					}
					var r protocol.ExecuteReply
					m.DecodeContent(&r)
					if r.Status != want || (i == 0 && r.EName != "shutdown") {
						t.Errorf("request %d: execute_reply %s %s; want %s", i, r.Status, r.EName, want)
					}
					break
				}
			}
		})
	}
}

// TestHistoryAnswered: history_request gets the counted cells of either
// mode, as tail, range and search, with the output when asked.
func TestHistoryAnswered(t *testing.T) {
	c := start(t, "frontend-stateful")
	for _, code := range []string{"uno", "%mode process", "dos", "%mode stateful", "tres"} {
		runCode(t, c, code)
	}
	ctx := kerneltest.Context(t, 10*time.Second)
	inputs := func(r protocol.HistoryReply) []string {
		var out []string
		for _, e := range r.History {
			out = append(out, fmt.Sprint(e[1], ":", e[2]))
		}
		return out
	}
	for _, tt := range []struct {
		req  protocol.HistoryRequest
		want string
	}{
		{protocol.HistoryRequest{HistAccessType: "tail", N: 2}, "[4:%mode stateful 5:tres]"},
		{protocol.HistoryRequest{HistAccessType: "range", Start: 2, Stop: 4}, "[2:%mode process 3:dos]"},
		{protocol.HistoryRequest{HistAccessType: "range", Session: 7}, "[]"},
		{protocol.HistoryRequest{HistAccessType: "search", Pattern: "%mode*", N: 1}, "[4:%mode stateful]"},
		{protocol.HistoryRequest{HistAccessType: "search", Pattern: "*o*"}, "[1:uno 2:%mode process 3:dos 4:%mode stateful]"},
	} {
		r, err := c.History(ctx, tt.req)
		if err != nil {
			t.Fatalf("History(%+v): %v", tt.req, err)
		}
		if got := fmt.Sprint(inputs(r)); r.Status != "ok" || got != tt.want {
			t.Errorf("History(%+v) = %s %s; want ok %s", tt.req, r.Status, got, tt.want)
		}
	}
	r, err := c.History(ctx, protocol.HistoryRequest{HistAccessType: "tail", N: 1, Output: true})
	if err != nil || len(r.History) != 1 {
		t.Fatalf("History with output: %v, %v", r, err)
	}
	if pair, ok := r.History[0][2].([]any); !ok || len(pair) != 2 || pair[0] != "tres" {
		t.Errorf("history entry with output: %v; want [session, 5, [tres, output]]", r.History[0])
	}
}

// TestKernelInfoHasHelpLinks: the front end adds the course's help links
// to GoNB's kernel_info_reply.
func TestKernelInfoHasHelpLinks(t *testing.T) {
	c := start(t, "frontend-stateful")
	info, err := c.KernelInfo(kerneltest.Context(t, 10*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	var urls []string
	for _, l := range info.HelpLinks {
		urls = append(urls, l.URL)
	}
	if !slices.Contains(urls, "https://pkg.go.dev/std") || info.Implementation != "fake" {
		t.Errorf("kernel_info_reply help links %v (implementation %q); want GoNB's reply with the Go standard library's link", urls, info.Implementation)
	}
}

// statusesOf reads s until it has seen n status messages and returns
// their execution states.
func statusesOf(t *testing.T, s *jupyter.Subscription, n int) []string {
	t.Helper()
	var states []string
	ctx := kerneltest.Context(t, 10*time.Second)
	for len(states) < n {
		m, err := s.Next(ctx)
		if err != nil {
			t.Fatalf("after statuses %v: %v", states, err)
		}
		var st protocol.Status
		if m.Header.MsgType == "status" && m.DecodeContent(&st) == nil {
			states = append(states, st.ExecutionState)
		}
	}
	return states
}

// TestAnswersPublishBusyIdle: the front end's own answers (Tab here) come
// between busy and idle, which JupyterLab waits for; a cell that runs
// meanwhile is shown busy again at once, and idle when it ends.
func TestAnswersPublishBusyIdle(t *testing.T) {
	c := start(t, "frontend-stateful")
	ctx := kerneltest.Context(t, 10*time.Second)
	m, _ := c.NewMessage("complete_request", protocol.CompleteRequest{Code: "fo", CursorPos: 2})
	sub := c.Subscribe(m)
	if err := c.Send(ctx, protocol.Shell, m); err != nil {
		t.Fatal(err)
	}
	if got := statusesOf(t, sub, 2); fmt.Sprint(got) != "[busy idle]" {
		t.Errorf("statuses of a complete_request: %v; want busy, idle", got)
	}
	sub.Close()

	run, _ := c.NewMessage("execute_request", protocol.ExecuteRequest{Code: "espera", UserExpressions: map[string]string{}})
	cell := c.Subscribe(run)
	defer cell.Close()
	if err := c.Send(ctx, protocol.Shell, run); err != nil {
		t.Fatal(err)
	}
	if got := statusesOf(t, cell, 1); got[0] != "busy" {
		t.Fatalf("running cell's first status %q; want busy", got[0])
	}
	if _, err := c.Complete(ctx, "fo", 2); err != nil {
		t.Fatal(err)
	}
	if got := statusesOf(t, cell, 1); got[0] != "busy" {
		t.Errorf("after a completion answered while a cell runs, the cell's status %q; want busy again", got[0])
	}
	if err := c.Interrupt(ctx); err != nil {
		t.Fatal(err)
	}
	if got := statusesOf(t, cell, 1); got[0] != "idle" {
		t.Errorf("cell's status once it ended: %q; want idle", got[0])
	}
}
