package frontend

import (
	"context"
	"fmt"
	"log"
	"sync"
	"time"

	"github.com/go-zeromq/zmq4"

	"github.com/dlbd/dlbd/kernel/protocol"
)

// sendTimeout bounds a send to a peer that does not read; the message is
// then dropped and logged rather than blocking its channel for ever.
const sendTimeout = 10 * time.Second

// side is one end of the front end: the sockets Jupyter connects to, or the
// sockets the front end connects to GoNB with.
type side struct {
	name  string                            // "jupyter" or "kernel", for logs
	socks [protocol.NumChannels]zmq4.Socket // indexed by protocol.Channel
	mu    [protocol.NumChannels]sync.Mutex  // one sender at a time: frames must not interleave
	// cancel, when set, ends the context the sockets were made with.
	cancel context.CancelFunc
	once   sync.Once
}

// send writes frames as one multipart message on channel ch.
func (sd *side) send(ch protocol.Channel, frames [][]byte) error {
	sd.mu[ch].Lock()
	defer sd.mu[ch].Unlock()
	if err := sd.socks[ch].SendMulti(zmq4.NewMsgFrom(frames...)); err != nil {
		return fmt.Errorf("frontend: send on %s %s: %w", sd.name, ch, err)
	}
	return nil
}

// close closes every socket that was created; later calls do nothing.
func (sd *side) close() {
	sd.once.Do(func() {
		for _, s := range sd.socks {
			if s != nil {
				s.Close()
			}
		}
		if sd.cancel != nil {
			sd.cancel()
		}
	})
}

// endpoints returns the ZeroMQ address of each channel of ci.
func endpoints(ci protocol.ConnectionInfo) [protocol.NumChannels]string {
	var eps [protocol.NumChannels]string
	for ch := range protocol.Channel(protocol.NumChannels) {
		eps[ch] = ci.Endpoint(ci.Port(ch))
	}
	return eps
}

// bindJupyter creates the sockets a kernel offers Jupyter and binds them
// where Jupyter's connection file says. On error nothing stays bound.
func bindJupyter(ctx context.Context, ci protocol.ConnectionInfo, maxMessage int64, logger *log.Logger) (*side, error) {
	opts := []zmq4.Option{zmq4.WithLogger(logger), zmq4.WithTimeout(sendTimeout)}
	sd := &side{name: "jupyter"}
	sd.socks = [protocol.NumChannels]zmq4.Socket{
		zmq4.NewRouter(ctx, opts...), zmq4.NewRouter(ctx, opts...), zmq4.NewRouter(ctx, opts...),
		zmq4.NewPub(ctx, opts...), zmq4.NewRep(ctx, opts...),
	}
	for ch, ep := range endpoints(ci) {
		lep, err := limitedEndpoint(ep, maxMessage)
		if err != nil {
			sd.close()
			return nil, err
		}
		if err := sd.socks[ch].Listen(lep); err != nil {
			sd.close()
			return nil, fmt.Errorf("frontend: listen for Jupyter's %s channel on %s: %w (is another kernel using this port?)", protocol.Channel(ch), ep, err)
		}
	}
	return sd, nil
}

// dialKernel connects to the kernel's five sockets, retrying until the
// kernel listens, and returns when all are connected, when the kernel
// exits (exited is closed) or when ctx ends. The three DEALER sockets share
// the identity id. On error every socket is closed.
func dialKernel(ctx context.Context, ci protocol.ConnectionInfo, id string, exited <-chan struct{}, logger *log.Logger) (*side, error) {
	// Closing dctx stops zmq4's retries, and with them the dialling goroutines.
	dctx, cancel := context.WithCancel(ctx)
	opts := []zmq4.Option{zmq4.WithLogger(logger), zmq4.WithTimeout(sendTimeout),
		zmq4.WithDialerRetry(10 * time.Millisecond), zmq4.WithDialerMaxRetries(-1)}
	withID := append(opts, zmq4.WithID(zmq4.SocketIdentity(id)))
	sd := &side{name: "kernel", cancel: cancel}
	sd.socks = [protocol.NumChannels]zmq4.Socket{
		zmq4.NewDealer(dctx, withID...), zmq4.NewDealer(dctx, withID...), zmq4.NewDealer(dctx, withID...),
		zmq4.NewSub(dctx, opts...), zmq4.NewReq(dctx, opts...),
	}
	fail := func(err error) (*side, error) {
		sd.close()
		return nil, err
	}
	if err := sd.socks[protocol.IOPub].SetOption(zmq4.OptionSubscribe, ""); err != nil {
		return fail(fmt.Errorf("frontend: subscribe to the kernel's iopub: %w", err))
	}
	errc := make(chan error, protocol.NumChannels)
	for ch, ep := range endpoints(ci) {
		go func() { // ends when connected, or when cancel stops the retries
			if err := sd.socks[ch].Dial(ep); err != nil {
				errc <- fmt.Errorf("frontend: connect to the kernel's %s channel at %s: %w", protocol.Channel(ch), ep, err)
				return
			}
			errc <- nil
		}()
	}
	for range protocol.NumChannels {
		select {
		case err := <-errc:
			if err == nil {
				continue
			}
			// A kernel that dies while we connect resets the connection:
			// its exit, not the reset, is the news.
			select {
			case <-exited:
				return fail(errKernelExited)
			case <-time.After(time.Second):
				return fail(err)
			}
		case <-exited:
			return fail(errKernelExited)
		case <-ctx.Done():
			return fail(fmt.Errorf("frontend: connect to the kernel: %w", ctx.Err()))
		}
	}
	return sd, nil
}
