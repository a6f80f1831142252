package jupyter

import (
	"context"
	"errors"
	"fmt"
	"syscall"
	"time"

	"github.com/go-zeromq/zmq4"

	"github.com/dlbd/dlbd/kernel/internal/wire"
	"github.com/dlbd/dlbd/kernel/protocol"
)

// NewMessage returns a request of type msgType carrying content (nil means
// {}), with a fresh msg_id and this client's session.
func (c *Client) NewMessage(msgType string, content any) (*Message, error) {
	return newMessage(c.session, c.username, msgType, content)
}

// Send signs m with the connection key and sends it on ch without waiting
// for an answer; see [Client.Subscribe] to collect one.
func (c *Client) Send(ctx context.Context, ch protocol.Channel, m *Message) error {
	return c.send(ctx, ch, m, c.signer)
}

// SendWithKey is Send signing with key instead of the connection key (an
// empty key sends an empty signature). It exists to test that a kernel
// rejects messages from someone who does not know the key.
func (c *Client) SendWithKey(ctx context.Context, ch protocol.Channel, m *Message, key []byte) error {
	s, err := wire.NewSigner(wire.SchemeHMACSHA256, key)
	if err != nil {
		return err
	}
	return c.send(ctx, ch, m, s)
}

// send encodes m with s and writes it to the socket of ch. The write itself
// does not watch ctx (zmq4 bounds it with the socket's 30 s timeout).
func (c *Client) send(ctx context.Context, ch protocol.Channel, m *Message, s *wire.Signer) error {
	if ch == protocol.IOPub || ch < 0 || int(ch) >= len(c.sockets) {
		return fmt.Errorf("jupyter: cannot send on the %s channel", ch)
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("jupyter: send %s: %w", m.Header.MsgType, err)
	}
	if c.ctx.Err() != nil {
		return ErrClosed
	}
	parts, err := m.toParts()
	if err != nil {
		return err
	}
	c.sendMu[ch].Lock()
	defer c.sendMu[ch].Unlock()
	if err := c.sockets[ch].SendMulti(zmq4.NewMsgFrom(wire.Encode(s, parts)...)); err != nil {
		return fmt.Errorf("jupyter: send %s on %s: %w", m.Header.MsgType, ch, err)
	}
	return nil
}

// Request sends m on ch (shell or control) and returns the reply: the first
// message whose parent is m arriving on ch or, for a control request, on
// shell. The spec wants control replies on control; GoNB v0.11.4 alone
// sends them on shell (the dlbd kernel's front end moves them to control), so
// the reply's Channel field tells which happened.
func (c *Client) Request(ctx context.Context, ch protocol.Channel, m *Message) (*Message, error) {
	s := c.Subscribe(m)
	defer s.Close()
	if err := c.Send(ctx, ch, m); err != nil {
		return nil, err
	}
	for {
		r, err := s.Next(ctx)
		if err != nil {
			return nil, fmt.Errorf("jupyter: waiting for the reply to %s on %s: %w", m.Header.MsgType, ch, err)
		}
		if r.Channel == ch || ch == protocol.Control && r.Channel == protocol.Shell {
			return r, nil
		}
	}
}

// call sends a request of type msgType with content on ch and decodes the
// reply's content into reply.
func (c *Client) call(ctx context.Context, ch protocol.Channel, msgType string, content, reply any) error {
	m, err := c.NewMessage(msgType, content)
	if err != nil {
		return err
	}
	r, err := c.Request(ctx, ch, m)
	if err != nil {
		return err
	}
	return r.DecodeContent(reply)
}

// KernelInfo sends kernel_info_request on shell and returns the reply.
func (c *Client) KernelInfo(ctx context.Context) (protocol.KernelInfoReply, error) {
	var r protocol.KernelInfoReply
	err := c.call(ctx, protocol.Shell, "kernel_info_request", nil, &r)
	return r, err
}

// Complete sends complete_request for code with the cursor at cursorPos
// (in Unicode code points) and returns the reply.
func (c *Client) Complete(ctx context.Context, code string, cursorPos int) (protocol.CompleteReply, error) {
	var r protocol.CompleteReply
	err := c.call(ctx, protocol.Shell, "complete_request", protocol.CompleteRequest{Code: code, CursorPos: cursorPos}, &r)
	return r, err
}

// History sends history_request r on shell and returns the reply.
func (c *Client) History(ctx context.Context, r protocol.HistoryRequest) (protocol.HistoryReply, error) {
	var h protocol.HistoryReply
	err := c.call(ctx, protocol.Shell, "history_request", r, &h)
	return h, err
}

// Inspect sends inspect_request for code with the cursor at cursorPos (in
// Unicode code points) and detail level detail, and returns the reply.
func (c *Client) Inspect(ctx context.Context, code string, cursorPos, detail int) (protocol.InspectReply, error) {
	var r protocol.InspectReply
	err := c.call(ctx, protocol.Shell, "inspect_request", protocol.InspectRequest{Code: code, CursorPos: cursorPos, DetailLevel: detail}, &r)
	return r, err
}

// IsComplete sends is_complete_request for code and returns the reply.
// A kernel may ignore this request (GoNB v0.11.4 alone does; the dlbd
// kernel's front end answers it): the call then ends with ctx's error.
func (c *Client) IsComplete(ctx context.Context, code string) (protocol.IsCompleteReply, error) {
	var r protocol.IsCompleteReply
	err := c.call(ctx, protocol.Shell, "is_complete_request", protocol.IsCompleteRequest{Code: code}, &r)
	return r, err
}

// Interrupt interrupts the running cell as Jupyter does for the kernelspec's
// interrupt_mode: "message" sends interrupt_request on control and waits for
// the reply; "signal" (the default) sends SIGINT to the kernel's process
// group. It does not wait for the cell to stop: its execute_reply says that.
func (c *Client) Interrupt(ctx context.Context) error {
	if c.spec.InterruptMode == "message" {
		var r protocol.InterruptReply
		if err := c.call(ctx, protocol.Control, "interrupt_request", nil, &r); err != nil {
			return err
		}
		if r.Status != "ok" {
			return fmt.Errorf("jupyter: interrupt_reply status %q", r.Status)
		}
		return nil
	}
	return c.proc.signalGroup(syscall.SIGINT)
}

// Shutdown sends shutdown_request on control, waits for the reply and then
// for the kernel process to exit. It does not signal the kernel: a kernel
// that does not exit makes Shutdown end with ctx's error (Close then kills
// it).
func (c *Client) Shutdown(ctx context.Context) error { return c.ShutdownWith(ctx, false) }

// ShutdownWith is Shutdown with the request's restart flag: true is what
// Jupyter sends before it starts the kernel again (a restart).
func (c *Client) ShutdownWith(ctx context.Context, restart bool) error {
	var r protocol.ShutdownReply
	if err := c.call(ctx, protocol.Control, "shutdown_request", protocol.ShutdownRequest{Restart: restart}, &r); err != nil {
		return err
	}
	if r.Status != "" && r.Status != "ok" {
		return fmt.Errorf("jupyter: shutdown_reply status %q", r.Status)
	}
	select {
	case <-c.proc.done:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("jupyter: kernel %d still running after shutdown_reply: %w", c.proc.pid(), ctx.Err())
	}
}

// hbEcho is the result of receiving on the heartbeat socket.
type hbEcho struct {
	msg zmq4.Msg
	err error
}

// Ping sends a unique payload on the heartbeat channel and waits for the
// kernel to echo it (spec section "Heartbeat for Kernels").
func (c *Client) Ping(ctx context.Context) error {
	c.hbMu.Lock()
	defer c.hbMu.Unlock()
	// REQ sockets alternate send and receive: an echo still due from a ping
	// that timed out must be received first.
	if c.hbLate != nil {
		select {
		case <-c.hbLate:
			c.hbLate = nil
		case <-ctx.Done():
			return fmt.Errorf("jupyter: heartbeat: earlier ping still unanswered: %w", ctx.Err())
		}
	}
	payload := []byte("ping-" + protocol.NewID())
	if err := c.hb.Send(zmq4.NewMsg(payload)); err != nil {
		return fmt.Errorf("jupyter: heartbeat: send: %w", err)
	}
	echo := make(chan hbEcho, 1)
	// Ends when the echo arrives or the socket is closed.
	go func() {
		m, err := c.hb.Recv()
		echo <- hbEcho{m, err}
	}()
	select {
	case e := <-echo:
		if e.err != nil {
			return fmt.Errorf("jupyter: heartbeat: receive: %w", e.err)
		}
		if len(e.msg.Frames) == 0 || string(e.msg.Frames[0]) != string(payload) {
			return fmt.Errorf("jupyter: heartbeat: echo %q does not match ping %q", e.msg.Frames, payload)
		}
		return nil
	case <-ctx.Done():
		c.hbLate = echo
		return fmt.Errorf("jupyter: heartbeat: no echo: %w", ctx.Err())
	}
}

// waitReady sends kernel_info_request until the kernel answers it on shell
// and publishes its status on IOPub. The second condition matters: a SUB
// socket's subscription reaches the kernel some time after connecting, and
// output published before that is lost ("slow joiner").
func (c *Client) waitReady(ctx context.Context) error {
	for {
		m, err := c.NewMessage("kernel_info_request", nil)
		if err != nil {
			return err
		}
		s := c.Subscribe(m)
		err = c.Send(ctx, protocol.Shell, m)
		replied, published := false, false
		for err == nil && !(replied && published) {
			// Wait for the reply as long as ctx allows; once it has come,
			// give IOPub one second before asking again.
			wctx, cancel := ctx, context.CancelFunc(func() {})
			if replied {
				wctx, cancel = context.WithTimeout(ctx, time.Second)
			}
			var r *Message
			r, err = s.Next(wctx)
			cancel()
			if err != nil {
				break
			}
			replied = replied || r.Channel == protocol.Shell
			published = published || r.Channel == protocol.IOPub
		}
		s.Close()
		switch {
		case err == nil:
			return nil
		case ctx.Err() != nil:
			return fmt.Errorf("jupyter: kernel %q did not become ready (reply received: %v, iopub received: %v): %w; its output:\n%s",
				c.spec.Name, replied, published, ctx.Err(), c.Output())
		case !errors.Is(err, context.DeadlineExceeded):
			return fmt.Errorf("jupyter: kernel %q did not become ready: %w", c.spec.Name, err)
		}
	}
}
