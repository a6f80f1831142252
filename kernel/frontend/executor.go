package frontend

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dlbd/dlbd/kernel/cell"
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

// queueSize bounds the execute requests waiting to run.
const queueSize = 1024

// execute is the front end's ordered queue of execute requests: in the stateful
// mode its worker runs them in the Executor; in the process mode it
// forwards them to GoNB one at a time, so that the order holds across a
// switch of modes.
type execute struct {
	s      *server
	ex     Executor     // nil: process mode only
	assist Assistant    // Tab and Shift+Tab, in both modes
	mode   atomic.Value // the Mode
	jobs   chan *job

	count   int     // execution count, for both modes; the worker's alone
	hist    history // the counted cells, for history_request
	running atomic.Bool

	mu        sync.Mutex
	fwd       map[string]*forwarded // execute requests GoNB is running, by msg_id
	procDecls []string              // declarations of the cells GoNB ran, which it keeps
	gonbCells map[int]gonbCell      // the cells GoNB ran, by GoNB's execution count
	bodyNames map[string]int        // names the runs of GoNB's cells made (bodyNames), to the cell's count

	// statusMu orders the kernel's status messages: the front end's own
	// answers publish busy and idle while a cell may run, and current,
	// the job whose cell runs (in either mode), is then shown busy again;
	// the cell's own idle comes under the same lock.
	statusMu sync.Mutex
	current  *job

	quit     chan struct{} // closed by close: the worker stops waiting
	quitOnce sync.Once
	stopped  chan struct{} // closed when the worker has returned
}

// job is one execute request.
type job struct {
	parts  wire.Parts
	frames [][]byte
	header protocol.Header
	req    protocol.ExecuteRequest
}

// forwarded is an execute request that GoNB runs.
type forwarded struct {
	decls     string        // the cell's declarations, which GoNB keeps once it ran
	code      string        // the cell
	names     []string      // what its run makes (bodyNames), which GoNB does not keep
	count     int           // the front end's execution count for it (0: none)
	gonbCount int           // GoNB's, from its execute_input
	done      chan struct{} // closed when its execute_reply has passed
	watched   bool          // an interrupt of it is being seen through (stopCell); under execute.mu
	// ended counts GoNB's execute_reply (shell) and idle status (IOPub)
	// for it that the front end has handled: two goroutines read the two
	// sockets in no set order, and both rewrite with f (its counts), so f
	// stays in execute.fwd until both have (endForwarded). Under execute.mu.
	ended int

	programs map[string]*gonbProgram // GoNB's programs its panic named, read (nil: unreadable); under execute.mu
}

// newExecute starts the queue's worker, in mode (ModeProcess unless mode
// is ModeStateful and there is an executor).
func newExecute(s *server, ex Executor, mode Mode) *execute {
	e := &execute{s: s, ex: ex, assist: assistantOf(ex), jobs: make(chan *job, queueSize), fwd: map[string]*forwarded{},
		gonbCells: map[int]gonbCell{}, bodyNames: map[string]int{},
		quit: make(chan struct{}), stopped: make(chan struct{})}
	s.cells.compile = e.compileError // before the forwarding goroutines start
	s.cells.place = e.programLine
	if ex == nil || mode != ModeStateful {
		mode = ModeProcess
	}
	e.mode.Store(mode)
	go e.work()
	return e
}

// currentMode returns the mode the next cell runs in.
func (e *execute) currentMode() Mode { return e.mode.Load().(Mode) }

// enqueue takes an execute request that passed verification.
func (e *execute) enqueue(frames [][]byte, p wire.Parts, h protocol.Header) {
	j := &job{parts: p, frames: frames, header: h}
	if err := json.Unmarshal(p.Content, &j.req); err != nil { // checkMessage makes this impossible
		e.refuse(p, "bad_request", fmt.Sprintf("execute_request: %v (spec: https://jupyter-client.readthedocs.io/en/latest/messaging.html#execute)", err))
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
		e.refuse(p, "busy", fmt.Sprintf("execute_request: %d requests are already waiting to run; send fewer at once", queueSize))
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
		if c, m, ok := modeCommand(j.req.Code); ok {
			e.switchMode(j, c, m)
			continue
		}
		if q, ok := stateful.ParseHelp(j.req.Code); ok {
			e.help(j, q)
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
		if ok := e.run(j); !ok && j.req.StopOnError {
			e.abortQueued()
		}
	}
}

// forward sends j to GoNB and waits until GoNB has answered it.
func (e *execute) forward(j *job) {
	f := &forwarded{code: j.req.Code, names: bodyNames(j.req.Code), done: make(chan struct{})}
	if c, err := cell.Parse(j.req.Code); err == nil {
		f.decls = c.Decls
		if _, reset := c.Magic("reset"); reset { // GoNB forgets its declarations
			e.mu.Lock()
			e.procDecls = nil
			e.mu.Unlock()
		}
	}
	if j.req.Counts() {
		e.count++
		f.count = e.count
		e.hist.add(e.count, j.req.Code)
	}
	e.mu.Lock()
	e.fwd[j.header.MsgID] = f
	e.mu.Unlock()
	e.s.cells.start(j.header.MsgID)
	e.setCurrent(j) // until GoNB's idle for it (forwardIdle)
	e.s.forward(e.s.ker, protocol.Shell, j.frames)
	select {
	case <-f.done:
	case <-e.quit:
	}
}

// forwardedDone is called for GoNB's execute_reply to request id, whose
// content is reply, before the reply goes on to Jupyter: a cell that ran
// keeps its declarations in GoNB, and a complete_request sent as soon as
// the reply arrives must see them. What its run makes is remembered for
// the hint of compileError, whether it ran to its end or not: either way,
// no later cell has it.  It returns the function that lets the executor
// go on, to call once the reply is on its way.
func (e *execute) forwardedDone(id string, reply []byte) (release func()) {
	var r protocol.ExecuteReply
	ok := json.Unmarshal(reply, &r) == nil && r.Status == "ok"
	e.mu.Lock()
	f := e.fwd[id]
	e.endForwarded(id)
	if f != nil && ok && strings.TrimSpace(f.decls) != "" {
		e.procDecls = append(e.procDecls, f.decls)
	}
	if f != nil && f.count != 0 {
		for _, name := range f.names {
			e.bodyNames[name] = f.count
		}
	}
	e.mu.Unlock()
	return func() {
		if f != nil {
			close(f.done)
		}
	}
}

// forwardedIdle is called for GoNB's idle status after request id.
func (e *execute) forwardedIdle(id string) {
	e.mu.Lock()
	e.endForwarded(id)
	e.mu.Unlock()
}

// endForwarded counts one of the two last messages of request id (its
// execute_reply and its idle status) and forgets the request after both.
// e.mu must be held.
func (e *execute) endForwarded(id string) {
	if f := e.fwd[id]; f != nil {
		if f.ended++; f.ended == 2 {
			delete(e.fwd, id)
		}
	}
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
	e.s.status(j.parts, "busy")
	e.s.reply(j.parts, "execute_reply", protocol.ExecuteReply{Status: "aborted"})
	e.s.status(j.parts, "idle")
}

// refuse answers the execute request p with an error reply without
// queueing it, and logs why.
func (e *execute) refuse(p wire.Parts, ename, msg string) {
	e.s.log.Print(msg)
	e.s.replyError(protocol.Shell, p, "execute_reply", ename, msg)
}
