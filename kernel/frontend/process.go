package frontend

import (
	"os"
	"os/exec"
	"os/signal"
	"syscall"

	"github.com/dlbd/dlbd/kernel/internal/proc"
)

// child is the running kernel process (GoNB).
type child struct {
	*proc.Proc
}

// startChild starts argv with env in a process group of its own (GoNB
// and the cell processes it starts), with stdout and stderr going
// straight to ours. It dies with the front end (Linux's parent-death signal),
// and the guard kills its group if the front end dies first.
func startChild(argv, env []string, guard *proc.Guard) (*child, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = env
	// *os.File values, not io.Writers: os/exec then starts no copying
	// goroutines, and the kernel writes to Jupyter's pipes directly.
	cmd.Stdin, cmd.Stdout, cmd.Stderr = nil, os.Stdout, os.Stderr
	p, err := proc.Start(cmd, proc.Options{Group: true})
	if err != nil {
		return nil, err
	}
	guard.Group(p.Pid())
	return &child{p}, nil
}

// catchSignals starts catching SIGINT and SIGTERM, before the kernel
// starts, so that none is lost (or ends the front end) in between.
func catchSignals() chan os.Signal {
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM)
	return sigs
}

// forwardSignals relays the signals sigs caught to the kernel until it
// exits; the goroutine it starts ends then. GoNB treats a second SIGINT as
// another interrupt and a second SIGTERM as the same request to stop.
func (c *child) forwardSignals(sigs chan os.Signal) {
	go func() {
		defer signal.Stop(sigs)
		for {
			select {
			case sig := <-sigs:
				c.Signal(sig.(syscall.Signal))
			case <-c.Done():
				return
			}
		}
	}()
}
