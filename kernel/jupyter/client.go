package jupyter

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"os/user"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	"github.com/go-zeromq/zmq4"

	"github.com/dlbd/dlbd/kernel/internal/proc"
	"github.com/dlbd/dlbd/kernel/internal/wire"
	"github.com/dlbd/dlbd/kernel/protocol"
)

// ErrClosed is returned by requests made after [Client.Close].
var ErrClosed = errors.New("jupyter: client closed")

// Options configures [Start]. The zero value starts the kernelspec "dlbd"
// found in [DataPath] with the current environment.
type Options struct {
	// KernelName is the kernelspec to start; "" means "dlbd".
	KernelName string
	// Spec, when not nil, is started instead of looking up KernelName.
	Spec *KernelSpec
	// Path lists the Jupyter data directories to search; nil means DataPath().
	Path []string
	// Env is the environment the kernelspec's env is merged into; nil means
	// os.Environ().
	Env []string
	// Dir is the kernel's working directory; "" means the current one.
	Dir string
	// Output, when not nil, also receives the kernel's stdout and stderr.
	// The last 64 KiB are always kept for error messages ([Client.Output]).
	Output io.Writer
	// ShutdownTimeout bounds the graceful part of [Client.Close]
	// (shutdown_request and the wait for the kernel to exit); 0 means 10 s.
	ShutdownTimeout time.Duration
}

// Client is a connection to a kernel process that it started. Its methods
// are safe for concurrent use; it must be closed with [Client.Close].
type Client struct {
	spec       *KernelSpec
	conn       protocol.ConnectionInfo
	connFile   string
	runtimeDir string
	signer     *wire.Signer
	session    string
	username   string
	proc       *process
	grace      time.Duration

	// ctx is the life of the sockets and of the reader goroutines.
	ctx    context.Context
	cancel context.CancelFunc

	sockets [protocol.Heartbeat]zmq4.Socket // the message channels, indexed by Channel
	sendMu  [protocol.Heartbeat]sync.Mutex  // one sender at a time per socket: frames must not interleave
	hb      zmq4.Socket                     // the heartbeat's
	hbMu    sync.Mutex
	hbLate  chan hbEcho // echo of a ping that timed out, still awaited

	mu        sync.Mutex
	waiters   map[string][]*Subscription // by the msg_id of the request
	drops     []error                    // why received messages were dropped
	announced string                     // execution_state of the last status with no parent

	readers   sync.WaitGroup
	closeOnce sync.Once
	closeErr  error
}

// Start starts a kernel as Jupyter does: it finds the kernelspec, writes a
// connection file (five free ports on 127.0.0.1, a random HMAC-SHA256 key,
// permissions 0600) into a fresh runtime directory, substitutes
// {connection_file} in argv, merges the kernelspec's env, starts the process
// in its own process group, connects the five sockets and waits until the
// kernel answers kernel_info_request and publishes on IOPub. On error
// nothing is left running.
func Start(ctx context.Context, opts Options) (*Client, error) {
	spec := opts.Spec
	if spec == nil {
		name := opts.KernelName
		if name == "" {
			name = "dlbd"
		}
		var err error
		if spec, err = FindKernelSpec(name, opts.Path); err != nil {
			return nil, err
		}
	}
	ci, err := protocol.NewConnectionInfo()
	if err != nil {
		return nil, err
	}
	ci.KernelName = spec.Name
	dir, err := os.MkdirTemp("", "jupyter-runtime-")
	if err != nil {
		return nil, fmt.Errorf("jupyter: make runtime directory: %w", err)
	}
	// GoNB reads its kernel id from a file name of this form.
	file := filepath.Join(dir, "kernel-"+protocol.NewID()+".json")
	if err := ci.WriteFile(file); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	environ := opts.Env
	if environ == nil {
		environ = os.Environ()
	}
	argv, env := spec.Command(file, environ)
	signer, err := wire.NewSigner(ci.SignatureScheme, []byte(ci.Key))
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	proc, err := startProcess(argv, env, opts.Dir, opts.Output)
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	c := &Client{
		spec: spec, conn: ci, connFile: file, runtimeDir: dir, signer: signer,
		session: protocol.NewID(), username: currentUser(), proc: proc, grace: opts.ShutdownTimeout,
		waiters: map[string][]*Subscription{},
	}
	if c.grace <= 0 {
		c.grace = 10 * time.Second
	}
	c.ctx, c.cancel = context.WithCancel(context.Background())
	if err := c.connect(ctx); err != nil {
		c.abort()
		return nil, err
	}
	if err := c.waitReady(ctx); err != nil {
		c.abort()
		return nil, err
	}
	return c, nil
}

// currentUser returns the login name for message headers.
func currentUser() string {
	if u, err := user.Current(); err == nil {
		return u.Username
	}
	return "dlbd"
}

// connect dials the five sockets, retrying until the kernel listens, the
// kernel exits, or ctx ends.
func (c *Client) connect(ctx context.Context) error {
	quiet := zmq4.WithLogger(log.New(io.Discard, "", 0)) // errors are returned, not logged
	common := []zmq4.Option{quiet, zmq4.WithDialerRetry(50 * time.Millisecond),
		zmq4.WithDialerMaxRetries(-1), zmq4.WithTimeout(30 * time.Second)}
	// As in jupyter_client, shell, stdin and control share one identity
	// (the session id): a kernel sends input_request to the identity of the
	// shell request's sender, and GoNB v0.11.4 alone (without the dlbd
	// kernel's front end) sends the replies to control requests through its shell socket,
	// which reach us only this way.
	id := zmq4.WithID(zmq4.SocketIdentity(c.session))
	c.sockets[protocol.Shell] = zmq4.NewDealer(c.ctx, append(common, id)...)
	c.sockets[protocol.Stdin] = zmq4.NewDealer(c.ctx, append(common, id)...)
	c.sockets[protocol.Control] = zmq4.NewDealer(c.ctx, append(common, id)...)
	c.sockets[protocol.IOPub] = zmq4.NewSub(c.ctx, common...)
	c.hb = zmq4.NewReq(c.ctx, common...)
	if err := c.sockets[protocol.IOPub].SetOption(zmq4.OptionSubscribe, ""); err != nil {
		return fmt.Errorf("jupyter: subscribe to iopub: %w", err)
	}
	dials := append(c.sockets[:], c.hb) // indexed by Channel, as the ports
	errc := make(chan error, len(dials))
	for ch, sock := range dials {
		// Each goroutine ends when its dial succeeds or when abort cancels
		// c.ctx, which stops zmq4's retries.
		go func() {
			ep := c.conn.Endpoint(c.conn.Port(protocol.Channel(ch)))
			if err := sock.Dial(ep); err != nil {
				errc <- fmt.Errorf("jupyter: connect %s socket to %s: %w", protocol.Channel(ch), ep, err)
				return
			}
			errc <- nil
		}()
	}
	for range dials {
		select {
		case err := <-errc:
			if err != nil {
				return err
			}
		case <-c.proc.done:
			return fmt.Errorf("jupyter: kernel %q exited before accepting connections: %w", c.spec.Name, c.proc.exitError())
		case <-ctx.Done():
			return fmt.Errorf("jupyter: connect to kernel %q: %w; its output so far:\n%s", c.spec.Name, ctx.Err(), c.proc.out.String())
		}
	}
	for ch := range protocol.Heartbeat {
		c.readers.Add(1)
		go c.readLoop(ch)
	}
	return nil
}

// abort undoes a failed Start.
func (c *Client) abort() {
	c.proc.kill(time.Second)
	c.cancel()
	c.closeSockets()
	c.readers.Wait()
	c.proc.read.Close()
	os.RemoveAll(c.runtimeDir)
}

// closeSockets closes every socket that was created.
func (c *Client) closeSockets() {
	for _, s := range append(c.sockets[:], c.hb) {
		if s != nil {
			s.Close()
		}
	}
}

// Close stops the kernel and releases everything: it sends shutdown_request
// and waits for the kernel to exit (at most Options.ShutdownTimeout), then
// sends SIGTERM and, if needed, SIGKILL to the kernel's process group, and
// SIGKILL to any descendant that left the group (as gopls does). It then
// closes the sockets and removes the connection file. Later calls return
// the first call's result.
func (c *Client) Close() error {
	c.closeOnce.Do(func() {
		var errs []error
		before, _ := proc.Family(c.proc.pid(), c.proc.pgid) // best effort: needs /proc
		if !c.proc.exited() {
			ctx, cancel := context.WithTimeout(context.Background(), c.grace)
			c.Shutdown(ctx) // failure is handled by the signals below
			cancel()
		}
		errs = append(errs, c.proc.kill(2*time.Second))
		for _, p := range before {
			if p.Alive() {
				if err := syscall.Kill(p.PID, syscall.SIGKILL); err != nil && !errors.Is(err, syscall.ESRCH) {
					errs = append(errs, fmt.Errorf("jupyter: kill leftover kernel process %v: %w", p, err))
				}
			}
		}
		c.cancel()
		c.closeSockets()
		c.readers.Wait()
		c.proc.read.Close()
		if err := os.RemoveAll(c.runtimeDir); err != nil {
			errs = append(errs, fmt.Errorf("jupyter: remove runtime directory: %w", err))
		}
		c.closeErr = errors.Join(errs...)
	})
	return c.closeErr
}
