package frontend

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"os/signal"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dlbd/dlbd/kernel/internal/proc"
	"github.com/dlbd/dlbd/kernel/internal/wire"
	"github.com/dlbd/dlbd/kernel/protocol"
)

// Options configures [Run].
type Options struct {
	// ConnectionFile is the connection file Jupyter wrote for this kernel
	// (the {connection_file} of the kernelspec's argv).
	ConnectionFile string
	// Command returns the argv and environment of GoNB, the kernel that
	// runs the process mode's cells, for the connection file the front end
	// writes for it. It is required.
	Command func(connectionFile string) (argv, env []string, err error)
	// Log receives the front end's own messages (dropped messages, send
	// failures); nil means os.Stderr, which Jupyter shows in its log.
	Log io.Writer
	// StopGrace is how long GoNB may take to exit after SIGTERM when ctx
	// ends before it is killed; 0 means 5 s.
	StopGrace time.Duration
	// Guard, when set, is the argv of the guard process (`dlbd guard`),
	// which kills every process group of the kernel and removes its
	// temporary directories when the front end is gone, however it went.
	Guard []string
	// Executor, when set, makes the executor of the stateful mode; it
	// receives the guard (nil without one) and GoNB's environment. Without
	// it every cell goes to GoNB.
	Executor func(guard *proc.Guard, env []string) (Executor, error)
	// MaxMessage bounds one message from Jupyter (all its frames), checked
	// while it is read, before its signature; 0 means DefaultMaxMessage.
	MaxMessage int64
	// Mode is the mode the kernel starts in: ModeStateful (the default when
	// Executor is set) or ModeProcess.
	Mode Mode
}

// errKernelExited is what dialKernel returns when the kernel exits first.
var errKernelExited = errors.New("frontend: the kernel exited before accepting connections")

// drainTime is how long the front end keeps forwarding after GoNB exited,
// for the messages it sent just before (the shutdown_reply above all).
const drainTime = 100 * time.Millisecond

// maxIPCPath is the longest socket path Linux and macOS accept (sun_path
// holds 108 and 104 bytes with the final NUL).
const maxIPCPath = 103

// Run is the kernel: it starts GoNB and the stateful executor and serves
// Jupyter's sockets until GoNB exits; it returns GoNB's exit status (128+n
// when signal n killed it). When ctx ends first, GoNB gets SIGTERM (and
// SIGKILL after o.StopGrace). The error is non-nil only when the front end
// could not start; then the status is meaningless.
func Run(ctx context.Context, o Options) (int, error) {
	if o.Command == nil {
		return 0, errors.New("frontend: Options.Command is nil: nothing to start")
	}
	if o.StopGrace <= 0 {
		o.StopGrace = 5 * time.Second
	}
	out := o.Log
	if out == nil {
		out = os.Stderr
	}
	logger := log.New(out, "dlbd frontend: ", log.LstdFlags|log.Lmsgprefix)
	ci, err := protocol.ReadConnectionFile(o.ConnectionFile)
	if err != nil {
		return 0, fmt.Errorf("frontend: %w", err)
	}
	signer, err := wire.NewSigner(ci.SignatureScheme, []byte(ci.Key))
	if err != nil {
		return 0, fmt.Errorf("frontend: connection file %s: %w", o.ConnectionFile, err)
	}
	// MkdirTemp makes the directory 0700: only this user reaches GoNB.
	dir, err := os.MkdirTemp("", "dlbd-kernel-")
	if err != nil {
		return 0, fmt.Errorf("frontend: make a private directory for the kernel: %w", err)
	}
	defer os.RemoveAll(dir)
	inner, err := innerConnection(ci, dir)
	if err != nil {
		return 0, err
	}
	// GoNB takes its kernel id from a file name "kernel-<id>.json": keep
	// Jupyter's name, so that both agree on the id.
	innerFile := filepath.Join(dir, filepath.Base(o.ConnectionFile))
	if err := inner.WriteFile(innerFile); err != nil {
		return 0, fmt.Errorf("frontend: %w", err)
	}
	argv, env, err := o.Command(innerFile)
	if err != nil {
		return 0, err
	}
	// The guard starts once there is something to guard: a kernel to run.
	var guard *proc.Guard
	if len(o.Guard) > 0 {
		if guard, err = proc.StartGuard(o.Guard); err != nil {
			logger.Printf("%v: processes may outlive a killed kernel", err)
		}
	}
	defer guard.Close()
	guard.Dir(dir)
	// GoNB's temporary directories (one per session, with its cells'
	// programs) go inside ours, so that they go with it.
	tmp := filepath.Join(dir, "tmp")
	if err := os.Mkdir(tmp, 0o700); err != nil {
		return 0, fmt.Errorf("frontend: %w", err)
	}
	env = append(env, "TMPDIR="+tmp) // os/exec keeps the last of duplicates
	var ex Executor
	mode := o.Mode
	if o.Executor != nil {
		if ex, err = o.Executor(guard, env); err != nil {
			logger.Printf("the stateful mode is unavailable, cells run as processes: %v", err)
			ex = nil
		}
		if mode == "" {
			mode = ModeStateful
		}
	}
	if ex != nil {
		defer ex.Close()
	}
	sctx, cancel := context.WithCancel(context.Background()) // the life of the sockets
	defer cancel()
	if o.MaxMessage <= 0 {
		o.MaxMessage = DefaultMaxMessage
	}
	jup, err := bindJupyter(sctx, ci, o.MaxMessage, logger)
	if err != nil {
		return 0, err
	}
	defer jup.close()
	sigs := catchSignals()
	kid, err := startChild(argv, env, guard)
	if err != nil {
		signal.Stop(sigs)
		return 0, fmt.Errorf("frontend: %w", err)
	}
	kid.forwardSignals(sigs)
	id := "dlbd-frontend-" + protocol.NewID()
	ker, err := dialKernel(ctx, inner, id, kid.Done(), logger)
	switch {
	case errors.Is(err, errKernelExited):
		logger.Printf("the kernel (%s) exited with status %d before accepting connections", argv[0], kid.ExitCode())
		return kid.ExitCode(), nil
	case err != nil:
		kid.Stop(o.StopGrace)
		return 0, err
	}
	s := &server{jup: jup, ker: ker, signer: signer, log: logger, id: []byte(id), session: protocol.NewID(), gonbTmp: tmp, kernelPID: kid.Pid()}
	s.exec = newExecute(s, ex, mode)
	s.start()
	go s.announceReady(ex)
	parent := jupyterParent()
	select {
	case <-kid.Done():
	case <-ctx.Done():
		kid.Stop(o.StopGrace)
	case <-watchParent(parent, parentPollInterval, kid.Done()):
		logger.Printf("Jupyter (process %d), which started this kernel, is gone: stopping the kernel", parent)
		kid.Stop(o.StopGrace)
	}
	proc.KillGroup(kid.Pid()) // cells and shell commands GoNB left behind
	time.Sleep(drainTime)
	s.close()
	return kid.ExitCode(), nil
}

// innerConnection returns the connection GoNB gets: ci's key and scheme,
// and IPC endpoints dir/k-1 … dir/k-5 (GoNB writes "ipc://<ip>-<port>"),
// or fresh TCP ports on 127.0.0.1 when dir is too long for a socket path.
func innerConnection(ci protocol.ConnectionInfo, dir string) (protocol.ConnectionInfo, error) {
	inner := protocol.ConnectionInfo{Transport: "ipc", IP: filepath.Join(dir, "k"),
		ShellPort: 1, ControlPort: 2, StdinPort: 3, IOPubPort: 4, HBPort: 5}
	if len(inner.IP)+len("-5") > maxIPCPath {
		var err error
		if inner, err = protocol.NewConnectionInfo(); err != nil {
			return inner, fmt.Errorf("frontend: %w", err)
		}
	}
	inner.SignatureScheme, inner.Key, inner.KernelName = ci.SignatureScheme, ci.Key, ci.KernelName
	return inner, nil
}

// server is the front end while Run runs: its sockets towards Jupyter and
// GoNB, the execute queue, and what it remembers of the messages.
type server struct {
	jup, ker  *side
	signer    *wire.Signer
	log       *log.Logger
	id        []byte // identity of the front end's sockets towards the kernel
	session   string // session of the messages the front end writes itself
	gonbTmp   string // GoNB's TMPDIR, where it writes each cell's program; "" when unknown
	kernelPID int    // GoNB's process id, whose children run its cells (0: unknown)

	cells   cells         // execute requests whose output is watched for panics
	exec    *execute      // the ordered queue of execute requests
	control idSet         // msg_ids of control requests still awaiting a reply
	warned  idSet         // peers already told about a dropped message
	digests digestHistory // signatures accepted: replays are refused

	closing atomic.Bool    // set before the sockets are closed
	loops   sync.WaitGroup // the forwarding goroutines
}

// close stops the forwarding: it closes every socket, which makes each
// loop's Recv fail, and waits for the loops to return.
func (s *server) close() {
	s.exec.close()
	s.closing.Store(true)
	s.ker.close()
	s.jup.close()
	s.loops.Wait()
}
