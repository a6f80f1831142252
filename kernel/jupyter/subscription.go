package jupyter

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/dlbd/dlbd/kernel/internal/wire"
	"github.com/dlbd/dlbd/kernel/protocol"
)

// Subscription receives every message, on any channel, whose parent header
// is one given request: its reply on shell or control, its status, output
// and error messages on IOPub, and input requests on stdin. Messages are
// queued without limit, so a slow reader loses nothing.
type Subscription struct {
	c     *Client
	id    string
	mu    sync.Mutex
	queue []*Message
	ready chan struct{} // holds one token when queue may be non-empty
}

// Subscribe starts collecting the messages answering m. Call it before
// sending m, so that no early message is missed, and Close it when done.
func (c *Client) Subscribe(m *Message) *Subscription {
	s := &Subscription{c: c, id: m.Header.MsgID, ready: make(chan struct{}, 1)}
	c.mu.Lock()
	c.waiters[s.id] = append(c.waiters[s.id], s)
	c.mu.Unlock()
	return s
}

// Close stops the subscription; later messages for its request are dropped.
func (s *Subscription) Close() {
	s.c.mu.Lock()
	defer s.c.mu.Unlock()
	list := s.c.waiters[s.id]
	for i, w := range list {
		if w == s {
			list = append(list[:i], list[i+1:]...)
			break
		}
	}
	if len(list) == 0 {
		delete(s.c.waiters, s.id)
	} else {
		s.c.waiters[s.id] = list
	}
}

// push queues m and wakes Next.
func (s *Subscription) push(m *Message) {
	s.mu.Lock()
	s.queue = append(s.queue, m)
	s.mu.Unlock()
	select {
	case s.ready <- struct{}{}:
	default:
	}
}

// pop returns the oldest queued message, or nil.
func (s *Subscription) pop() *Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.queue) == 0 {
		return nil
	}
	m := s.queue[0]
	s.queue = s.queue[1:]
	return m
}

// exitGrace is how long Next keeps waiting after the kernel process exited,
// for messages it sent just before exiting that are still in the sockets.
const exitGrace = 250 * time.Millisecond

// Next returns the next message, waiting until one arrives, ctx ends, the
// client is closed, or the kernel process has exited (after a short grace
// for messages still in flight); the error says which.
func (s *Subscription) Next(ctx context.Context) (*Message, error) {
	exited := s.c.proc.done
	var grace <-chan time.Time
	for {
		if m := s.pop(); m != nil {
			return m, nil
		}
		select {
		case <-s.ready:
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-s.c.ctx.Done():
			return nil, ErrClosed
		case <-exited:
			exited = nil // fires once; then wait out the grace
			grace = time.After(exitGrace)
		case <-grace:
			return nil, s.c.proc.exitError()
		}
	}
}

// readLoop receives, verifies and delivers the messages of one channel
// until the client is closed (c.ctx ends, which also closes the socket).
func (c *Client) readLoop(ch protocol.Channel) {
	defer c.readers.Done()
	sock := c.sockets[ch]
	for {
		zm, err := sock.Recv()
		if c.ctx.Err() != nil {
			return
		}
		if err != nil {
			// zmq4 reports a lost connection once, then blocks until the
			// socket is closed; the pause guards against a busy loop anyway.
			time.Sleep(10 * time.Millisecond)
			continue
		}
		parts, err := wire.Decode(c.signer, zm.Frames)
		if err != nil {
			// A message that fails verification is dropped, as a kernel
			// drops an unsigned request: it cannot be trusted.
			c.dropped(fmt.Errorf("jupyter: %s: %w", ch, err))
			continue
		}
		m, err := fromParts(ch, parts)
		if err != nil {
			c.dropped(err)
			continue
		}
		c.deliver(m)
	}
}

// maxDropped is how many dropped-message errors a Client remembers.
const maxDropped = 16

// dropped records why a received message was dropped.
func (c *Client) dropped(err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.drops) == maxDropped {
		c.drops = c.drops[1:]
	}
	c.drops = append(c.drops, err)
}

// DroppedErrors returns why received messages were dropped (bad signature,
// malformed frames or JSON), the most recent 16, oldest first. A correct
// kernel causes none.
func (c *Client) DroppedErrors() []error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]error(nil), c.drops...)
}

// deliver hands m to the subscriptions of its parent request.
func (c *Client) deliver(m *Message) {
	c.mu.Lock()
	if m.Channel == protocol.IOPub && m.Header.MsgType == "status" && m.ParentHeader.MsgID == "" {
		var st protocol.Status
		if m.DecodeContent(&st) == nil {
			c.announced = st.ExecutionState
		}
	}
	subs := append([]*Subscription(nil), c.waiters[m.ParentHeader.MsgID]...)
	c.mu.Unlock()
	for _, s := range subs {
		s.push(m)
	}
}

// await returns the first message of s on channel ch whose type is
// msgType, skipping the others.
func await(ctx context.Context, s *Subscription, ch protocol.Channel, msgType string) (*Message, error) {
	for {
		m, err := s.Next(ctx)
		if err != nil {
			return nil, fmt.Errorf("jupyter: waiting for %s on %s: %w", msgType, ch, err)
		}
		if m.Channel == ch && m.Header.MsgType == msgType {
			return m, nil
		}
	}
}
