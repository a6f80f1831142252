package dist

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"strconv"
	"sync"
	"time"

	"github.com/dlbd/dlbd/dl/dist/internal/store"
)

// The tcp backend's connections: one per pair of ranks, each read by a
// goroutine that sorts the incoming frames into boxes by group and kind,
// so that a sender never waits for its receiver to be ready (the reader
// always drains the socket) and the groups of a world share connections.

// tcpHello starts every connection: the dialling rank's magic and rank.
const tcpHello = "dlbd-tcp"

// errTCPTimeout is what read returns when nothing came within the timeout.
var errTCPTimeout = errors.New("timeout")

// tcpKey selects a box: a group's tag and a kind (tcpColl, tcpP2P).
type tcpKey struct {
	tag  uint64
	kind uint8
}

// tcpFrame is one received message.
type tcpFrame struct {
	seq  int64
	size uint8
	data []byte
}

// tcpBox queues a key's frames; wake has room for one signal.
type tcpBox struct {
	q    []tcpFrame
	wake chan struct{}
}

// tcpPeer is the connection to one other rank.
type tcpPeer struct {
	rank int    // its world rank
	addr string // where it listens, for errors
	conn net.Conn
	wmu  sync.Mutex // one frame at a time

	mu    sync.Mutex
	boxes map[tcpKey]*tcpBox
	err   error         // why the connection ended
	dead  chan struct{} // closed when err is set
}

// tcpMesh is this process's connections to every other rank of the world.
type tcpMesh struct {
	me      int
	peers   []*tcpPeer // by world rank; nil for me
	ln      net.Listener
	readers sync.WaitGroup
	once    sync.Once

	poolMu sync.Mutex
	pool   [][]byte // payload buffers to reuse (release)
}

// tcpPoolSize bounds the buffers the pool keeps: enough for the frames of
// a ring step from each neighbour in flight.
const tcpPoolSize = 8

// take returns a buffer of n bytes, reused when the pool has one: the ring
// receives a chunk per step, and fresh allocations of MiB cost page faults
// and zeroing as much as the copy.
func (m *tcpMesh) take(n int) []byte {
	m.poolMu.Lock()
	for i, b := range m.pool {
		if cap(b) >= n && cap(b) <= 2*n {
			last := len(m.pool) - 1
			m.pool[i], m.pool[last] = m.pool[last], nil
			m.pool = m.pool[:last]
			m.poolMu.Unlock()
			return b[:n]
		}
	}
	m.poolMu.Unlock()
	return make([]byte, n)
}

// release gives a received payload back once its data is used.
func (m *tcpMesh) release(b []byte) {
	if cap(b) < 4096 {
		return
	}
	m.poolMu.Lock()
	defer m.poolMu.Unlock()
	if len(m.pool) < tcpPoolSize {
		m.pool = append(m.pool, b)
	}
}

func newTCPPeer(rank int, addr string, conn net.Conn) *tcpPeer {
	return &tcpPeer{rank: rank, addr: addr, conn: conn, boxes: map[tcpKey]*tcpBox{}, dead: make(chan struct{})}
}

// newTCPMesh listens on host, publishes the address in the store, dials
// every lower rank and accepts every higher one, within timeout (0: none).
func newTCPMesh(kv *store.Client, me, n int, host string, timeout time.Duration) (*tcpMesh, error) {
	ln, err := net.Listen("tcp", net.JoinHostPort(host, "0"))
	if err != nil {
		return nil, fmt.Errorf("dist: tcp backend, rank %d: listen on %s (%s): %w", me, host, TCPAddrEnv, err)
	}
	m := &tcpMesh{me: me, peers: make([]*tcpPeer, n), ln: ln}
	if err := kv.Set(tcpAddrKey(me), []byte(ln.Addr().String())); err != nil {
		ln.Close()
		return nil, err
	}
	var deadline time.Time
	if timeout > 0 {
		deadline = time.Now().Add(timeout)
	}
	accepted := make(chan error, 1)
	go func() { accepted <- m.accept(kv, n, deadline, timeout) }() // ends by the deadline, or when ln closes
	err = m.dial(kv, deadline, timeout)
	if err != nil {
		ln.Close() // ends accept
	}
	if aerr := <-accepted; err == nil {
		err = aerr
	}
	ln.Close() // every peer is connected: nobody dials any more
	if err != nil {
		m.close()
		return nil, err
	}
	for _, p := range m.peers {
		if p != nil {
			m.readers.Add(1)
			go func() { // ends when the connection does (close, or the peer's end)
				defer m.readers.Done()
				p.readLoop(m)
			}()
		}
	}
	return m, nil
}

func tcpAddrKey(rank int) string { return "tcp-addr/" + strconv.Itoa(rank) }

// dial connects to every lower rank once it has published its address.
func (m *tcpMesh) dial(kv *store.Client, deadline time.Time, timeout time.Duration) error {
	for q := 0; q < m.me; q++ {
		wait := time.Duration(0)
		if !deadline.IsZero() {
			wait = max(time.Until(deadline), time.Millisecond)
		}
		v, ok, err := kv.Wait(tcpAddrKey(q), wait)
		if err != nil {
			return err
		}
		if !ok {
			return &TimeoutError{Group: "world", Call: "the tcp rendezvous (its address in the store)", Missing: []int{q}, Waiting: []int{m.me}, Waited: timeout}
		}
		addr := string(v)
		c, err := net.DialTimeout("tcp", addr, max(time.Until(deadline), 10*time.Second))
		if err != nil {
			return fmt.Errorf("dist: tcp backend, rank %d: connect to rank %d at %s: %w (is %s reachable from this node? set %s on that node)", m.me, q, addr, err, addr, TCPAddrEnv)
		}
		hello := binary.LittleEndian.AppendUint32([]byte(tcpHello), uint32(m.me))
		if _, err := c.Write(hello); err != nil {
			c.Close()
			return fmt.Errorf("dist: tcp backend, rank %d: greet rank %d at %s: %w", m.me, q, addr, err)
		}
		m.peers[q] = newTCPPeer(q, addr, c)
	}
	return nil
}

// accept takes the connections of every higher rank.
func (m *tcpMesh) accept(kv *store.Client, n int, deadline time.Time, timeout time.Duration) error {
	tl := m.ln.(*net.TCPListener)
	tl.SetDeadline(deadline)
	for got := 0; got < n-1-m.me; {
		c, err := tl.Accept()
		if err != nil {
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				var missing []int
				for q := m.me + 1; q < n; q++ {
					if m.peers[q] == nil {
						missing = append(missing, q)
					}
				}
				return &TimeoutError{Group: "world", Call: "the tcp rendezvous (its connection)", Missing: missing, Waiting: []int{m.me}, Waited: timeout}
			}
			if errors.Is(err, net.ErrClosed) {
				return nil // dial failed, and says why
			}
			return fmt.Errorf("dist: tcp backend, rank %d: accept on %s: %w", m.me, m.ln.Addr(), err)
		}
		hello := make([]byte, len(tcpHello)+4)
		c.SetReadDeadline(time.Now().Add(10 * time.Second))
		if _, err := io.ReadFull(c, hello); err != nil || string(hello[:len(tcpHello)]) != tcpHello {
			c.Close() // not a rank of this job (a port scanner, a stale job): ignore it
			continue
		}
		c.SetReadDeadline(time.Time{})
		q := int(binary.LittleEndian.Uint32(hello[len(tcpHello):]))
		if q <= m.me || q >= n || m.peers[q] != nil {
			c.Close()
			return fmt.Errorf("dist: tcp backend, rank %d: a connection from rank %d, which should not connect here (world of %d): two jobs share MASTER_PORT?", m.me, q, n)
		}
		addr, _, _ := kv.Get(tcpAddrKey(q))
		m.peers[q] = newTCPPeer(q, string(addr), c)
		got++
	}
	return nil
}

// tcpRemoteAbort is the end of a connection whose peer aborted and said why.
type tcpRemoteAbort struct{ cause string }

func (e *tcpRemoteAbort) Error() string { return "aborted: " + e.cause }

// abort tells every peer why this rank aborts (within a second), so that
// their errors name the cause rather than this rank, then closes the
// connections.
func (m *tcpMesh) abort(cause string) {
	var wg sync.WaitGroup
	for _, p := range m.peers {
		if p != nil {
			wg.Go(func() { p.write(tcpKey{kind: tcpAbort}, 0, 1, []byte(cause), time.Second) })
		}
	}
	sent := make(chan struct{})
	go func() { wg.Wait(); close(sent) }() // ends when the writes do: by their deadline, or at close
	select {
	case <-sent:
	case <-time.After(time.Second):
	}
	m.close()
}

// close closes every connection and waits for the readers; it is safe to
// call more than once.
func (m *tcpMesh) close() error {
	m.once.Do(func() {
		m.ln.Close()
		for _, p := range m.peers {
			if p != nil {
				p.conn.Close()
			}
		}
	})
	m.readers.Wait()
	return nil
}

// box returns k's box; p.mu is held.
func (p *tcpPeer) box(k tcpKey) *tcpBox {
	b := p.boxes[k]
	if b == nil {
		b = &tcpBox{wake: make(chan struct{}, 1)}
		p.boxes[k] = b
	}
	return b
}

// maxTCPFrame bounds a frame's payload (a corrupt header must not
// allocate terabytes).
const maxTCPFrame = 1 << 40

// readLoop reads frames until the connection ends, then records why.
func (p *tcpPeer) readLoop(m *tcpMesh) {
	r := bufio.NewReaderSize(p.conn, 64<<10)
	h := make([]byte, tcpHeader)
	for {
		if _, err := io.ReadFull(r, h); err != nil {
			p.fail(err)
			return
		}
		k := tcpKey{tag: binary.LittleEndian.Uint64(h), kind: h[8]}
		f := tcpFrame{size: h[9], seq: int64(binary.LittleEndian.Uint64(h[10:]))}
		n := binary.LittleEndian.Uint64(h[18:])
		if n > maxTCPFrame {
			p.fail(fmt.Errorf("a frame of %d bytes: the stream is corrupt", n))
			return
		}
		if n > 0 {
			f.data = m.take(int(n))
			if _, err := io.ReadFull(r, f.data); err != nil {
				p.fail(err)
				return
			}
		}
		if k.kind == tcpAbort {
			p.fail(&tcpRemoteAbort{cause: string(f.data)})
			return
		}
		p.mu.Lock()
		b := p.box(k)
		b.q = append(b.q, f)
		select {
		case b.wake <- struct{}{}:
		default:
		}
		p.mu.Unlock()
	}
}

func (p *tcpPeer) fail(err error) {
	if errors.Is(err, io.ErrUnexpectedEOF) {
		err = io.EOF
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.err == nil {
		p.err = err
		close(p.dead)
	}
}

// read returns the next frame of k, waiting at most timeout (0: no
// limit). Frames that arrived before the connection ended are delivered
// first.
func (p *tcpPeer) read(k tcpKey, timeout time.Duration) (tcpFrame, error) {
	var deadline time.Time
	if timeout > 0 {
		deadline = time.Now().Add(timeout)
	}
	return p.await(k, math.MinInt64, deadline)
}

// await returns the next frame of k numbered from seq on, dropping the
// older ones (words of a call whose check gave up on them), and waits
// until deadline at the latest (zero: no limit; past: it looks once).
func (p *tcpPeer) await(k tcpKey, seq int64, deadline time.Time) (tcpFrame, error) {
	var expire <-chan time.Time
	for {
		p.mu.Lock()
		b := p.box(k)
		for len(b.q) > 0 && b.q[0].seq < seq {
			b.q[0] = tcpFrame{}
			b.q = b.q[1:]
		}
		if len(b.q) > 0 {
			f := b.q[0]
			b.q[0] = tcpFrame{}
			b.q = b.q[1:]
			p.mu.Unlock()
			return f, nil
		}
		err := p.err
		p.mu.Unlock()
		if err != nil {
			return tcpFrame{}, err
		}
		if expire == nil && !deadline.IsZero() {
			left := time.Until(deadline)
			if left <= 0 {
				return tcpFrame{}, errTCPTimeout
			}
			t := time.NewTimer(left)
			defer t.Stop()
			expire = t.C
		}
		select {
		case <-b.wake:
		case <-p.dead:
		case <-expire:
			return tcpFrame{}, errTCPTimeout
		}
	}
}

// write sends one frame, waiting at most timeout (0: no limit) for the
// peer to take it.
func (p *tcpPeer) write(k tcpKey, seq int64, size uint8, data []byte, timeout time.Duration) error {
	var h [tcpHeader]byte
	putHeader(h[:], k, seq, size, len(data))
	p.wmu.Lock()
	defer p.wmu.Unlock()
	if timeout > 0 {
		p.conn.SetWriteDeadline(time.Now().Add(timeout))
	}
	bufs := net.Buffers{h[:], data}
	_, err := bufs.WriteTo(p.conn)
	if err != nil {
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			return errTCPTimeout
		}
		p.mu.Lock()
		if p.err != nil {
			err = p.err // the reader saw it first: EOF says more than a broken pipe
		}
		p.mu.Unlock()
	}
	return err
}
