package dist

import (
	"fmt"
	"sync"
)

// desc describes one collective call; all ranks of a group must make the
// same calls in the same order.
type desc struct {
	kind  string // "all-reduce", "broadcast", ...
	dtype string // "float32", "float64", "" (barrier)
	count int    // elements of the input buffer
	op    Op
	root  int
}

func (d desc) String() string {
	s := d.kind
	if d.dtype != "" {
		s += fmt.Sprintf("(%s × %d", d.dtype, d.count)
		switch d.kind {
		case "all-reduce", "reduce", "reduce-scatter":
			s += ", " + d.op.String()
		}
		switch d.kind {
		case "broadcast", "reduce":
			s += fmt.Sprintf(", root %d", d.root)
		}
		s += ")"
	}
	return s
}

// callHistory is how many recent descriptors of each rank the mismatch
// check remembers; ranks further apart than this are not compared.
const callHistory = 16

// callTable numbers each rank's collective calls and compares the
// descriptors of equal numbers across ranks. Each rank publishes its
// descriptor before it exchanges any data, under one mutex, so of any two
// ranks the second one to arrive sees the first one's descriptor: a
// mismatch is always found by someone, before anyone reads a buffer of the
// wrong size.
type callTable struct {
	mu   sync.Mutex
	next []int64             // next call number of each rank
	hist [][callHistory]desc // recent descriptors, by call number mod callHistory
}

func (t *callTable) init(n int) {
	t.next = make([]int64, n)
	t.hist = make([][callHistory]desc, n)
}

// enter records rank's next call and returns its number, or a mismatch.
func (t *callTable) enter(g *Group, rank int, d desc) (int64, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	seq := t.next[rank]
	t.next[rank]++
	t.hist[rank][seq%callHistory] = d
	for q := range t.next {
		if q == rank || t.next[q] <= seq || t.next[q]-seq > callHistory {
			continue
		}
		if other := t.hist[q][seq%callHistory]; other != d {
			return seq, &MismatchError{Group: g.name, Call: seq, Rank: rank, Peer: q, Got: d.String(), Want: other.String()}
		}
	}
	return seq, nil
}

// call is one rank's side of one collective: it sends and receives views,
// records the transfers and acknowledges what it read.
type call struct {
	r      *Rank
	d      desc
	seq    int64
	sentTo []int // group ranks that received views of our buffers
	readOf []int // group ranks whose views we read
	rec    []Transfer
	keep   bool
}

// begin starts a collective: it checks the group is healthy and the call
// matches the other ranks' calls (a mismatch aborts the world).
func (r *Rank) begin(d desc) (*call, error) {
	w := r.g.w
	if w.isAborted() {
		return nil, opError(d.kind, r.rank, w.abortErr())
	}
	if be := r.g.be; be != nil {
		seq, err := be.check(r, d)
		if err != nil {
			w.abort(err)
			return nil, opError(d.kind, r.rank, err)
		}
		return &call{r: r, d: d, seq: seq}, nil
	}
	seq, err := r.g.calls.enter(r.g, r.rank, d)
	if err != nil {
		w.abort(err)
		return nil, opError(d.kind, r.rank, err)
	}
	return &call{r: r, d: d, seq: seq, keep: r.g.log.keep > 0}, nil
}

// fail wraps err with the operation and rank. The algorithms return bare
// errors; the exported functions wrap them once.
func (c *call) fail(err error) error { return opError(c.d.kind, c.r.rank, err) }

// send passes a view of v to group rank to, recording tr.
func send[T Float](c *call, to int, v []T, tr Transfer) error {
	m := viewOf(v)
	m.seq = c.seq
	l := c.r.g.links.get(c.r.rank, to)
	l.count(m.bytes())
	tr.From, tr.To, tr.Bytes = c.r.rank, to, m.bytes()
	if c.keep {
		c.rec = append(c.rec, tr)
	}
	if len(v) > 0 { // an empty view references no memory: nothing to acknowledge
		addOnce(&c.sentTo, to)
	}
	return waitSend(c.r, l.coll, m, c.r.waitOn(c.d.kind, c.seq, "send to", to))
}

// recv receives the next view from group rank from; it must hold want
// elements.
func recv[T Float](c *call, from, want int) ([]T, error) {
	l := c.r.g.links.get(from, c.r.rank)
	m, err := waitRecv(c.r, l.coll, c.r.waitOn(c.d.kind, c.seq, "recv from", from))
	if err != nil {
		return nil, err
	}
	if m.seq != c.seq || m.n != want {
		err := fmt.Errorf("dist: internal error: %s #%d on rank %d got message #%d of %d elements from rank %d, want %d",
			c.d.kind, c.seq, c.r.rank, m.seq, m.n, from, want)
		c.r.g.w.abort(err)
		return nil, err
	}
	if m.n > 0 {
		addOnce(&c.readOf, from)
	}
	return sliceOf[T](m), nil
}

// finish ends the collective: it tells every rank whose buffer we read that
// we are done with it, then waits until every rank that read ours says the
// same, so that on return no other goroutine touches this rank's buffers.
// (Acknowledging first is what keeps the ring from waiting in a circle.)
// Then it hands the recorded transfers to the group's log.
func (c *call) finish(meta Record) error {
	r := c.r
	for _, src := range c.readOf {
		l := r.g.links.get(src, r.rank)
		if err := waitSend(r, l.ack, c.seq, r.waitOn(c.d.kind, c.seq, "ack to", src)); err != nil {
			return err
		}
	}
	for _, dst := range c.sentTo {
		l := r.g.links.get(r.rank, dst)
		seq, err := waitRecv(r, l.ack, r.waitOn(c.d.kind, c.seq, "ack from", dst))
		if err != nil {
			return err
		}
		if seq != c.seq {
			err := fmt.Errorf("dist: internal error: %s #%d on rank %d got ack #%d from rank %d", c.d.kind, c.seq, r.rank, seq, dst)
			r.g.w.abort(err)
			return err
		}
	}
	meta.Seq, meta.Collective = c.seq, c.d.kind
	r.g.log.flush(r.rank, meta, c.rec)
	return nil
}

func addOnce(s *[]int, v int) {
	for _, x := range *s {
		if x == v {
			return
		}
	}
	*s = append(*s, v)
}
