package dist

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"net"
	"os"
	"strconv"
	"time"
	"unsafe"

	"github.com/dlbd/dlbd/dl"
	"github.com/dlbd/dlbd/dl/dist/internal/reduce"
	"github.com/dlbd/dlbd/dl/dist/internal/store"
)

// The tcp backend: one rank per process on CPUs, any number of nodes,
// started by `dlbd run --backend tcp` (torchrun's environment), like
// PyTorch's gloo backend. The ranks meet through the launcher's
// rendezvous store: each listens on a TCP port of its node's address
// (TCPAddrEnv, else the address its node uses to reach MASTER_ADDR),
// publishes host:port under tcp-addr/<rank>, and every pair of ranks
// connects once (tcpmesh.go). The call check (check.go) and the data go
// over the connections:
//
//   - AllReduce: ring reduce-scatter then ring all-gather (2(n-1) steps,
//     each rank sending 2(n-1)/n·S bytes: bandwidth-optimal, what NCCL and
//     gloo use for large buffers);
//   - ReduceScatter and AllGather: the two halves of that ring;
//   - Broadcast and Reduce: binomial trees (⌈log₂ n⌉ steps);
//   - Barrier: dissemination (⌈log₂ n⌉ rounds of empty messages);
//   - Send/Recv: one message with a header (count, element size) that
//     Recv checks against its buffer;
//   - Split: the sub-group reuses the world's connections, its messages
//     tagged with the hash of its name.
//
// Why a full mesh rather than a ring of connections: Send/Recv, the trees
// and sub-groups need arbitrary pairs, and the n(n-1)/2 connections of a
// course's world (n ≤ 16: at most 120) cost nothing; the ring algorithms
// use two of each rank's connections.
//
// Every element is reduced once, in a fixed order, by the rank that owns
// its chunk, and copied to the others: results are bit-identical on every
// rank (they may differ from the in-process ones in the last bits of
// rounding, as on MPI). A peer that dies (EOF, connection reset) makes
// every rank waiting on it fail at once with a *TCPPeerError naming it and
// its address; a peer that does not answer within Config.Timeout is named
// by a *TimeoutError.
//
// Course: "¿Por qué entrenamiento distribuido?", "Data Parallelism (DP)".
type tcpBackend struct {
	mesh    *tcpMesh
	kv      *store.Client
	name    string // the group's name: the prefix of its store keys
	tag     uint64 // the hash of name: the group's tag in the frames
	n, me   int
	members []int // world rank of each group rank
	cfg     Config
	chk     checker
	world   bool
}

// TCPAddrEnv names the variable that sets the address (an IP or a host
// name of this node, which the other nodes can reach) the ranks of the tcp
// backend listen on, like gloo's GLOO_SOCKET_IFNAME; each rank takes a free
// port of it. Unset, a rank listens on the address its node uses
// to reach MASTER_ADDR (the kernel's route to it; no packet is sent),
// which is 127.0.0.1 when MASTER_ADDR is.
const TCPAddrEnv = "DLBD_TCP_ADDR"

// newTCPWorld joins the job's mesh of TCP connections.
func newTCPWorld(cfg Config) (*Group, error) {
	rank, size, err := launchedRank(TCP)
	if err != nil {
		return nil, err
	}
	if err := checkSize(TCP, cfg.WorldSize, size); err != nil {
		return nil, err
	}
	master, port := os.Getenv("MASTER_ADDR"), os.Getenv("MASTER_PORT")
	host, err := tcpListenHost(master, port)
	if err != nil {
		return nil, fmt.Errorf("dist: tcp backend, rank %d: %w", rank, err)
	}
	kv, err := store.Dial(net.JoinHostPort(master, port), cfg.timeout()+10*time.Second)
	if err != nil {
		return nil, fmt.Errorf("dist: tcp backend, rank %d: %w", rank, err)
	}
	mesh, err := newTCPMesh(kv, rank, size, host, cfg.timeout())
	if err != nil {
		kv.Close()
		return nil, err
	}
	members := make([]int, size)
	for i := range members {
		members[i] = i
	}
	be := newTCPBackend(mesh, kv, "world", rank, members, cfg)
	be.world = true
	return newProcessWorld(cfg, be, rank, size, dl.Sim(rank)), nil
}

func newTCPBackend(m *tcpMesh, kv *store.Client, name string, me int, members []int, cfg Config) *tcpBackend {
	h := fnv.New64a()
	h.Write([]byte(name))
	b := &tcpBackend{mesh: m, kv: kv, name: name, tag: h.Sum64(), n: len(members), me: me, members: members, cfg: cfg}
	b.chk = checker{net: tcpCheckNet{b}, n: b.n, me: me, timeout: cfg.timeout()}
	return b
}

// tcpListenHost is the address this rank listens on: $DLBD_TCP_ADDR, else
// the local address of the route to the master.
func tcpListenHost(master, port string) (string, error) {
	if h := os.Getenv(TCPAddrEnv); h != "" {
		if host, _, err := net.SplitHostPort(h); err == nil {
			return host, nil // host:port given: the port is chosen here
		}
		return h, nil
	}
	if master == "" || port == "" {
		return "", fmt.Errorf("MASTER_ADDR=%q MASTER_PORT=%q: start the job with `dlbd run --backend tcp` (torchrun's variables)", master, port)
	}
	c, err := net.Dial("udp", net.JoinHostPort(master, port))
	if err != nil {
		return "", fmt.Errorf("no route to MASTER_ADDR %s to choose the address to listen on (%w): set %s to this node's address", master, err, TCPAddrEnv)
	}
	defer c.Close()
	return c.LocalAddr().(*net.UDPAddr).IP.String(), nil
}

// The frames' kinds: collective data, point-to-point messages, the
// call check's words.
const (
	tcpColl uint8 = iota
	tcpP2P
	tcpAbort // the sender aborts; the payload is its cause
	tcpCheck
)

func (b *tcpBackend) check(r *Rank, d desc) (int64, error) { return b.chk.check(r, d) }

func (b *tcpBackend) peer(q int) *tcpPeer { return b.mesh.peers[b.members[q]] }

func (b *tcpBackend) mod(q int) int { return ((q % b.n) + b.n) % b.n }

// put sends data (elements of size bytes) of call c to group rank q.
func (b *tcpBackend) put(c *call, q int, size uintptr, data []byte) error {
	err := b.peer(q).write(tcpKey{b.tag, tcpColl}, c.seq, uint8(size), data, b.cfg.timeout())
	if err != nil {
		return b.peerErr(c.d.kind, c.seq, q, err)
	}
	return nil
}

// get receives the next message of call c from group rank q; it must
// hold want bytes.
func (b *tcpBackend) get(c *call, q, want int) ([]byte, error) {
	f, err := b.peer(q).read(tcpKey{b.tag, tcpColl}, b.cfg.timeout())
	if err != nil {
		return nil, b.peerErr(c.d.kind, c.seq, q, err)
	}
	if f.seq != c.seq || len(f.data) != want {
		return nil, fmt.Errorf("dist: internal error: %s #%d of %s on rank %d got message #%d of %d bytes from rank %d, want %d bytes",
			c.d.kind, c.seq, b.name, b.me, f.seq, len(f.data), q, want)
	}
	return f.data, nil
}

// peerErr names group rank q in the error of a transfer with it.
func (b *tcpBackend) peerErr(op string, seq int64, q int, err error) error {
	call := fmt.Sprintf("%s #%d", op, seq)
	if seq < 0 {
		call = op
	}
	if errors.Is(err, errTCPTimeout) {
		return &TimeoutError{Group: b.name, Call: call + " (waiting for its data)", Missing: []int{b.members[q]}, Waiting: []int{b.mesh.me}, Waited: b.cfg.timeout()}
	}
	p := b.peer(q)
	var ra *tcpRemoteAbort
	if errors.As(err, &ra) {
		return fmt.Errorf("dist: tcp backend: rank %d aborted the job during %s of %s, because: %s", p.rank, call, b.name, ra.cause)
	}
	return &TCPPeerError{Rank: p.rank, Addr: p.addr, Seen: b.mesh.me, Call: call, Group: b.name, Err: err}
}

// TCPPeerError is the error of a transfer with a rank of the tcp backend
// whose connection failed: it died (EOF, connection reset) or aborted.
type TCPPeerError struct {
	Rank  int    // world rank of the peer
	Addr  string // its host:port
	Seen  int    // the world rank that saw the failure
	Call  string // e.g. "all-reduce #3"
	Group string
	Err   error // the connection's error
}

// Error names the lost rank first: it is the one to look at.
func (e *TCPPeerError) Error() string {
	return fmt.Sprintf("dist: tcp backend: rank %d at %s is gone (%v) during %s of %s, seen by rank %d: it died or aborted (its launcher names the cause)",
		e.Rank, e.Addr, e.Err, e.Call, e.Group, e.Seen)
}

// Unwrap returns the connection's error.
func (e *TCPPeerError) Unwrap() error { return e.Err }

// hostBytes is the memory of a host buffer.
func hostBytes(b hostBuf) []byte {
	if b.n == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(b.p), b.bytes())
}

// combineBytes sets dst = op(dst, src) element-wise, dividing by div when
// it is not 0, on elements of size bytes.
func combineBytes(dst, src []byte, size uintptr, op reduce.Op, div float64) {
	if len(dst) == 0 {
		return
	}
	if size == 4 {
		n := len(dst) / 4
		reduce.Combine(unsafe.Slice((*float32)(unsafe.Pointer(&dst[0])), n), unsafe.Slice((*float32)(unsafe.Pointer(&src[0])), n), op, float32(div))
		return
	}
	n := len(dst) / 8
	reduce.Combine(unsafe.Slice((*float64)(unsafe.Pointer(&dst[0])), n), unsafe.Slice((*float64)(unsafe.Pointer(&src[0])), n), op, div)
}

// chunks cuts a buffer of count elements of size bytes into n nearly
// equal chunks (the first ones shorter when n does not divide count).
func chunks(data []byte, count, n int, size uintptr) func(i int) []byte {
	return func(i int) []byte {
		lo, hi := i*count/n, (i+1)*count/n
		return data[lo*int(size) : hi*int(size)]
	}
}

// ringReduceScatter reduces chunk i of every rank's src into dst on rank
// i: n-1 steps, in each of which a rank sends a partial result to its
// right neighbour and adds its own chunk to the one from its left. Chunk
// k travels k+1, k+2, …, k, so it is reduced in that order on every run.
func (b *tcpBackend) ringReduceScatter(c *call, src func(int) []byte, dst []byte, size uintptr, op reduce.Op, div float64) error {
	right, left := b.mod(b.me+1), b.mod(b.me-1)
	acc, owned := src(b.mod(b.me-1)), false
	for s := 0; s < b.n-1; s++ {
		if err := b.put(c, right, size, acc); err != nil {
			return err
		}
		if owned {
			b.mesh.release(acc)
		}
		k := b.mod(b.me - 2 - s)
		got, err := b.get(c, left, len(src(k)))
		if err != nil {
			return err
		}
		if s < b.n-2 {
			combineBytes(got, src(k), size, op, 0)
			acc, owned = got, true
			continue
		}
		// the last step: k is b.me
		if mine := src(k); len(mine) > 0 && &dst[0] != &mine[0] {
			copy(dst, mine)
		}
		combineBytes(dst, got, size, op, div)
		b.mesh.release(got)
	}
	return nil
}

// ringAllGather passes every rank's chunk (chunk i on rank i) around the
// ring until all ranks have all chunks.
func (b *tcpBackend) ringAllGather(c *call, chunk func(int) []byte, size uintptr) error {
	right, left := b.mod(b.me+1), b.mod(b.me-1)
	for s := 0; s < b.n-1; s++ {
		if err := b.put(c, right, size, chunk(b.mod(b.me-s))); err != nil {
			return err
		}
		into := chunk(b.mod(b.me - 1 - s))
		got, err := b.get(c, left, len(into))
		if err != nil {
			return err
		}
		copy(into, got)
		b.mesh.release(got)
	}
	return nil
}

func (b *tcpBackend) allReduce(c *call, buf hostBuf, op Op) error {
	if b.n == 1 {
		return nil
	}
	kop, div := op.kernel(b.n)
	chunk := chunks(hostBytes(buf), buf.n, b.n, buf.size)
	if err := b.ringReduceScatter(c, chunk, chunk(b.me), buf.size, kop, div); err != nil {
		return err
	}
	return b.ringAllGather(c, chunk, buf.size)
}

func (b *tcpBackend) reduceScatter(c *call, out, in hostBuf, op Op) error {
	if b.n == 1 {
		copy(hostBytes(out), hostBytes(in))
		return nil
	}
	kop, div := op.kernel(b.n)
	return b.ringReduceScatter(c, chunks(hostBytes(in), in.n, b.n, in.size), hostBytes(out), in.size, kop, div)
}

func (b *tcpBackend) allGather(c *call, out, in hostBuf) error {
	chunk := chunks(hostBytes(out), out.n, b.n, out.size)
	copy(chunk(b.me), hostBytes(in))
	return b.ringAllGather(c, chunk, out.size)
}

// broadcast sends the root's buffer down a binomial tree rooted at root:
// in relative ranks v = rank - root, v receives from v minus its lowest
// set bit, then sends to v + 2^k for the smaller powers.
func (b *tcpBackend) broadcast(c *call, buf hostBuf, root int) error {
	data := hostBytes(buf)
	v := b.mod(b.me - root)
	mask := 1
	for ; mask < b.n; mask <<= 1 {
		if v&mask != 0 {
			got, err := b.get(c, b.mod(v-mask+root), len(data))
			if err != nil {
				return err
			}
			copy(data, got)
			b.mesh.release(got)
			break
		}
	}
	for mask >>= 1; mask > 0; mask >>= 1 {
		if v+mask < b.n {
			if err := b.put(c, b.mod(v+mask+root), buf.size, data); err != nil {
				return err
			}
		}
	}
	return nil
}

// reduce reduces up the binomial tree of broadcast: each rank combines its
// children's partial results with its own, and sends the sum to its
// parent. Non-root buffers are left unchanged.
func (b *tcpBackend) reduce(c *call, buf hostBuf, root int, op Op) error {
	data := hostBytes(buf)
	kop, div := op.kernel(b.n)
	v := b.mod(b.me - root)
	acc, owned := data, v == 0 // the root reduces into buf itself
	for mask := 1; mask < b.n; mask <<= 1 {
		if v&mask != 0 {
			err := b.put(c, b.mod(v-mask+root), buf.size, acc)
			if owned && v != 0 {
				b.mesh.release(acc)
			}
			return err
		}
		if v+mask >= b.n {
			continue
		}
		got, err := b.get(c, b.mod(v+mask+root), len(data))
		if err != nil {
			return err
		}
		if owned {
			combineBytes(acc, got, buf.size, kop, 0)
			b.mesh.release(got)
		} else { // the first child of a non-root rank: keep buf as it is
			combineBytes(got, acc, buf.size, kop, 0)
			acc, owned = got, true
		}
	}
	if div != 0 {
		divideBy(buf, b.n) // only the root gets here
	}
	return nil
}

// barrier is the dissemination barrier: in round k every rank signals
// rank + 2^k and waits for rank - 2^k; after ⌈log₂ n⌉ rounds every rank
// has heard, directly or not, from every other.
func (b *tcpBackend) barrier(c *call) error {
	for k := 1; k < b.n; k <<= 1 {
		if err := b.put(c, b.mod(b.me+k), 1, nil); err != nil {
			return err
		}
		if _, err := b.get(c, b.mod(b.me-k), 0); err != nil {
			return err
		}
	}
	return nil
}

// send writes one message: its element count in the header's seq field,
// its element size, and the values. It returns once the message is in the
// kernel's socket buffer or read by the peer's receiving goroutine (which
// always reads), so it does not wait for the matching Recv.
func (b *tcpBackend) send(r *Rank, buf hostBuf, dst int) error {
	err := b.peer(dst).write(tcpKey{b.tag, tcpP2P}, int64(buf.n), uint8(buf.size), hostBytes(buf), b.cfg.timeout())
	if err != nil {
		return b.peerErr("send", -1, dst, err)
	}
	return nil
}

// recv takes the next message from src and checks its size and element
// type against buf, as the in-process Recv does.
func (b *tcpBackend) recv(r *Rank, buf hostBuf, src int) error {
	f, err := b.peer(src).read(tcpKey{b.tag, tcpP2P}, b.cfg.timeout())
	if err != nil {
		return b.peerErr("recv", -1, src, err)
	}
	if int(f.seq) != buf.n || uintptr(f.size) != buf.size {
		return recvSizeError(r, src, int(f.seq), int(f.size), buf)
	}
	copy(hostBytes(buf), f.data)
	b.mesh.release(f.data)
	return nil
}

// split all-gathers (color, key, world rank) over the group's connections,
// computes the new group as MPI_Comm_split does, and gives it a backend
// over the same connections with a tag of its own.
func (b *tcpBackend) split(c *call, color, key int) (backend, []int, error) {
	mine := []int64{int64(color), int64(key), int64(b.members[b.me])}
	all := make([]int64, 3*b.n)
	if err := b.allGather(c, bufOfInt64(all), bufOfInt64(mine)); err != nil {
		return nil, nil, err
	}
	if color < 0 {
		return nil, nil, nil
	}
	colors, keys := make([]int, b.n), make([]int, b.n)
	for q := range colors {
		colors[q], keys[q] = int(all[3*q]), int(all[3*q+1])
	}
	qs := splitOrder(colors, keys, color)
	members := make([]int, len(qs))
	me := 0
	for i, q := range qs {
		members[i] = int(all[3*q+2])
		if q == b.me {
			me = i
		}
	}
	name := "split/" + b.name + "/" + strconv.FormatInt(c.seq, 10) + "/" + strconv.Itoa(color)
	return newTCPBackend(b.mesh, b.kv, name, me, members, b.cfg), members, nil
}

func bufOfInt64(v []int64) hostBuf {
	return hostBuf{p: unsafe.Pointer(&v[0]), n: len(v), size: 8}
}

// tcpAbortLinger is how long an aborting rank waits before it returns (and
// its process exits): long enough for the launchers, which look at the
// store's abort key every 200 ms, to read the cause and stop the job, so
// that they name the rank that failed first rather than this one.
const tcpAbortLinger = time.Second

// abort posts the cause in the store (unless a cause is there already:
// the first one names the rank to look at), closes every connection so
// that no peer waits for this rank, and lingers for the launchers.
func (b *tcpBackend) abort(cause error) {
	fmt.Fprintf(os.Stderr, "%v\ndist: rank %d aborts the tcp job\n", cause, b.mesh.me)
	msg := cause.Error()
	var lost *TCPPeerError
	if errors.As(cause, &lost) {
		msg = lost.Error() // starts with the lost rank, which the launcher reads
	}
	if _, set, err := b.kv.Get(AbortKey); err == nil && !set {
		b.kv.Set(AbortKey, []byte(msg))
	}
	b.mesh.abort(msg)
	time.Sleep(tcpAbortLinger)
}

func (b *tcpBackend) close() error {
	if !b.world {
		return nil
	}
	err := b.mesh.close()
	if cerr := b.kv.Close(); err == nil {
		err = cerr
	}
	return err
}

// tcpHeader is the frame header: group tag, kind, element size, call
// number (or element count), payload length.
const tcpHeader = 8 + 1 + 1 + 8 + 8

func putHeader(h []byte, k tcpKey, seq int64, size uint8, n int) {
	binary.LittleEndian.PutUint64(h, k.tag)
	h[8], h[9] = k.kind, size
	binary.LittleEndian.PutUint64(h[10:], uint64(seq))
	binary.LittleEndian.PutUint64(h[18:], uint64(n))
}
