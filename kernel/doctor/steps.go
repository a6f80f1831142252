package doctor

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/dlbd/dlbd/kernel/jupyter"
	"github.com/dlbd/dlbd/kernel/protocol"
)

// start starts the kernel and waits until it answers.
func (d *doctor) start(ctx context.Context) (string, string, error) {
	ctx, cancel := context.WithTimeout(ctx, d.o.CellTimeout)
	defer cancel()
	c, err := jupyter.Start(ctx, jupyter.Options{Spec: d.spec})
	if err != nil {
		return "", d.makeKernel() + "; check that `go version` prints Go 1.26 or newer", err
	}
	d.c = c
	return fmt.Sprintf("process %d answers on 127.0.0.1", c.PID()), "", nil
}

// heartbeat checks that the kernel echoes on its heartbeat socket.
func (d *doctor) heartbeat(ctx context.Context) (string, string, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := d.c.Ping(ctx); err != nil {
		return "", "Jupyter will think the kernel died: restart it; a firewall blocking 127.0.0.1 would explain it", err
	}
	return "the kernel echoes", "", nil
}

// kernelInfo checks the language and the protocol version.
func (d *doctor) kernelInfo(ctx context.Context) (string, string, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	info, err := d.c.KernelInfo(ctx)
	if err != nil {
		return "", "the kernel does not answer requests: " + d.makeKernel(), err
	}
	detail := fmt.Sprintf("%s %s, language %s %s, protocol %s", info.Implementation, info.ImplementationVersion,
		info.LanguageInfo.Name, info.LanguageInfo.Version, info.ProtocolVersion)
	if info.LanguageInfo.Name != "go" {
		return detail, "kernelspec " + d.spec.Name + " does not start the Go kernel: " + d.makeKernel(),
			fmt.Errorf("language %q, want go", info.LanguageInfo.Name)
	}
	if ok, err := info.ProtocolAtLeast(5, 3); !ok || err != nil {
		return detail, "GoNB is too old: " + d.makeKernel(), fmt.Errorf("protocol %q, want 5.3 or newer (%v)", info.ProtocolVersion, err)
	}
	return detail, "", nil
}

// runCell runs code once and checks that it printed want.
func (d *doctor) runCell(ctx context.Context, code, want string) (*jupyter.Execution, error) {
	ex, err := d.c.Execute(ctx, code)
	if err != nil {
		return ex, cellFailure(ex, err)
	}
	if got := ex.Stdout(); got != want {
		return ex, fmt.Errorf("the cell printed %q, want %q", got, want)
	}
	return ex, nil
}

// timeCell runs code once (the first run, possibly a cold build), checks
// that it printed want, then measures its latency over o.Runs runs.
func (d *doctor) timeCell(ctx context.Context, code, want string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, d.o.CellTimeout)
	defer cancel()
	ex, err := d.runCell(ctx, code, want)
	if err != nil {
		return "", err
	}
	l, err := d.c.MeasureLatency(ctx, code, jupyter.LatencyOptions{Runs: d.o.Runs})
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("first run %v, then %v", ex.Elapsed.Round(time.Millisecond), l), nil
}

// cellFailure describes a failed execution with what the notebook shows:
// the reply's error and the cell's stderr (GoNB alone reports a panic only
// there; the dlbd kernel's front end also puts it into the reply).
func cellFailure(ex *jupyter.Execution, err error) error {
	if ex != nil {
		if stderr := strings.TrimSpace(ex.Stderr()); stderr != "" {
			return fmt.Errorf("%w\n%s", err, stderr)
		}
	}
	return err
}

// trivialCell runs a cell that only prints.
func (d *doctor) trivialCell(ctx context.Context) (string, string, error) {
	detail, err := d.timeCell(ctx, "%%\nfmt.Println(\"dlbd doctor: ok\")", "dlbd doctor: ok\n")
	return detail, "Go cells do not build: check that `go build ./...` works in " + d.repoOrHere() +
		" and that GOFLAGS or GOPROXY do not force network access", err
}

// importCell runs a cell importing this module's packages.
func (d *doctor) importCell(ctx context.Context) (string, string, error) {
	var sb strings.Builder
	sb.WriteString("import (\n")
	for _, p := range d.o.Packages {
		fmt.Fprintf(&sb, "\t_ %q\n", p)
	}
	sb.WriteString(")\n%%\nfmt.Println(\"dlbd doctor: imports ok\")")
	detail, err := d.timeCell(ctx, sb.String(), "dlbd doctor: imports ok\n")
	if err != nil {
		return "importing " + strings.Join(d.o.Packages, ", "),
			fmt.Sprintf("run `go build %s` in %s to see the error; the kernel must run GoNB with --go_work=<repo> (%s)",
				strings.Join(d.o.Packages, " "), d.repoOrHere(), d.makeKernel()), err
	}
	return strings.Join(d.o.Packages, ", ") + ": " + detail, "", nil
}

// state checks the stateful mode: a value made in one cell is there in the
// next. In the process mode (a fallback the kernel announces) it says why.
func (d *doctor) state(ctx context.Context) (string, string, error) {
	first, err := d.c.Execute(ctx, "%%\ndoctorValor := 41")
	if err != nil {
		return "", "a cell that only declares a variable failed: report this with `make doctor`'s output", err
	}
	ex, err := d.c.Execute(ctx, "%%\ndoctorValor++\nfmt.Println(doctorValor)")
	if err == nil && ex.Stdout() == "42\n" {
		return "stateful mode: a value made in one cell lives on in the next", "", nil
	}
	why := strings.TrimSpace(first.Stderr())
	if why == "" && ex != nil {
		why = strings.TrimSpace(ex.Stderr())
	}
	return why, "the kernel runs each cell as a process: stateful cells need Linux or macOS, cgo and a C compiler (Debian/Ubuntu: sudo apt-get install gcc), then restart the kernel",
		fmt.Errorf("the value of one cell was not there in the next (%v)", err)
}

// repoOrHere names the checkout for advice.
func (d *doctor) repoOrHere() string {
	if d.o.RepoDir == "" {
		return "the dlbd checkout"
	}
	return d.o.RepoDir
}

// interrupt runs an endless cell, interrupts it once it has printed, and
// checks that it stops within 10 s and that the next cell works.
func (d *doctor) interrupt(ctx context.Context) (string, string, error) {
	const fix = "interrupting does not stop cells: restart the kernel from Jupyter's Kernel menu when a cell hangs, and report this"
	ctx, cancel := context.WithTimeout(ctx, d.o.CellTimeout)
	defer cancel()
	printed := make(chan struct{})
	done := make(chan error, 1)
	go func() { // ends when the cell ends, at the latest when ctx does
		seen := false
		req := protocol.ExecuteRequest{Code: "%%\nfmt.Println(\"looping\")\nfor {}", StoreHistory: true}
		_, err := d.c.ExecuteWith(ctx, req, func(m *jupyter.Message) {
			if m.Header.MsgType == "stream" && !seen {
				seen = true
				close(printed)
			}
		})
		done <- err
	}()
	select {
	case <-printed:
	case err := <-done:
		return "", fix, fmt.Errorf("the endless cell ended before the interrupt: %v", err)
	}
	start := time.Now()
	if err := d.c.Interrupt(ctx); err != nil {
		return "", fix, err
	}
	select {
	case err := <-done:
		var ce *jupyter.CellError
		if !errors.As(err, &ce) {
			return "", fix, fmt.Errorf("the interrupted cell ended with %v, want a cell error", err)
		}
	case <-time.After(10 * time.Second):
		return "", fix, errors.New("the cell still runs 10 s after interrupt_request")
	}
	stopped := time.Since(start)
	if _, err := d.runCell(ctx, "%%\nfmt.Println(\"dlbd doctor: ok\")", "dlbd doctor: ok\n"); err != nil {
		return "the cell after the interrupt failed", fix, err
	}
	return fmt.Sprintf("an endless cell stopped %v after interrupt_request; the next cell runs", stopped.Round(time.Millisecond)), "", nil
}

// shutdown sends shutdown_request and checks that no process is left.
func (d *doctor) shutdown(ctx context.Context) (string, string, error) {
	procs, listErr := d.c.Processes()
	sctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := d.c.Shutdown(sctx); err != nil {
		return "", "Jupyter will have to kill the kernel: report this", err
	}
	if listErr != nil {
		return "the kernel exited (leftover processes not checked: " + listErr.Error() + ")", "", nil
	}
	time.Sleep(200 * time.Millisecond) // the kernel's children die just after it
	var left []string
	for _, p := range procs {
		if p.Alive() {
			left = append(left, p.String())
		}
	}
	if len(left) > 0 {
		return "", "stop them with `kill <pid>`, and report this", fmt.Errorf("processes left running: %s", strings.Join(left, ", "))
	}
	return fmt.Sprintf("the kernel exited and left no process behind (%d checked)", len(procs)), "", nil
}
