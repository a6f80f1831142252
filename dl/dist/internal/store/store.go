package store

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"time"
)

// maxFrame bounds keys and values (a unique id is 128 bytes).
const maxFrame = 1 << 20

// Server is the store's state.
type Server struct {
	mu sync.Mutex
	kv map[string][]byte
}

// NewServer returns an empty store.
func NewServer() *Server { return &Server{kv: map[string][]byte{}} }

// Serve answers clients on ln until ln is closed; each connection gets a
// goroutine that ends with its connection.
func (s *Server) Serve(ln net.Listener) error {
	for {
		c, err := ln.Accept()
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return nil
			}
			return err
		}
		go s.handle(c)
	}
}

// Get returns a key's value on the server side (the launcher's watch).
func (s *Server) Get(key string) ([]byte, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.kv[key]
	return v, ok
}

func (s *Server) handle(c net.Conn) {
	defer c.Close()
	r, w := bufio.NewReader(c), bufio.NewWriter(c)
	for {
		op, err := r.ReadByte()
		if err != nil {
			return
		}
		key, err := readFrame(r)
		if err != nil {
			return
		}
		switch op {
		case 'S':
			val, err := readFrame(r)
			if err != nil {
				return
			}
			s.mu.Lock()
			s.kv[string(key)] = val
			s.mu.Unlock()
			w.WriteByte(1)
		case 'G':
			v, ok := s.Get(string(key))
			if ok {
				w.WriteByte(1)
				writeFrame(w, v)
			} else {
				w.WriteByte(0)
			}
		default:
			return
		}
		if w.Flush() != nil {
			return
		}
	}
}

func readFrame(r io.Reader) ([]byte, error) {
	var n uint32
	if err := binary.Read(r, binary.BigEndian, &n); err != nil {
		return nil, err
	}
	if n > maxFrame {
		return nil, fmt.Errorf("store: frame of %d bytes", n)
	}
	b := make([]byte, n)
	_, err := io.ReadFull(r, b)
	return b, err
}

func writeFrame(w io.Writer, b []byte) error {
	if err := binary.Write(w, binary.BigEndian, uint32(len(b))); err != nil {
		return err
	}
	_, err := w.Write(b)
	return err
}

// Client is one connection to the store; it is safe for concurrent use.
type Client struct {
	mu   sync.Mutex
	c    net.Conn
	r    *bufio.Reader
	addr string
}

// Dial connects to the store at addr, retrying until timeout: the
// launcher may start listening after a rank starts.
func Dial(addr string, timeout time.Duration) (*Client, error) {
	deadline := time.Now().Add(timeout)
	for {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			return &Client{c: c, r: bufio.NewReader(c), addr: addr}, nil
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("store: cannot reach the rendezvous at %s (MASTER_ADDR:MASTER_PORT) within %v: %w", addr, timeout, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Close closes the connection.
func (c *Client) Close() error { return c.c.Close() }

// Set stores val under key.
func (c *Client) Set(key string, val []byte) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	w := bufio.NewWriter(c.c)
	w.WriteByte('S')
	writeFrame(w, []byte(key))
	writeFrame(w, val)
	if err := w.Flush(); err != nil {
		return fmt.Errorf("store: set %s at %s: %w", key, c.addr, err)
	}
	if _, err := c.r.ReadByte(); err != nil {
		return fmt.Errorf("store: set %s at %s: %w", key, c.addr, err)
	}
	return nil
}

// Get returns key's value if it is there.
func (c *Client) Get(key string) ([]byte, bool, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	w := bufio.NewWriter(c.c)
	w.WriteByte('G')
	writeFrame(w, []byte(key))
	if err := w.Flush(); err != nil {
		return nil, false, fmt.Errorf("store: get %s at %s: %w", key, c.addr, err)
	}
	ok, err := c.r.ReadByte()
	if err != nil {
		return nil, false, fmt.Errorf("store: get %s at %s: %w", key, c.addr, err)
	}
	if ok == 0 {
		return nil, false, nil
	}
	v, err := readFrame(c.r)
	return v, err == nil, err
}

// Wait polls for key until it is set or timeout passes (0: forever).
func (c *Client) Wait(key string, timeout time.Duration) ([]byte, bool, error) {
	start := time.Now()
	for i := 0; ; i++ {
		v, ok, err := c.Get(key)
		if err != nil || ok {
			return v, ok, err
		}
		if timeout > 0 && time.Since(start) > timeout {
			return nil, false, nil
		}
		time.Sleep(min(time.Duration(i+1)*100*time.Microsecond, 20*time.Millisecond))
	}
}
