package frontend

import (
	"bytes"
	"encoding/json"
	"errors"
	"time"

	"github.com/go-zeromq/zmq4"

	"github.com/dlbd/dlbd/kernel/internal/wire"
	"github.com/dlbd/dlbd/kernel/protocol"
)

// start launches the eight forwarding goroutines: Jupyter to kernel and
// back for shell, control and stdin, IOPub from the kernel, and the
// heartbeat. Each ends when close closes the sockets.
func (s *server) start() {
	for _, ch := range []protocol.Channel{protocol.Shell, protocol.Control, protocol.Stdin} {
		s.loop(s.jup.socks[ch], func(f [][]byte) { s.fromJupyter(ch, f) })
		s.loop(s.ker.socks[ch], func(f [][]byte) { s.fromKernel(ch, f) })
	}
	s.loop(s.ker.socks[protocol.IOPub], s.fromKernelIOPub)
	s.loop(s.jup.socks[protocol.Heartbeat], s.echo)
}

// loop starts a goroutine that hands every message received on sock to
// handle, until the front end closes (Recv then fails and closing is set).
func (s *server) loop(sock zmq4.Socket, handle func(frames [][]byte)) {
	s.loops.Add(1)
	go func() {
		defer s.loops.Done()
		for {
			m, err := sock.Recv()
			if s.closing.Load() {
				return
			}
			if err != nil {
				// zmq4 reports a lost peer connection once and then blocks
				// again; the pause only guards against a busy loop.
				time.Sleep(10 * time.Millisecond)
				continue
			}
			handle(m.Frames)
		}
	}()
}

// parseHeader decodes a header or parent_header frame; a malformed one
// gives the zero header, which matches nothing.
func parseHeader(b []byte) protocol.Header {
	var h protocol.Header
	json.Unmarshal(b, &h)
	return h
}

// fromJupyter verifies a request from Jupyter and forwards it unchanged to
// the kernel, or queues it (execute_request), or answers it itself
// (is_complete_request, and interrupt_request in the stateful mode), or
// drops it.
func (s *server) fromJupyter(ch protocol.Channel, frames [][]byte) {
	p, err := wire.Decode(s.signer, frames)
	if err != nil {
		s.reject(ch, frames, p, err)
		return
	}
	if s.signer.Enabled() && !s.digests.add(p.Signature) {
		s.reject(ch, frames, p, errReplayed)
		return
	}
	_, fixed, err := checkMessage(p.Header, p.ParentHeader, p.Metadata, p.Content)
	if err != nil {
		s.refuse(ch, p, err.(*badRequest))
		return
	}
	if fixed != nil {
		p.Content = fixed
		frames = wire.Encode(s.signer, p)
	}
	h := parseHeader(p.Header)
	switch {
	case ch == protocol.Shell && h.MsgType == "is_complete_request":
		s.answer(p, func() { s.answerIsComplete(p) })
		return
	case ch == protocol.Shell && h.MsgType == "complete_request":
		s.answer(p, func() { s.answerComplete(p) })
		return
	case ch == protocol.Shell && h.MsgType == "inspect_request":
		s.answer(p, func() { s.answerInspect(p) })
		return
	case ch == protocol.Shell && h.MsgType == "history_request":
		s.answer(p, func() { s.answerHistory(p) })
		return
	case ch == protocol.Shell && h.MsgType == "execute_request":
		s.exec.enqueue(frames, p, h)
		return
	case ch == protocol.Control && h.MsgType == "interrupt_request" && !s.exec.interrupt():
		// Stateful cells run here: GoNB, which runs none, is not asked.
		s.replyOn(protocol.Control, p, "interrupt_reply", protocol.InterruptReply{Status: "ok"})
		return
	case ch == protocol.Control:
		if h.MsgType == "shutdown_request" {
			s.exec.shutdown() // the running cell's reply first; GoNB answers the request
		}
		s.control.add(h.MsgID)
	}
	s.forward(s.ker, ch, frames)
}

// errReplayed is why a message whose signature was already seen is
// dropped.
var errReplayed = errors.New("its signature was seen before: a replayed message")

// refuse answers a verified message that is malformed with an error reply
// on its channel (when it is a request whose type can be read), logs it,
// and does not forward it.
func (s *server) refuse(ch protocol.Channel, p wire.Parts, bad *badRequest) {
	s.log.Printf("%s: refused a malformed message: %s", ch, bad.reason)
	rt := replyType(bad.msgType)
	if rt == "" {
		return
	}
	if _, err := checkHeader("header", p.Header, false); err != nil {
		p.Header = nil // the reply's parent_header must be an object
	}
	s.replyError(ch, p, rt, "bad_request", bad.reason)
}

// reject logs a request that failed verification, once per peer: a peer
// without the key could otherwise fill the log.
func (s *server) reject(ch protocol.Channel, frames [][]byte, p wire.Parts, err error) {
	var peer []byte
	if len(frames) > 0 {
		peer = frames[0] // the identity the ROUTER socket put first
	}
	if !s.warned.add(ch.String() + "/" + string(peer)) {
		return
	}
	what := parseHeader(p.Header).MsgType
	if what == "" {
		what = "a message"
	}
	s.log.Printf("%s: dropped %s from peer %q without forwarding it to the kernel: %v (later rejected messages from this peer are dropped silently)",
		ch, what, truncate(peer), err)
}

// truncate shortens b for a log line.
func truncate(b []byte) []byte {
	if len(b) > 40 {
		return append(b[:40:40], "…"...)
	}
	return b
}

// fromKernel forwards a message from one of the kernel's ROUTER sockets to
// Jupyter. GoNB answers control requests on its shell socket: those
// replies go to Jupyter's control socket, which the spec prescribes. An
// execute_reply that says only "exit status N" after a panic is rewritten,
// and so is one with GoNB's compile error, as their IOPub errors were.
func (s *server) fromKernel(ch protocol.Channel, frames [][]byte) {
	dest := ch
	if ch == protocol.Shell {
		if p, err := wire.Decode(nil, frames); err == nil {
			parent := parseHeader(p.ParentHeader).MsgID
			if parseHeader(p.Header).MsgType == "kernel_info_reply" {
				if c := withHelpLinks(p.Content); c != nil {
					frames = s.resign(p, c)
				}
			}
			switch {
			case s.control.take(parent):
				dest = protocol.Control
			case parseHeader(p.Header).MsgType == "execute_reply":
				content := p.Content
				if c := s.cells.reply(parent, content); c != nil {
					content = c
				}
				if c := s.exec.renumber(parent, "execute_reply", content); c != nil {
					content = c
				}
				if !bytes.Equal(content, p.Content) {
					frames = s.resign(p, content)
				}
				// The declarations are recorded before Jupyter gets the
				// reply; the executor goes on after.
				defer s.exec.forwardedDone(parent, content)()
			}
		}
	}
	s.forward(s.jup, dest, frames)
}

// fromKernelIOPub forwards a message the kernel published, collecting the
// stderr of watched cells and rewriting their error message.
func (s *server) fromKernelIOPub(frames [][]byte) {
	// GoNB uses the request's identities as IOPub topic, and the first
	// one is the front end's own: drop it, so that Jupyter gets what GoNB
	// would have sent it without the front end.
	if len(frames) > 0 && bytes.Equal(frames[0], s.id) {
		frames = frames[1:]
	}
	if p, err := wire.Decode(nil, frames); err == nil {
		parent, msgType := parseHeader(p.ParentHeader).MsgID, parseHeader(p.Header).MsgType
		content := p.Content
		if s.cells.watching(parent) {
			switch msgType {
			case "stream":
				s.cells.stream(parent, p.Content)
			case "error":
				if c := s.cells.published(parent, p.Content); c != nil {
					content = c
				}
			}
		}
		switch msgType {
		case "execute_input", "execute_result", "error":
			if c := s.exec.renumber(parent, msgType, content); c != nil {
				content = c
			}
		}
		if !bytes.Equal(content, p.Content) {
			frames = s.resign(p, content)
		}
		if msgType == "status" {
			var st protocol.Status
			if json.Unmarshal(content, &st) == nil && st.ExecutionState == "idle" {
				defer s.exec.forwardedIdle(parent) // after its IOPub messages were rewritten
			}
			if s.forwardIdle(parent, content, frames) {
				return
			}
		}
	}
	s.forward(s.jup, protocol.IOPub, frames)
}

// resign returns the frames of p with content replaced, signed anew.
func (s *server) resign(p wire.Parts, content []byte) [][]byte {
	p.Content = content
	return wire.Encode(s.signer, p)
}

// forward sends frames on channel ch of sd, logging a failure unless the
// front end is closing.
func (s *server) forward(sd *side, ch protocol.Channel, frames [][]byte) {
	if err := sd.send(ch, frames); err != nil && !s.closing.Load() {
		s.log.Print(err)
	}
}

// echo passes one of Jupyter's heartbeat pings to the kernel and the
// kernel's echo back, so that a kernel that stopped answering looks dead to
// Jupyter. A ping that the kernel does not echo gets no echo.
func (s *server) echo(ping [][]byte) {
	ker := s.ker.socks[protocol.Heartbeat]
	if ker.Send(zmq4.NewMsgFrom(ping...)) != nil {
		return
	}
	echo, err := ker.Recv() // returns when the kernel echoes or close closes ker
	if err != nil {
		return
	}
	s.forward(s.jup, protocol.Heartbeat, echo.Frames)
}
