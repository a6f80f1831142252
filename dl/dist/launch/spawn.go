package launch

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os/exec"
	"regexp"
	"runtime"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/dlbd/dlbd/dl/dist"
	"github.com/dlbd/dlbd/dl/dist/internal/store"
)

// spawn starts the node's ranks itself (the nccl, tcp and inprocess backends),
// as torchrun's agent does: one process group for all of them, a
// goroutine waiting for each, and node 0 serving the rendezvous store.
func spawn(ctx context.Context, cfg Config, bin string, args []string) error {
	// PR_SET_PDEATHSIG fires when the thread that started the child ends,
	// not the process: keep this goroutine on its thread until the job is
	// over, or the Go runtime may retire the thread and kill the ranks.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	addr := net.JoinHostPort(cfg.MasterAddr, strconv.Itoa(cfg.MasterPort))
	abort, err := rendezvous(ctx, cfg, addr)
	if err != nil {
		return err
	}
	defer abort.close()
	out, errw := &lockedWriter{w: cfg.Stdout}, &lockedWriter{w: cfg.Stderr}
	var notes lastLines
	type exit struct {
		local int
		pid   int
		err   error
	}
	exits := make(chan exit, cfg.NProcPerNode)
	pgid := 0
	var pipes sync.WaitGroup
	rankPipes := make([]sync.WaitGroup, cfg.NProcPerNode)
	for i := 0; i < cfg.NProcPerNode; i++ {
		rank := cfg.NodeRank*cfg.NProcPerNode + i
		cmd := exec.Command(bin, args...)
		cmd.Env, cmd.Dir = cfg.env(i), cfg.Dir
		cmd.SysProcAttr = groupAttr(pgid)
		o, _ := cmd.StdoutPipe()
		e, _ := cmd.StderrPipe()
		if err := cmd.Start(); err != nil {
			if pgid != 0 {
				syscall.Kill(-pgid, syscall.SIGKILL)
			}
			return fmt.Errorf("launch: start rank %d: %w", rank, err)
		}
		if pgid == 0 {
			pgid = cmd.Process.Pid
		}
		pipes.Add(2)
		rankPipes[i].Add(2)
		for _, p := range []struct {
			r interface{ Read([]byte) (int, error) }
			w *lockedWriter
		}{{o, out}, {e, errw}} {
			go func() { // ends at the rank's exit, when its pipe closes
				defer pipes.Done()
				defer rankPipes[i].Done()
				prefixLines(p.r, rank, p.w, &notes)
			}()
		}
		go func() { // ends when the rank exits (killGroup makes sure it does)
			pid := cmd.Process.Pid
			rankPipes[i].Wait() // read everything first: Wait closes the pipes
			err := cmd.Wait()
			exits <- exit{i, pid, err}
		}()
	}
	var fail error
	stopped := false
	stop := func(err error) {
		if fail == nil {
			fail = err
		}
		if !stopped {
			stopped = true
			killGroup(pgid)
		}
	}
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	done := ctx.Done()
	for left := cfg.NProcPerNode; left > 0; {
		select {
		case x := <-exits:
			left--
			if x.err != nil && !stopped {
				rank := cfg.NodeRank*cfg.NProcPerNode + x.local
				f := &RankFailure{Rank: rank, PID: x.pid, Status: exitStatus(x.err), Cause: notes.get(rank)}
				if m := rankIn.FindStringSubmatch(f.Cause); m != nil && cfg.Backend == dist.InProcess {
					f.Rank, _ = strconv.Atoi(m[1]) // the goroutine rank the process's error names
				}
				abort.set(f.Error())
				stop(f)
			}
		case <-tick.C:
			if msg, ok := abort.get(); ok && !stopped {
				stop(abortFailure(msg))
			}
		case <-done:
			done = nil
			stop(fmt.Errorf("launch: job stopped: %w", ctx.Err()))
		}
	}
	pipes.Wait()
	syscall.Kill(-pgid, syscall.SIGKILL) // nothing of the job outlives it
	return fail
}

// exitStatus says how a rank ended.
func exitStatus(err error) string {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return fmt.Sprintf("was killed by signal %d (%v)", int(ws.Signal()), ws.Signal())
		}
		return "exited with status " + strconv.Itoa(ee.ExitCode())
	}
	return err.Error()
}

var rankIn = regexp.MustCompile(`rank (\d+)`)

// abortFailure is the failure another node (or a rank) reported.
func abortFailure(msg string) error {
	if m := rankIn.FindStringSubmatch(msg); m != nil {
		r, _ := strconv.Atoi(m[1])
		return &RankFailure{Rank: r, Status: "failed", Cause: msg}
	}
	return fmt.Errorf("launch: the job was aborted: %s", msg)
}

// abortKey is the job's abort switch in the store.
type abortKey struct {
	srv *store.Server
	ln  net.Listener
	cl  *store.Client
}

// rendezvous serves the store on node 0 of an nccl or tcp job, or
// connects to it from the other nodes; other backends get a switch that
// does nothing.
func rendezvous(ctx context.Context, cfg Config, addr string) (*abortKey, error) {
	a := &abortKey{}
	if cfg.Backend != dist.NCCL && cfg.Backend != dist.TCP {
		return a, nil
	}
	if cfg.NodeRank == 0 {
		ln, err := net.Listen("tcp", addr)
		if err != nil {
			return nil, fmt.Errorf("launch: serve the rendezvous at %s (--master-addr, --master-port): %w", addr, err)
		}
		a.srv, a.ln = store.NewServer(), ln
		go a.srv.Serve(ln) // ends when close closes ln
		return a, nil
	}
	cl, err := store.Dial(addr, time.Minute)
	if err != nil {
		return nil, fmt.Errorf("launch: node %d: %w", cfg.NodeRank, err)
	}
	a.cl = cl
	return a, nil
}

func (a *abortKey) get() (string, bool) {
	switch {
	case a.srv != nil:
		v, ok := a.srv.Get(dist.AbortKey)
		return string(v), ok
	case a.cl != nil:
		v, ok, err := a.cl.Get(dist.AbortKey)
		if err != nil {
			return "node 0's launcher is gone: " + err.Error(), true
		}
		return string(v), ok
	}
	return "", false
}

func (a *abortKey) set(msg string) {
	if a.cl != nil {
		a.cl.Set(dist.AbortKey, []byte(msg))
	} else if a.srv != nil {
		c, err := store.Dial(a.ln.Addr().String(), time.Second)
		if err == nil {
			c.Set(dist.AbortKey, []byte(msg))
			c.Close()
		}
	}
}

func (a *abortKey) close() {
	if a.ln != nil {
		time.Sleep(300 * time.Millisecond) // let other nodes' launchers read the abort
		a.ln.Close()
	}
	if a.cl != nil {
		a.cl.Close()
	}
}
