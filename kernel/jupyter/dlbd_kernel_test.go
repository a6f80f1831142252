package jupyter

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dlbd/dlbd/kernel/internal/kerneltest"
	"github.com/dlbd/dlbd/kernel/protocol"
)

// These tests check the Jupyter protocol behaviour of the installed dlbd
// kernel (GoNB) through this package's client. They need the kernelspec that
// `make kernel` installs in <repo>/.jupyter and are skipped under -short.

// dlbdSpec returns the dlbd kernelspec: the repository's own .jupyter
// first, then the standard Jupyter data path; mode, when not "", is the
// mode the kernel starts in (DLBD_MODE). $DLBD_KERNEL_BINARY, when set,
// replaces the kernel's executable (make test sets a -race build) and any
// data race it reports fails the test.
func dlbdSpec(t testing.TB, mode string) *KernelSpec {
	t.Helper()
	if testing.Short() {
		t.Skip("dlbd kernel protocol tests start GoNB and compile cells: skipped with -short")
	}
	path := append([]string{filepath.Join(kerneltest.RepoRoot(t), ".jupyter")}, DataPath()...)
	spec, err := FindKernelSpec("dlbd", path)
	if err != nil {
		kerneltest.Missing(t, "%v (run `make kernel`)", err)
	}
	if _, err := os.Stat(spec.Argv[0]); err != nil {
		kerneltest.Missing(t, "kernelspec %s starts %s, which is missing (run `make kernel`)", spec.Dir, spec.Argv[0])
	}
	env := map[string]string{}
	for k, v := range spec.Env {
		env[k] = v
	}
	if mode != "" {
		env["DLBD_MODE"] = mode
	}
	if bin := os.Getenv("DLBD_KERNEL_BINARY"); bin != "" {
		// make test runs these tests again on a kernel built with -race:
		// its reports go to files the test reads when it ends.
		spec.Argv = append([]string{bin}, spec.Argv[1:]...)
		dir := t.TempDir()
		env["GORACE"] = "log_path=" + filepath.Join(dir, "race")
		t.Cleanup(func() { failOnRaceReports(t, dir) })
	}
	spec.Env = env
	return spec
}

// failOnRaceReports fails t for each race detector report in dir. It runs
// after the kernel's Close (cleanups run last registered first).
func failOnRaceReports(t testing.TB, dir string) {
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if b, err := os.ReadFile(filepath.Join(dir, e.Name())); err == nil && len(b) > 0 {
			t.Errorf("the kernel (%s) reported a data race:\n%s", os.Getenv("DLBD_KERNEL_BINARY"), b)
		}
	}
}

// startDLBD starts the dlbd kernel for one test. Go's build cache makes a
// cold first cell slow, hence the generous timeouts of these tests.
func startDLBD(t *testing.T) *Client {
	t.Helper()
	return startClient(t, dlbdSpec(t, ""), 2*time.Minute)
}

// startDLBDMode starts the dlbd kernel in mode ("stateful" or "process").
func startDLBDMode(t *testing.T, mode string) *Client {
	t.Helper()
	return startClient(t, dlbdSpec(t, mode), 2*time.Minute)
}

// forModes runs test once per kernel mode, each with a kernel of its own.
func forModes(t *testing.T, test func(t *testing.T, c *Client, mode string)) {
	for _, mode := range []string{"stateful", "process"} {
		t.Run("mode="+mode, func(t *testing.T) { test(t, startDLBDMode(t, mode), mode) })
	}
}

func TestDLBDKernelInfo(t *testing.T) {
	c := startDLBD(t)
	info, err := c.KernelInfo(kerneltest.Context(t, 30*time.Second))
	if err != nil {
		t.Fatalf("KernelInfo: %v", err)
	}
	if info.Status != "ok" || info.LanguageInfo.Name != "go" || info.Implementation != "gonb" {
		t.Errorf("kernel_info_reply = status %q, language %q, implementation %q; want ok, go, gonb",
			info.Status, info.LanguageInfo.Name, info.Implementation)
	}
	if ok, err := info.ProtocolAtLeast(5, 3); !ok || err != nil {
		t.Errorf("protocol_version %q: at least 5.3 = %v, %v; want true", info.ProtocolVersion, ok, err)
	}
	if err := c.Ping(kerneltest.Context(t, 5*time.Second)); err != nil {
		t.Errorf("Ping: %v", err)
	}
	if errs := c.DroppedErrors(); len(errs) > 0 {
		t.Errorf("messages from the kernel dropped: %v", errs)
	}
}

func TestDLBDExecute(t *testing.T) { forModes(t, testExecute) }

func testExecute(t *testing.T, c *Client, mode string) {
	ctx := kerneltest.Context(t, 3*time.Minute)
	first, err := c.Execute(ctx, "%%\nfmt.Println(\"hola desde Go\")")
	if err != nil {
		t.Fatalf("Execute: %v; kernel output:\n%s", err, c.Output())
	}
	if got := first.Stdout(); got != "hola desde Go\n" {
		t.Errorf("stdout = %q; want %q", got, "hola desde Go\n")
	}
	// gonbui.Sync, as GoNB's documentation asks of a program that displays:
	// without it, a process-mode cell that exits at once can take displays
	// still in GoNB's pipe with it (seen under -race on a loaded machine:
	// no output at all). viz, and the stateful mode after every cell, sync.
	code := `import "github.com/janpfeifer/gonb/gonbui"
%%
id := gonbui.UniqueId()
gonbui.UpdateHTML(id, "<b>uno</b>")
gonbui.UpdateHTML(id, "<b>dos</b>")
gonbui.Sync()`
	second, err := c.Execute(ctx, code)
	if err != nil {
		t.Fatalf("Execute(gonbui): %v", err)
	}
	checkDisplayUpdate(t, second)
	if second.Reply.ExecutionCount != first.Reply.ExecutionCount+1 {
		t.Errorf("execution_count %d then %d; want consecutive", first.Reply.ExecutionCount, second.Reply.ExecutionCount)
	}
}

// TestDLBDProcessCellErrors checks the errors of the process mode, where
// a cell is a program of its own (the stateful mode's are in
// stateful_kernel_test.go).
func TestDLBDProcessCellErrors(t *testing.T) {
	c := startDLBDMode(t, "process")
	// run executes code, which must fail, and returns the reply.
	run := func(t *testing.T, code string) protocol.ExecuteReply {
		t.Helper()
		ex, err := c.Execute(kerneltest.Context(t, 2*time.Minute), code)
		var ce *CellError
		if !errors.As(err, &ce) || ex.Reply.Status != "error" {
			t.Fatalf("Execute(%q) = status %q, error %v; want status error and a *CellError", code, ex.Reply.Status, err)
		}
		return ex.Reply
	}
	t.Run("compile-error", func(t *testing.T) {
		reply := run(t, "%%\nx := 1")
		tb := strings.Join(reply.Traceback, "\n")
		if !strings.Contains(reply.EValue, "declared and not used: x") {
			t.Errorf("evalue = %q; want it to name the problem (declared and not used: x)", reply.EValue)
		}
		if want := fmt.Sprintf("Cell [%d] Line 2", reply.ExecutionCount); !strings.Contains(tb, want) {
			t.Errorf("traceback = %q; want it to name the cell line (%q)", tb, want)
		}
	})
	t.Run("panic", func(t *testing.T) {
		ex, err := c.Execute(kerneltest.Context(t, 2*time.Minute), "func f(s []int) int { return s[3] }\n%%\nfmt.Println(\"antes\")\nfmt.Println(f(nil))")
		var ce *CellError
		if !errors.As(err, &ce) || ex.Reply.Status != "error" {
			t.Fatalf("Execute = status %q, error %v; want status error and a *CellError", ex.Reply.Status, err)
		}
		// GoNB reports only "exit status 2"; the front end puts the panic and
		// the cell lines (the panic in f, at cell line 1, called from
		// line 4) into the reply and into the IOPub error.
		n := ex.Reply.ExecutionCount
		at := fmt.Sprintf("Cell [%d] Line 1", n)
		const msg = "runtime error: index out of range [3] with length 0"
		if ex.Reply.EName != "panic" || ex.Reply.EValue != msg+" ("+at+")" {
			t.Errorf("reply ename %q, evalue %q; want panic, %q", ex.Reply.EName, ex.Reply.EValue, msg+" ("+at+")")
		}
		tb := strings.Join(ex.Reply.Traceback, "\n")
		for _, want := range []string{"panic: " + msg, "main.f(...) [[ " + at + " ]]", fmt.Sprintf("main.main() [[ Cell [%d] Line 4 ]]", n), "exit status 2"} {
			if !strings.Contains(tb, want) {
				t.Errorf("reply traceback %q lacks %q", tb, want)
			}
		}
		if errs := ex.Errors(); len(errs) != 1 || errs[0].EValue != ex.Reply.EValue || strings.Join(errs[0].Traceback, "\n") != tb {
			t.Errorf("iopub error messages %+v; want one, equal to the reply's error", errs)
		}
		if stderr := ex.Stderr(); !strings.Contains(stderr, "panic: "+msg) {
			t.Errorf("stderr = %q; want the runtime's own panic output kept", stderr)
		}
	})
	t.Run("os-exit", func(t *testing.T) {
		reply := run(t, "import \"os\"\n%%\nos.Exit(1)")
		// os.Exit ends the process without a stack trace, so no cell line
		// exists to report; the exit status names the problem.
		if reply.EValue != "exit status 1" {
			t.Errorf("evalue = %q; want %q", reply.EValue, "exit status 1")
		}
	})
}

func TestDLBDInterrupt(t *testing.T) { forModes(t, testInterrupt) }

func testInterrupt(t *testing.T, c *Client, mode string) {
	printed := make(chan struct{})
	type result struct {
		ex  *Execution
		err error
	}
	done := make(chan result, 1)
	go func() {
		// Interrupt once the cell's process runs (it has printed), not
		// while it compiles.
		req := protocol.ExecuteRequest{Code: "%%\nfmt.Println(\"bucle\")\nfor {}", StoreHistory: true}
		seen := false // onOutput runs on this goroutine
		ex, err := c.ExecuteWith(kerneltest.Context(t, 3*time.Minute), req, func(m *Message) {
			if m.Header.MsgType == "stream" && !seen {
				seen = true
				close(printed)
			}
		})
		done <- result{ex, err}
	}()
	select {
	case <-printed:
	case r := <-done:
		t.Fatalf("the looping cell ended by itself: %v", r.err)
	}
	t0 := time.Now()
	if err := c.Interrupt(kerneltest.Context(t, 10*time.Second)); err != nil {
		t.Fatalf("Interrupt: %v", err)
	}
	select {
	case r := <-done:
		var ce *CellError
		if !errors.As(r.err, &ce) || !strings.Contains(ce.EValue, "interrupt") {
			t.Errorf("interrupted cell: error %v; want a cell error naming the interrupt", r.err)
		}
		if r.ex.Stdout() != "bucle\n" {
			t.Errorf("interrupted cell stdout = %q; want %q", r.ex.Stdout(), "bucle\n")
		}
		t.Logf("cell stopped %v after interrupt_request", time.Since(t0))
	case <-time.After(10 * time.Second):
		t.Fatalf("cell still running 10 s after interrupt_request")
	}
	if ex, err := c.Execute(kerneltest.Context(t, time.Minute), "%%\nfmt.Println(6*7)"); err != nil || ex.Stdout() != "42\n" {
		t.Errorf("cell after interrupt: stdout %q, error %v; want 42", ex.Stdout(), err)
	}
}

// TestDLBDInterruptWhileCompiling interrupts a process-mode cell as soon
// as GoNB announces it (execute_input), before its program runs: GoNB
// v0.11.4 has no interrupt handler while it compiles and drops the
// request, so the front end stops the program once it starts.
func TestDLBDInterruptWhileCompiling(t *testing.T) {
	c := startDLBDMode(t, "process")
	ctx := kerneltest.Context(t, 3*time.Minute)
	m, _ := c.NewMessage("execute_request", protocol.ExecuteRequest{Code: "%%\nfmt.Println(\"bucle\")\nfor {}",
		StoreHistory: true, UserExpressions: map[string]string{}})
	s := c.Subscribe(m)
	defer s.Close()
	if err := c.Send(ctx, protocol.Shell, m); err != nil {
		t.Fatal(err)
	}
	for {
		r, err := s.Next(ctx)
		if err != nil {
			t.Fatalf("no execute_input for the cell: %v", err)
		}
		if r.Header.MsgType == "execute_input" {
			break
		}
	}
	t0 := time.Now()
	if err := c.Interrupt(kerneltest.Context(t, 10*time.Second)); err != nil {
		t.Fatalf("Interrupt: %v", err)
	}
	stop := kerneltest.Context(t, time.Minute)
	for {
		r, err := s.Next(stop)
		if err != nil {
			t.Fatalf("cell interrupted while compiling: no execute_reply a minute later: %v", err)
		}
		var rep protocol.ExecuteReply
		if r.Header.MsgType == "execute_reply" && r.DecodeContent(&rep) == nil {
			if rep.Status != "error" || !strings.Contains(rep.EValue, "interrupt") {
				t.Errorf("cell interrupted while compiling: reply %+v; want an error naming the interrupt", rep)
			}
			t.Logf("cell stopped %v after interrupt_request", time.Since(t0))
			break
		}
	}
	if ex, err := c.Execute(kerneltest.Context(t, time.Minute), "%%\nfmt.Println(6*7)"); err != nil || ex.Stdout() != "42\n" {
		t.Errorf("cell after interrupt: stdout %q, error %v; want 42", ex.Stdout(), err)
	}
}

// hasCellProcess reports whether the kernel has a child process running
// cells: GoNB names a cell's binary gonb_<id>, the stateful host is
// dlbd-host.
func hasCellProcess(c *Client, mode string) bool {
	prefix := map[string]string{"process": "gonb_", "stateful": "dlbd-host"}[mode]
	procs, _ := c.Processes()
	for _, p := range procs {
		if p.PID != c.PID() && strings.HasPrefix(p.Comm, prefix) {
			return true
		}
	}
	return false
}

func TestDLBDRejectsWrongKey(t *testing.T) {
	c := startDLBD(t)
	// Compile once so that a forged cell, if it were run, would finish well
	// within the wait below.
	if _, err := c.Execute(kerneltest.Context(t, 2*time.Minute), "import \"os\"\n%%\n_ = os.Getpid()"); err != nil {
		t.Fatalf("warm-up cell: %v", err)
	}
	marker := filepath.Join(t.TempDir(), "forged-cell-ran")
	code := fmt.Sprintf("import \"os\"\n%%%%\nos.WriteFile(%q, nil, 0o644)\nfmt.Println(\"forged\")", marker)
	m, err := c.NewMessage("execute_request", protocol.ExecuteRequest{Code: code, UserExpressions: map[string]string{}})
	if err != nil {
		t.Fatal(err)
	}
	s := c.Subscribe(m)
	defer s.Close()
	if err := c.SendWithKey(kerneltest.Context(t, 5*time.Second), protocol.Shell, m, []byte("not-the-key")); err != nil {
		t.Fatalf("SendWithKey: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	got, err := s.Next(ctx)
	if got != nil {
		t.Errorf("mis-signed execute_request got an answer: %s", describe(got))
	}
	if _, statErr := os.Stat(marker); statErr == nil {
		t.Fatalf("mis-signed execute_request was executed: %s exists", marker)
	}
	select {
	case <-c.Exited():
		t.Fatalf("kernel exited after a mis-signed message; output:\n%s", c.Output())
	default:
	}
	if out := c.Output(); !strings.Contains(out, "shell: dropped execute_request from peer") {
		t.Errorf("kernel output does not say the mis-signed request was dropped:\n%s", out)
	}
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("waiting for an answer to the mis-signed request: %v; want a timeout", err)
	}
	if ex, err := c.Execute(kerneltest.Context(t, time.Minute), "%%\nfmt.Println(\"sigo vivo\")"); err != nil || ex.Stdout() != "sigo vivo\n" {
		t.Errorf("after a mis-signed request: stdout %q, error %v; want the kernel alive", ex.Stdout(), err)
	}
}

// TestDLBDCompleteAndIsComplete: the front end answers complete_request
// (TestDLBDCompletion has the kinds of completion) and is_complete_request,
// which GoNB ignores.
func TestDLBDCompleteAndIsComplete(t *testing.T) {
	c := startDLBD(t)
	run(t, c, "%%\nfmt.Println(1)") // the session is ready: it knows the packages
	ctx := kerneltest.Context(t, time.Minute)
	code := "import \"fmt\"\n%%\nfmt.Pri"
	cr, err := c.Complete(ctx, code, len(code))
	if err != nil {
		t.Fatalf("Complete: %v", err)
	}
	if cr.Status != "ok" || cr.CursorStart > len(code) || cr.CursorEnd != len(code) {
		t.Errorf("complete_reply = status %q, cursor %d..%d; want ok and a range ending at %d", cr.Status, cr.CursorStart, cr.CursorEnd, len(code))
	}
	for _, m := range cr.Matches {
		if !strings.HasPrefix(m, "Pri") {
			t.Errorf("completion %q of %q does not extend it", m, "fmt.Pri")
		}
	}
	if !slices.Contains(cr.Matches, "Println") {
		t.Errorf("complete_reply for %q: %q; want Println among them", "fmt.Pri", cr.Matches)
	}

	// GoNB ignores is_complete_request; the front end answers it.
	for _, tt := range []struct{ code, status, indent string }{
		{"%%\nfmt.Println(", "incomplete", "\t"},
		{"%%\nfmt.Println(1)", "complete", ""},
		{"%%\nfmt.Println(1))", "invalid", ""},
		{"!echo hola\nfunc f() {", "incomplete", "\t"},
	} {
		ictx, cancel := context.WithTimeout(ctx, 5*time.Second)
		r, err := c.IsComplete(ictx, tt.code)
		cancel()
		if err != nil || r.Status != tt.status || r.Indent != tt.indent {
			t.Errorf("IsComplete(%q) = %+v, %v; want status %q, indent %q", tt.code, r, err, tt.status, tt.indent)
		}
	}
}

// TestDLBDControlReplies checks that replies to control requests come back
// on the control channel (GoNB alone sends them on shell).
func TestDLBDControlReplies(t *testing.T) {
	c := startDLBD(t)
	for _, msgType := range []string{"kernel_info_request", "interrupt_request"} {
		m, err := c.NewMessage(msgType, nil)
		if err != nil {
			t.Fatal(err)
		}
		r, err := c.Request(kerneltest.Context(t, 30*time.Second), protocol.Control, m)
		if err != nil {
			t.Fatalf("Request(%s): %v", msgType, err)
		}
		if r.Channel != protocol.Control {
			t.Errorf("reply to %s arrived on %s; want control", msgType, r.Channel)
		}
	}
}

func TestDLBDShutdownLeavesNoProcess(t *testing.T) { forModes(t, testShutdownLeavesNoProcess) }

func testShutdownLeavesNoProcess(t *testing.T, c *Client, mode string) {
	go c.Execute(kerneltest.Context(t, 3*time.Minute), "import \"time\"\n%%\nfor { time.Sleep(time.Second) }")
	for i := 0; !hasCellProcess(c, mode); i++ {
		if i == 1200 {
			t.Fatalf("the cell's process did not start within 2 minutes")
		}
		time.Sleep(100 * time.Millisecond)
	}
	procs, err := c.Processes()
	if err != nil {
		kerneltest.Missing(t, "cannot list processes: %v", err)
	}
	t.Logf("kernel processes before shutdown: %v", procs)
	if err := c.Shutdown(kerneltest.Context(t, 30*time.Second)); err != nil {
		t.Fatalf("Shutdown: %v", err)
	}
	time.Sleep(200 * time.Millisecond) // let the kernel's children finish dying
	for _, p := range procs {
		if p.Alive() {
			t.Errorf("process %v still alive after shutdown", p)
		}
	}
	if left, err := c.Processes(); err != nil || len(left) > 0 {
		t.Errorf("processes in the kernel's group or tree after shutdown: %v (%v); want none", left, err)
	}
}
