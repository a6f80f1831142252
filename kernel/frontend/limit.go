package frontend

import (
	"context"
	"encoding/binary"
	"fmt"
	"net"
	"strings"
	"sync"

	"github.com/go-zeromq/zmq4"
	"github.com/go-zeromq/zmq4/transport"
)

// DefaultMaxMessage is the default bound of one message from Jupyter, all
// its frames together: 64 MiB, far above any cell or reply and far below
// what would hurt the machine. `dlbd launch -max-message` changes it.
const DefaultMaxMessage = 64 << 20

// zmtpGreeting is the length of ZMTP 3's greeting, which precedes frames.
const zmtpGreeting = 64

// limitedConn is a connection whose reads fail as soon as the peer
// announces a ZeroMQ frame, or a multipart message, larger than max: zmq4
// allocates a frame's whole body from the length in its header before
// reading it, so the check must come while the header is read, before any
// signature can be verified. It follows ZMTP 3 framing
// (https://rfc.zeromq.org/spec/23/): a 64-byte greeting, then frames of a
// flags byte (bit 0 more, bit 1 long), a 1- or 8-byte size, and the body.
type limitedConn struct {
	net.Conn
	max int64

	mu       sync.Mutex
	greeting int     // greeting bytes still to pass
	head     [9]byte // the header being read
	headLen  int     // bytes of head read so far
	body     int64   // body bytes still to pass
	msg      int64   // bytes of the current message so far
	more     bool    // the current frame has a next one
	err      error   // the first violation: every later read fails
}

// Read passes the peer's bytes through, checking each frame header.
func (c *limitedConn) Read(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.Conn.Read(p)
	if verr := c.scan(p[:n]); verr != nil {
		c.err = verr
		c.Conn.Close()
		return 0, verr
	}
	return n, err
}

// scan advances the framing state over b.
func (c *limitedConn) scan(b []byte) error {
	for len(b) > 0 {
		switch {
		case c.greeting > 0:
			k := min(c.greeting, len(b))
			c.greeting -= k
			b = b[k:]
		case c.body > 0:
			k := int64(len(b))
			if k > c.body {
				k = c.body
			}
			c.body -= k
			b = b[k:]
			if c.body == 0 && !c.more {
				c.msg = 0
			}
		default:
			c.head[c.headLen] = b[0]
			c.headLen++
			b = b[1:]
			long := c.head[0]&0x02 != 0
			need := 2
			if long {
				need = 9
			}
			if c.headLen < need {
				continue
			}
			size := int64(c.head[1])
			if long {
				u := binary.BigEndian.Uint64(c.head[1:9])
				if u > uint64(c.max) {
					return fmt.Errorf("frontend: a peer announced a frame of %d bytes, over the limit of %d (see dlbd launch -max-message): connection closed", u, c.max)
				}
				size = int64(u)
			}
			c.more = c.head[0]&0x01 != 0
			c.msg += size + int64(need)
			if c.msg > c.max {
				return fmt.Errorf("frontend: a peer's message exceeds the limit of %d bytes (see dlbd launch -max-message): connection closed", c.max)
			}
			c.headLen, c.body = 0, size
			if size == 0 && !c.more {
				c.msg = 0
			}
		}
	}
	return nil
}

// limitedListener wraps the connections a listener accepts.
type limitedListener struct {
	net.Listener
	max int64
}

// Accept returns the next connection, whose reads are bounded.
func (l limitedListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &limitedConn{Conn: c, max: l.max, greeting: zmtpGreeting}, nil
}

// limitedTransport is a zmq4 transport whose listeners bound messages.
type limitedTransport struct {
	transport.Transport
	max int64
}

// Listen listens on addr, bounding what the connections it accepts read.
func (t limitedTransport) Listen(ctx context.Context, addr string) (net.Listener, error) {
	l, err := t.Transport.Listen(ctx, addr)
	if err != nil {
		return nil, err
	}
	return limitedListener{Listener: l, max: t.max}, nil
}

var (
	limitsMu sync.Mutex
	limits   = map[int64]bool{} // limits whose transports are registered
)

// limitedEndpoint returns endpoint (tcp:// or ipc://) through transports
// that bound messages to max bytes, registering them with zmq4 the first
// time a limit is used.
func limitedEndpoint(endpoint string, max int64) (string, error) {
	scheme, rest, ok := strings.Cut(endpoint, "://")
	network := map[string]string{"tcp": "tcp", "ipc": "unix"}[scheme]
	if !ok || network == "" {
		return "", fmt.Errorf("frontend: endpoint %q: want tcp:// or ipc://", endpoint)
	}
	name := fmt.Sprintf("dlbd%s%d", scheme, max)
	limitsMu.Lock()
	defer limitsMu.Unlock()
	if !limits[max] {
		for _, s := range []string{"tcp", "ipc"} {
			net := map[string]string{"tcp": "tcp", "ipc": "unix"}[s]
			if err := zmq4.RegisterTransport(fmt.Sprintf("dlbd%s%d", s, max), limitedTransport{Transport: transport.New(net), max: max}); err != nil {
				return "", fmt.Errorf("frontend: %w", err)
			}
		}
		limits[max] = true
	}
	return name + "://" + rest, nil
}
