package host

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"plugin"
	"regexp"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"

	"github.com/dlbd/dlbd/kernel/internal/cellctx"
	"github.com/dlbd/dlbd/kernel/internal/cellpos"
)

// Request asks the host to run one cell.
type Request struct {
	// ID numbers the request; the reply and the end markers carry it.
	ID int `json:"id"`
	// Op is what to do; "" means OpRun.
	Op Op `json:"op,omitempty"`
	// Name and Value are the arguments of OpEnv and OpCd.
	Name  string `json:"name,omitempty"`
	Value string `json:"value,omitempty"`
	// Plugin is the path of the cell's compiled plugin.
	Plugin string `json:"plugin"`
	// Cell is the cell's number in messages ("Cell [N]").
	Cell int `json:"cell"`
}

// Op is what a [Request] asks of the host.
type Op string

// The host's operations.
const (
	// OpRun loads the cell's plugin and runs its body.
	OpRun Op = "run"
	// OpEnv sets the environment variable Name to Value.
	OpEnv Op = "env"
	// OpCd changes the working directory to Name.
	OpCd Op = "cd"
)

// Status is how a request ended.
type Status string

// The statuses of a [Reply].
const (
	// StatusOK: the request did what it asked.
	StatusOK Status = "ok"
	// StatusError: it failed (EName, EValue and Traceback say how).
	StatusError Status = "error"
	// StatusInterrupted: an interrupt stopped the cell.
	StatusInterrupted Status = "interrupted"
)

// Phase is where a cell's error happened.
type Phase string

// The phases of a cell.
const (
	// PhaseLoad: opening the plugin and initialising its variables.
	PhaseLoad Phase = "load"
	// PhaseRun: running the cell's body.
	PhaseRun Phase = "run"
)

// Reply says how a cell ended.
type Reply struct {
	// ID is the request's.
	ID int `json:"id"`
	// Status says how the request ended.
	Status Status `json:"status"`
	// Phase is where an error happened.
	Phase Phase `json:"phase,omitempty"`
	// EName, EValue and Traceback are the error's, as Jupyter shows them.
	EName     string   `json:"ename,omitempty"`
	EValue    string   `json:"evalue,omitempty"`
	Traceback []string `json:"traceback,omitempty"`
	// Result is the cell's result, the value of its last expression by
	// MIME type (kernel.ShowResult); nil when it has none.
	Result map[string]any `json:"result,omitempty"`
}

// Options configures [Serve].
type Options struct {
	// Requests and Replies are the pipes to the session.
	Requests io.Reader
	Replies  io.Writer
	// Marker starts the line written on stdout and stderr after each
	// request: Marker + the request id + "\n".
	Marker string
	// BeforeCell, when set, runs before each cell with the cell's context
	// (the host program passes it to dl, whose long operations watch it).
	BeforeCell func(ctx context.Context)
	// AfterCell, when set, runs after each cell, before the markers (the
	// host program flushes pending displays there).
	AfterCell func()
}

// Serve runs the requests that arrive until the request pipe closes.
func Serve(o Options) error {
	var mu sync.Mutex
	var cancel context.CancelFunc
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, os.Interrupt)
	defer signal.Stop(sigs)
	go func() { // ends with the process
		for range sigs {
			mu.Lock()
			if cancel != nil {
				cancel()
			}
			mu.Unlock()
		}
	}()
	cellctx.KeepResults() // a cell's result goes in its reply
	enc := json.NewEncoder(o.Replies)
	sc := bufio.NewScanner(o.Requests)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		var req Request
		if err := json.Unmarshal(sc.Bytes(), &req); err != nil {
			return fmt.Errorf("host: bad request %q: %w", sc.Text(), err)
		}
		if req.Op != "" && req.Op != OpRun {
			rep := Reply{ID: req.ID, Status: StatusOK}
			if err := apply(req); err != nil {
				rep.Status, rep.EName, rep.EValue = StatusError, string(req.Op), err.Error()
			}
			if err := enc.Encode(rep); err != nil {
				return fmt.Errorf("host: write reply: %w", err)
			}
			continue
		}
		ctx, c := context.WithCancel(context.Background())
		mu.Lock()
		cancel = c
		mu.Unlock()
		cellctx.Set(ctx)
		if o.BeforeCell != nil {
			o.BeforeCell(ctx)
		}
		cellctx.TakeResult() // none left from a goroutine of an earlier cell
		rep := run(req)
		rep.Result = cellctx.TakeResult()
		if rep.Status == StatusOK && ctx.Err() != nil {
			// The cell saw the interrupt (kernel.Context) and returned.
			rep.Status, rep.EName, rep.EValue = StatusInterrupted, "interrupt", cellpos.At("interrupted", cellpos.Pos{Cell: req.Cell})
			rep.Traceback = []string{"interrupted: the cell stopped when asked; the values it made are kept"}
		}
		if o.AfterCell != nil {
			o.AfterCell()
		}
		mu.Lock()
		cancel = nil
		mu.Unlock()
		c()
		marker := o.Marker + strconv.Itoa(req.ID) + "\n"
		os.Stdout.WriteString(marker)
		os.Stderr.WriteString(marker)
		if err := enc.Encode(rep); err != nil {
			return fmt.Errorf("host: write reply: %w", err)
		}
	}
	return sc.Err()
}

// apply carries out an OpEnv or OpCd request.
func apply(req Request) error {
	switch req.Op {
	case OpEnv:
		return os.Setenv(req.Name, req.Value)
	case OpCd:
		return os.Chdir(req.Name)
	}
	return fmt.Errorf("host: unknown request %q", req.Op)
}

// run loads and runs one cell on a goroutine of its own (so that a cell
// calling runtime.Goexit ends only that goroutine).
func run(req Request) Reply {
	done := make(chan Reply, 1)
	go func() {
		rep := Reply{ID: req.ID, Status: StatusOK, Phase: PhaseLoad}
		returned := false
		defer func() {
			if r := recover(); r != nil {
				rep = panicked(req, rep.Phase, r, debug.Stack())
			} else if !returned {
				rep.Status, rep.EName, rep.EValue = StatusError, "goexit", cellpos.At("the cell called runtime.Goexit", cellpos.Pos{Cell: req.Cell})
			}
			done <- rep
		}()
		p, err := plugin.Open(req.Plugin)
		if err != nil {
			rep.Status, rep.EName, rep.EValue = StatusError, "load", err.Error()
			returned = true
			return
		}
		sym, err := p.Lookup("Run")
		if err != nil {
			rep.Status, rep.EName, rep.EValue = StatusError, "load", err.Error()
			returned = true
			return
		}
		rep.Phase = PhaseRun
		sym.(func())()
		returned = true
	}()
	return <-done
}

// panicked describes the panic r with the cell lines of stack, innermost
// first, in the format of the front end for process cells:
// "boom (Cell [2] Line 3)" and "\tcell2.f(...) [[ Cell [2] Line 3 ]]".
func panicked(req Request, phase Phase, r any, stack []byte) Reply {
	msg := fmt.Sprint(r)
	if err, ok := r.(error); ok {
		msg = err.Error()
	}
	rep := Reply{ID: req.ID, Status: StatusError, Phase: phase, EName: "panic", EValue: msg}
	if isInterrupt(r) {
		rep.Status, rep.EName = StatusInterrupted, "interrupt"
	}
	var frames []string
	for i, f := range cellpos.ParseStack(string(stack)) {
		if i == 0 {
			rep.EValue = cellpos.At(msg, f.Pos)
		}
		frames = append(frames, cellpos.TraceLine(f.Name(), f.Pos))
	}
	kind := "panic: "
	if rep.Status == StatusInterrupted {
		kind = "interrupted: "
	}
	rep.Traceback = append(strings.Split(kind+msg, "\n"), frames...)
	return rep
}

// isInterrupt reports whether a panic value r comes from an interrupt:
// an error that says the context was cancelled.
func isInterrupt(r any) bool {
	err, ok := r.(error)
	return ok && errors.Is(err, context.Canceled)
}

// crashLine matches the first line of what the Go runtime prints when a
// program dies of a panic or a fatal error.
var crashLine = regexp.MustCompile(`(?m)^(panic|fatal error|SIG[A-Z]+): (.*)$`)

// ParseCrash finds in a dead host's stderr the last panic or fatal error
// the runtime printed and the cell lines of its stack, innermost first
// ("Cell [4] Line 3"); crash is "" when there is none.
func ParseCrash(stderr string) (crash string, frames []string) {
	ms := crashLine.FindAllStringSubmatchIndex(stderr, -1)
	if len(ms) == 0 {
		return "", nil
	}
	m := ms[len(ms)-1]
	crash = stderr[m[2]:m[3]] + ": " + stderr[m[4]:m[5]]
	for _, f := range cellpos.ParseStack(stderr[m[1]:]) {
		frames = append(frames, f.Pos.String())
	}
	return crash, frames
}
