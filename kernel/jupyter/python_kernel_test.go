package jupyter

import (
	"context"
	"errors"
	"os"
	"testing"
	"time"

	"github.com/dlbd/dlbd/kernel/internal/kerneltest"
	"github.com/dlbd/dlbd/kernel/protocol"
)

// These tests run the client against ipykernel, an independent kernel
// implementation, so that a bug in the client is not hidden by a matching
// bug in GoNB.

func TestPythonKernelInfo(t *testing.T) {
	c := startClient(t, pythonSpec(t), 60*time.Second)
	info, err := c.KernelInfo(kerneltest.Context(t, 20*time.Second))
	if err != nil {
		t.Fatalf("KernelInfo: %v", err)
	}
	if info.LanguageInfo.Name != "python" {
		t.Errorf("language_info.name = %q; want python", info.LanguageInfo.Name)
	}
	if ok, err := info.ProtocolAtLeast(5, 3); !ok || err != nil {
		t.Errorf("protocol_version %q: at least 5.3 = %v, %v; want true", info.ProtocolVersion, ok, err)
	}
	if err := c.Ping(kerneltest.Context(t, 5*time.Second)); err != nil {
		t.Errorf("Ping: %v", err)
	}
	st, err := os.Stat(c.ConnectionFile())
	if err != nil {
		t.Fatalf("connection file: %v", err)
	}
	if perm := st.Mode().Perm(); perm != 0o600 {
		t.Errorf("connection file permissions = %v; want 0600", perm)
	}
	if errs := c.DroppedErrors(); len(errs) > 0 {
		t.Errorf("dropped messages from a correct kernel: %v", errs)
	}
}

func TestPythonExecute(t *testing.T) {
	c := startClient(t, pythonSpec(t), 60*time.Second)
	ctx := kerneltest.Context(t, 60*time.Second)
	first, err := c.Execute(ctx, "print('hola', flush=True)\n1 + 1")
	if err != nil {
		t.Fatalf("Execute: %v", err)
	}
	if got := first.Stdout(); got != "hola\n" {
		t.Errorf("stdout = %q; want %q", got, "hola\n")
	}
	var result *protocol.ExecuteResult
	for _, m := range first.Outputs {
		if m.Header.MsgType == "execute_result" {
			result = new(protocol.ExecuteResult)
			if err := m.DecodeContent(result); err != nil {
				t.Fatal(err)
			}
		}
	}
	if result == nil || result.Data["text/plain"] != "2" {
		t.Errorf("execute_result = %+v; want text/plain 2", result)
	}
	code := `from IPython.display import display, HTML
h = display(HTML("<b>uno</b>"), display_id=True)
h.update(HTML("<b>dos</b>"))`
	second, err := c.Execute(ctx, code)
	if err != nil {
		t.Fatalf("Execute(display): %v", err)
	}
	checkDisplayUpdate(t, second)
	if second.Reply.ExecutionCount != first.Reply.ExecutionCount+1 {
		t.Errorf("execution_count %d then %d; want consecutive", first.Reply.ExecutionCount, second.Reply.ExecutionCount)
	}
}

func TestPythonExecuteError(t *testing.T) {
	c := startClient(t, pythonSpec(t), 60*time.Second)
	ex, err := c.Execute(kerneltest.Context(t, 30*time.Second), "1/0")
	var ce *CellError
	if !errors.As(err, &ce) {
		t.Fatalf("Execute(1/0) error = %v; want *CellError", err)
	}
	if ce.EName != "ZeroDivisionError" || ex.Reply.Status != "error" {
		t.Errorf("CellError = %+v, status %q; want ZeroDivisionError, error", ce, ex.Reply.Status)
	}
	if errs := ex.Errors(); len(errs) != 1 || errs[0].EName != "ZeroDivisionError" {
		t.Errorf("iopub errors = %+v; want one ZeroDivisionError", errs)
	}
}

func TestPythonInterrupt(t *testing.T) {
	c := startClient(t, pythonSpec(t), 60*time.Second)
	done := make(chan error, 1)
	go func() {
		_, err := c.Execute(kerneltest.Context(t, 60*time.Second), "import time\nwhile True: time.sleep(0.1)")
		done <- err
	}()
	time.Sleep(time.Second)
	if err := c.Interrupt(kerneltest.Context(t, 10*time.Second)); err != nil {
		t.Fatalf("Interrupt: %v", err)
	}
	select {
	case err := <-done:
		var ce *CellError
		if !errors.As(err, &ce) || ce.EName != "KeyboardInterrupt" {
			t.Errorf("interrupted cell error = %v; want KeyboardInterrupt", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("cell still running 10 s after Interrupt")
	}
	if ex, err := c.Execute(kerneltest.Context(t, 20*time.Second), "print(7*6)"); err != nil || ex.Stdout() != "42\n" {
		t.Errorf("cell after interrupt: stdout %q, error %v; want 42", ex.Stdout(), err)
	}
}

func TestPythonRejectsWrongKey(t *testing.T) {
	c := startClient(t, pythonSpec(t), 60*time.Second)
	m, err := c.NewMessage("execute_request", protocol.ExecuteRequest{Code: "print('forged')", UserExpressions: map[string]string{}})
	if err != nil {
		t.Fatal(err)
	}
	s := c.Subscribe(m)
	defer s.Close()
	if err := c.SendWithKey(kerneltest.Context(t, 5*time.Second), protocol.Shell, m, []byte("not-the-key")); err != nil {
		t.Fatalf("SendWithKey: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if got, err := s.Next(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("mis-signed request got an answer (%v, err %v); want none", describe(got), err)
	}
	if ex, err := c.Execute(kerneltest.Context(t, 20*time.Second), "print('still here')"); err != nil || ex.Stdout() != "still here\n" {
		t.Errorf("after a mis-signed request: stdout %q, error %v; want the kernel alive", ex.Stdout(), err)
	}
}

func TestPythonCompletion(t *testing.T) {
	c := startClient(t, pythonSpec(t), 60*time.Second)
	ctx := kerneltest.Context(t, 30*time.Second)
	cr, err := c.Complete(ctx, "import o", 8)
	if err != nil {
		t.Fatalf("Complete: %v", err)
	}
	found := false
	for _, m := range cr.Matches {
		found = found || m == "os"
	}
	if cr.Status != "ok" || !found || cr.CursorEnd != 8 {
		t.Errorf("complete_reply = status %q, %d matches (os found: %v), cursor_end %d; want ok with os, 8", cr.Status, len(cr.Matches), found, cr.CursorEnd)
	}
	tests := []struct{ code, want string }{
		{code: "for i in range(3):", want: "incomplete"},
		{code: "x = 1", want: "complete"},
	}
	for _, tt := range tests {
		r, err := c.IsComplete(ctx, tt.code)
		if err != nil || r.Status != tt.want {
			t.Errorf("IsComplete(%q) = %q, %v; want %q", tt.code, r.Status, err, tt.want)
		}
	}
}

func TestPythonShutdownLeavesNoProcess(t *testing.T) {
	c := startClient(t, pythonSpec(t), 60*time.Second)
	procs, err := c.Processes()
	if err != nil {
		kerneltest.Missing(t, "cannot list processes: %v", err)
	}
	if len(procs) == 0 || procs[0].PID != c.PID() {
		t.Fatalf("Processes() = %v; want the kernel %d first", procs, c.PID())
	}
	if err := c.Shutdown(kerneltest.Context(t, 20*time.Second)); err != nil {
		t.Fatalf("Shutdown: %v", err)
	}
	for _, p := range procs {
		if p.Alive() {
			t.Errorf("process %v still alive after shutdown", p)
		}
	}
	if _, err := os.Stat(c.ConnectionFile()); err != nil {
		t.Errorf("connection file gone before Close: %v", err)
	}
	if err := c.Close(); err != nil {
		t.Errorf("Close after Shutdown: %v", err)
	}
	if _, err := os.Stat(c.ConnectionFile()); !os.IsNotExist(err) {
		t.Errorf("connection file after Close: %v; want it removed", err)
	}
	if _, err := c.KernelInfo(kerneltest.Context(t, time.Second)); !errors.Is(err, ErrClosed) {
		t.Errorf("KernelInfo after Close = %v; want ErrClosed", err)
	}
}
