package dist

import (
	"encoding/binary"
	"errors"
	"fmt"
	"time"
)

// tcpCheckNet carries the call check's words (check.go) over the tcp
// backend's connections: a descriptor or a verdict is one frame of kind
// tcpCheck numbered by its call, so a check costs two latencies of the
// connections (tens of µs on one machine) where the launcher's store
// cost four round trips and a polling loop (0.4 ms on 2 processes, and
// more when another program holds a core), and the store keeps no key
// per call. Whoever waits sleeps on the connection's reader
// (tcpCheckWaiter.wait), and a peer whose connection ends is named at
// once.
type tcpCheckNet struct{ b *tcpBackend }

// send writes words as group rank q's frame of call seq.
func (t tcpCheckNet) send(seq int64, q int, words []int64) error {
	data := make([]byte, 0, 8*len(words))
	for _, w := range words {
		data = binary.LittleEndian.AppendUint64(data, uint64(w))
	}
	if err := t.b.peer(q).write(tcpKey{t.b.tag, tcpCheck}, seq, 8, data, t.b.cfg.timeout()); err != nil {
		return t.b.peerErr("the call check", seq, q, err)
	}
	return nil
}

func (t tcpCheckNet) toRoot(seq int64, words []int64) (waiter, error) {
	return nil, t.send(seq, 0, words)
}

func (t tcpCheckNet) toRank(seq int64, q int, words []int64) error { return t.send(seq, q, words) }

func (t tcpCheckNet) fromRoot(seq int64, into []int64) (waiter, error) {
	return &tcpCheckWaiter{b: t.b, q: 0, seq: seq, into: into}, nil
}

func (t tcpCheckNet) fromRank(seq int64, q int, into []int64) (waiter, error) {
	return &tcpCheckWaiter{b: t.b, q: q, seq: seq, into: into}, nil
}

// tcpCheckWaiter is the pending frame of call seq from group rank q.
type tcpCheckWaiter struct {
	b    *tcpBackend
	q    int
	seq  int64
	into []int64
}

func (w *tcpCheckWaiter) done() (bool, error) { return w.wait(time.Now()) }

// wait sleeps until the frame has come (true), deadline has passed
// (false; zero: no limit) or q's connection has ended (its error).
func (w *tcpCheckWaiter) wait(deadline time.Time) (bool, error) {
	f, err := w.b.peer(w.q).await(tcpKey{w.b.tag, tcpCheck}, w.seq, deadline)
	if errors.Is(err, errTCPTimeout) {
		return false, nil
	}
	if err != nil {
		return false, w.b.peerErr("the call check", w.seq, w.q, err)
	}
	defer w.b.mesh.release(f.data)
	if f.seq != w.seq || len(f.data) != 8*len(w.into) {
		return false, fmt.Errorf("dist: internal error: the call check #%d of %s on rank %d got frame #%d of %d bytes from rank %d, want %d bytes",
			w.seq, w.b.name, w.b.me, f.seq, len(f.data), w.q, 8*len(w.into))
	}
	for i := range w.into {
		w.into[i] = int64(binary.LittleEndian.Uint64(f.data[8*i:]))
	}
	return true, nil
}

// cancel leaves a frame that comes later in its box: the next call's
// wait drops it (await skips older calls).
func (w *tcpCheckWaiter) cancel() {}
