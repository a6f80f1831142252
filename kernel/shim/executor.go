package shim

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dlbd/dlbd/kernel/cell"
	"github.com/dlbd/dlbd/kernel/internal/cellpos"
	"github.com/dlbd/dlbd/kernel/internal/wire"
	"github.com/dlbd/dlbd/kernel/protocol"
	"github.com/dlbd/dlbd/kernel/stateful"
)

// Executor runs cells in the kernel itself: the stateful mode
// (*stateful.Session implements it).
type Executor interface {
	// Available waits until the executor can run cells and says why not.
	Available() error
	// Execute runs a cell numbered num, showing its output on out.
	Execute(ctx context.Context, code string, num int, out stateful.Output) stateful.Result
	// Interrupt stops the running cell.
	Interrupt()
	// Close ends the executor and what it started; a running Execute
	// returns at once (with an error result) before Close returns.
	Close() error
}

// The kernel's modes.
const (
	// ModeStateful runs cells in the Executor: values live on.
	ModeStateful = "stateful"
	// ModeProcess forwards cells to GoNB: each is a new process.
	ModeProcess = "process"
)

// queueSize bounds the execute requests waiting to run.
const queueSize = 1024

// execute is the shim's ordered queue of execute requests: in the stateful
// mode its worker runs them in the Executor; in the process mode it
// forwards them to GoNB one at a time, so that the order holds across a
// switch of modes.
type execute struct {
	s    *shim
	ex   Executor // nil: process mode only
	mode atomic.Value
	jobs chan *job

	count   int // execution count, for both modes; the worker's alone
	running atomic.Bool

	mu  sync.Mutex
	fwd map[string]*forwarded // execute requests GoNB is running, by msg_id

	quit     chan struct{} // closed by close: the worker stops waiting
	quitOnce sync.Once
	stopped  chan struct{} // closed when the worker has returned
}

// job is one execute request.
type job struct {
	parts  wire.Parts
	frames [][]byte
	header protocol.Header
	req    executeRequest
}

// executeRequest is what the shim reads of an execute_request's content
// (spec section "Execute").
type executeRequest struct {
	Code         *string `json:"code"`
	Silent       bool    `json:"silent"`
	StoreHistory *bool   `json:"store_history"`
	StopOnError  *bool   `json:"stop_on_error"`
}

// counts reports whether the request gets an execution count: not when
// silent, nor when it asks not to be stored.
func (r executeRequest) counts() bool {
	return !r.Silent && (r.StoreHistory == nil || *r.StoreHistory)
}

// forwarded is an execute request that GoNB runs.
type forwarded struct {
	count     int           // the shim's execution count for it (0: none)
	gonbCount int           // GoNB's, from its execute_input
	done      chan struct{} // closed when its execute_reply has passed
}

func newExecute(s *shim, ex Executor, mode string) *execute {
	e := &execute{s: s, ex: ex, jobs: make(chan *job, queueSize), fwd: map[string]*forwarded{},
		quit: make(chan struct{}), stopped: make(chan struct{})}
	if ex == nil {
		mode = ModeProcess
	}
	e.mode.Store(mode)
	go e.work()
	return e
}

func (e *execute) currentMode() string { return e.mode.Load().(string) }

// enqueue takes an execute request that passed verification.
func (e *execute) enqueue(frames [][]byte, p wire.Parts, h protocol.Header) {
	j := &job{parts: p, frames: frames, header: h}
	if err := json.Unmarshal(p.Content, &j.req); err != nil || j.req.Code == nil {
		e.s.replyError(p, "execute_reply", "bad_request", "execute_request: content must be a JSON object with a string field code (spec: https://jupyter-client.readthedocs.io/en/latest/messaging.html#execute)")
		return
	}
	select {
	case <-e.quit: // shutting down: nothing runs any more
		e.abort(j)
		return
	default:
	}
	select {
	case e.jobs <- j:
	default:
		e.s.replyError(p, "execute_reply", "busy", fmt.Sprintf("execute_request: %d requests are already waiting to run; send fewer at once", queueSize))
	}
}

// close stops the worker: it answers the jobs still queued "aborted" and
// stops waiting for GoNB; it returns once the worker has (a stateful cell
// that runs is left to the executor's Close).
func (e *execute) close() {
	e.quitOnce.Do(func() { close(e.quit) })
	if !e.running.Load() {
		<-e.stopped
	}
}

// shutdownWait bounds how long a shutdown_request waits for the running
// cell's reply before it goes on to GoNB.
const shutdownWait = 10 * time.Second

// shutdown ends the executor before the kernel shuts down (or restarts,
// which for Jupyter is a shutdown and a new kernel): the running stateful
// cell stops and gets its execute_reply, the cells still queued get
// "aborted". It returns when the worker has stopped (or after
// shutdownWait, logged), so that these replies precede the shutdown_reply.
func (e *execute) shutdown() {
	e.quitOnce.Do(func() { close(e.quit) })
	if e.ex != nil {
		if err := e.ex.Close(); err != nil {
			e.s.log.Printf("shutdown: closing the stateful session: %v", err)
		}
	}
	select {
	case <-e.stopped:
	case <-time.After(shutdownWait):
		e.s.log.Printf("shutdown: the running cell did not end within %v; shutting down without its reply", shutdownWait)
	}
}

// work runs the jobs one after another until close or shutdown.
func (e *execute) work() {
	defer close(e.stopped)
	for {
		var j *job
		select {
		case <-e.quit:
			e.abortQueued()
			return
		default:
		}
		select {
		case j = <-e.jobs:
		case <-e.quit:
			e.abortQueued()
			return
		}
		mode := e.currentMode()
		if c, err := cell.Parse(*j.req.Code); err == nil && isModeCell(c) {
			e.switchMode(j, c)
			continue
		}
		if mode == ModeStateful {
			if err := e.ex.Available(); err != nil {
				e.mode.Store(ModeProcess)
				e.s.log.Printf("stateful cells are unavailable, running each cell as a process: %v", err)
				e.note(j, "stderr", fmt.Sprintf("dlbd kernel: the stateful mode is unavailable (%v). Each cell runs as a new process (GoNB) instead: values do not live on between cells.\n", err))
				mode = ModeProcess
			}
		}
		if mode == ModeProcess {
			e.forward(j)
			continue
		}
		if ok := e.run(j); !ok && (j.req.StopOnError == nil || *j.req.StopOnError) {
			e.abortQueued()
		}
	}
}

// isModeCell reports whether c is a %mode cell, which the shim runs in
// either mode.
func isModeCell(c *cell.Cell) bool {
	m, ok := c.Magic("mode")
	return ok && len(c.Commands) == 1 && m.Kind == cell.Magic && c.IsGoEmpty()
}

// forward sends j to GoNB and waits until GoNB has answered it.
func (e *execute) forward(j *job) {
	f := &forwarded{done: make(chan struct{})}
	if j.req.counts() {
		e.count++
		f.count = e.count
	}
	e.mu.Lock()
	e.fwd[j.header.MsgID] = f
	e.mu.Unlock()
	e.s.cells.start(j.header.MsgID)
	e.s.forward(e.s.ker, shell, j.frames)
	select {
	case <-f.done:
	case <-e.quit:
	}
}

// forwardedDone is called for GoNB's execute_reply to request id.
func (e *execute) forwardedDone(id string) {
	e.mu.Lock()
	f := e.fwd[id]
	delete(e.fwd, id)
	e.mu.Unlock()
	if f != nil {
		close(f.done)
	}
}

// gonbCount matches GoNB's cell references, "Cell [3]" and "Cell[3]".
var gonbCount = regexp.MustCompile(`Cell ?\[(\d+)\]`)

// renumber rewrites the execution counts in a message GoNB sent for
// request id (execute_input, execute_reply, execute_result, error), so
// that they continue the shim's count; it returns nil when nothing changes.
func (e *execute) renumber(id, msgType string, content []byte) []byte {
	e.mu.Lock()
	f := e.fwd[id]
	e.mu.Unlock()
	if f == nil || f.count == 0 {
		return nil
	}
	var fields map[string]json.RawMessage
	if json.Unmarshal(content, &fields) != nil {
		return nil
	}
	if raw, ok := fields["execution_count"]; ok {
		var n int
		if json.Unmarshal(raw, &n) == nil {
			if msgType == "execute_input" {
				e.mu.Lock()
				f.gonbCount = n
				e.mu.Unlock()
			}
			if n == f.count {
				raw = nil
			}
		}
		if raw != nil {
			fields["execution_count"] = encode(f.count)
		}
	}
	e.mu.Lock()
	from := f.gonbCount
	e.mu.Unlock()
	if from != 0 && from != f.count {
		for _, k := range []string{"evalue", "traceback"} {
			if raw, ok := fields[k]; ok {
				fields[k] = gonbCount.ReplaceAllFunc(raw, func(m []byte) []byte {
					if n, _ := strconv.Atoi(string(gonbCount.FindSubmatch(m)[1])); n == from {
						return []byte(cellpos.Pos{Cell: f.count}.String())
					}
					return m
				})
			}
		}
	}
	return encode(fields)
}

// abortQueued answers the requests already waiting with status "aborted",
// as ipykernel does after a failed cell: a "run all" stops at the error.
func (e *execute) abortQueued() {
	for {
		select {
		case j := <-e.jobs:
			e.abort(j)
		default:
			return
		}
	}
}

// abort answers j with status "aborted" without running it.
func (e *execute) abort(j *job) {
	e.s.publish(j.parts, "status", map[string]string{"execution_state": "busy"})
	e.s.reply(j.parts, "execute_reply", map[string]any{"status": "aborted", "execution_count": nil})
	e.s.publish(j.parts, "status", map[string]string{"execution_state": "idle"})
}

// interrupt stops the running stateful cell; it reports whether one ran.
func (e *execute) interrupt() bool {
	if e.ex == nil || !e.running.Load() {
		return false
	}
	e.ex.Interrupt()
	return true
}
