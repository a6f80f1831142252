package dist

import (
	"runtime"
	"sync"
	"sync/atomic"
	"unsafe"
)

// Channel capacities. A collective never has more than n+1 messages in
// flight on one link (the ring sends one per step and a rank cannot get
// more than n-1 steps ahead of its right neighbour), so collective sends
// do not block; point-to-point sends block once p2pDepth messages wait.
const p2pDepth = 16

// linkSpin is how many times a receiver yields before it sleeps.
const linkSpin = 200

// link is the directed connection from one group rank to another: a
// channel for collective messages, one for Send/Recv, one for the
// "finished reading your buffer" acknowledgements that travel back, and the
// link's traffic counters.
type link struct {
	coll  chan message
	p2p   chan message
	ack   chan int64
	bytes atomic.Int64
	msgs  atomic.Int64
}

// message is one transfer. Collective messages are zero-copy: a view of
// the sender's buffer, valid until the receiver acknowledges it at the end
// of the collective. Send/Recv messages carry a private copy.
type message struct {
	seq  int64          // collective call number; -1 for Send
	ptr  unsafe.Pointer // first element (nil when n == 0)
	n    int            // number of elements
	size uintptr        // element size in bytes
}

func viewOf[T Float](v []T) message {
	m := message{n: len(v), size: unsafe.Sizeof(T(0))}
	if len(v) > 0 {
		m.ptr = unsafe.Pointer(&v[0])
	}
	return m
}

// sliceOf returns the message's elements; T must be the sender's type (the
// collective's descriptor check guarantees it).
func sliceOf[T Float](m message) []T {
	if m.n == 0 {
		return nil
	}
	return unsafe.Slice((*T)(m.ptr), m.n)
}

func (m message) bytes() int64 { return int64(m.n) * int64(m.size) }

// links is the n×n table of a group's links, created on first use.
type links struct {
	n   int
	mu  sync.Mutex
	tab []atomic.Pointer[link]
}

func (ls *links) init(n int) {
	ls.n = n
	ls.tab = make([]atomic.Pointer[link], n*n)
}

// get returns the link from group rank a to group rank b.
func (ls *links) get(a, b int) *link {
	p := &ls.tab[a*ls.n+b]
	if l := p.Load(); l != nil {
		return l
	}
	ls.mu.Lock()
	defer ls.mu.Unlock()
	if l := p.Load(); l != nil {
		return l
	}
	l := &link{coll: make(chan message, ls.n+1), p2p: make(chan message, p2pDepth), ack: make(chan int64, 2)}
	p.Store(l)
	return l
}

// count adds one message of b bytes to the link's counters.
func (l *link) count(b int64) {
	l.bytes.Add(b)
	l.msgs.Add(1)
}

// waitRecv receives from ch; if nothing is there it sleeps until a value
// arrives or the world aborts, telling the watchdog what it waits for.
func waitRecv[V any](r *Rank, ch <-chan V, what waitInfo) (V, error) {
	select {
	case v := <-ch:
		return v, nil
	default:
	}
	// Poll a little before sleeping: the sender is usually a step away,
	// and waking a sleeping thread costs tens of microseconds.
	if runtime.GOMAXPROCS(0) > 1 {
		for i := 0; i < linkSpin; i++ {
			runtime.Gosched()
			select {
			case v := <-ch:
				return v, nil
			default:
			}
		}
	}
	w := r.g.w
	w.block(r.state.world, what)
	defer w.unblock(r.state.world)
	select {
	case v := <-ch:
		return v, nil
	case <-w.aborted:
		var zero V
		return zero, w.abortErr()
	}
}

// waitSend sends v on ch, sleeping (abortably) while ch is full.
func waitSend[V any](r *Rank, ch chan<- V, v V, what waitInfo) error {
	w := r.g.w
	select {
	case ch <- v:
		w.events.Add(1)
		return nil
	default:
	}
	w.block(r.state.world, what)
	defer w.unblock(r.state.world)
	select {
	case ch <- v:
		return nil
	case <-w.aborted:
		return w.abortErr()
	}
}

// waitOn describes a wait of r on group rank peer (-1: on all ranks).
func (r *Rank) waitOn(op string, seq int64, dir string, peer int) waitInfo {
	return waitInfo{op: op, g: r.g, group: r.g.name, seq: seq, dir: dir, peer: peer}
}
